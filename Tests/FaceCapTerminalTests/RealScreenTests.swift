import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapTerminal

/// Every screen the flow produces (WizardScenes), in every language there is, at the sizes people use.
final class RealScreenTests: XCTestCase {
    static let sizes = [(60, 20), (80, 24), (100, 32), (200, 60)]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func testEveryScreenNameIsReachable() {
        let names = Set(WizardScenes.reachable().map(\.screenName))
            .union(WizardScenes.reachable(WizardScenes.settings(clip: true), depth: 8).map(\.screenName))
        XCTAssertEqual(Set(ScreenName.allCases).subtracting(names), [], "screens no sequence of events reaches")
    }

    /// The key bar shows exactly the keys that act, and each of them acts.
    func testEveryAdvertisedKeyActsAndEveryOtherKeyDoesNothing() {
        for wizard in WizardScenes.scenes where !wizard.showsHelp {
            let shown = wizard.screen(at: wizard.now).keys.map(\.key)
            XCTAssertEqual(shown, wizard.bindings.compactMap(\.help).map(\.key), "\(wizard.state)")
            for binding in wizard.bindings {
                var pressed = wizard
                let effects = pressed.handle(.key(binding.keys[0]), at: wizard.now + 0.1)
                XCTAssertTrue(
                    !effects.isEmpty || pressed != wizard, "\(binding.keys[0]) on \(wizard.screenName) does nothing")
            }
            let unbound: [Key] = [.character("x"), .character("d"), .space, .enter, .character("r")]
                .filter { key in !wizard.bindings.contains { $0.keys.contains(key) } }
            for key in unbound {
                var pressed = wizard
                XCTAssertEqual(pressed.handle(.key(key), at: wizard.now + 0.1), [], "\(key) on \(wizard.state)")
            }
        }
    }

    /// The languages to check: English, each shipped catalogue, and a pseudo-translation in wide characters
    /// (every message as Japanese-width text without spaces) that proves the double-width layout.
    func languages() throws -> [Translations] {
        var list = [Translations.english, Self.pseudoWide]
        let folder = Self.root + "/Resources/po"
        let scratch = NSTemporaryDirectory() + "facecap-screens-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".po") {
            let language = String(file.dropLast(3))
            let mo = scratch + "/\(language).mo"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
            process.arguments = ["--output-file=" + mo, folder + "/" + file]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, file)
            list.append(try MOFile.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: mo))), language: language))
        }
        return list
    }

    /// Each message with its letters in pairs turned into CJK ideographs and its spaces dropped: about the
    /// cells English takes, but with no space to break at. Placeholders stay as they are.
    static let pseudoWide: Translations = {
        var entries: [String: [String]] = [:]
        for id in MessageID.allCases {
            let forms = [id.english] + (id.englishPlural.map { [$0] } ?? [])
            entries[id.key] = forms.map(widen)
        }
        return Translations(language: "wide", entries: entries)
    }()

    static func widen(_ text: String) -> String {
        var out = ""
        var inPlaceholder = false
        var pending: UInt32 = 0, count = 0
        func flush() {
            if count > 0 { out.unicodeScalars.append(Unicode.Scalar(0x4E00 + pending % 0x5000)!) }
            pending = 0
            count = 0
        }
        for character in text {
            if character == "{" { flush(); inPlaceholder = true }
            if inPlaceholder {
                out.append(character)
                if character == "}" { inPlaceholder = false }
                continue
            }
            if character.isLetter {
                pending = pending &* 31 &+ (character.unicodeScalars.first?.value ?? 0)
                count += 1
                if count == 2 { flush() }
            } else if character == " " {
                continue
            } else {
                flush()
                out.append(character == "." ? "。" : character == "," ? "、" : character)
            }
        }
        flush()
        return out
    }

    func testEveryRealScreenFitsInEveryLanguageWithoutCuttingAWord() throws {
        let scenes = WizardScenes.scenes
        XCTAssertGreaterThan(scenes.count, 20)
        let saved = Words.current
        defer { Words.current = saved }
        for translations in try languages() {
            Words.current = translations
            for scene in scenes {
                for (columns, rows) in Self.sizes {
                    var wizard = scene
                    _ = wizard.handle(.resized(columns: columns, rows: rows), at: scene.now)
                    let model = wizard.screen(at: wizard.now)
                    let what = "\(translations.language) \(model.name) help=\(model.showsHelp) at \(columns)×\(rows)"
                    for problem in problems(model, columns: columns, rows: rows) { XCTFail("\(what): \(problem)") }
                }
            }
        }
    }

    /// The live guidance on the capture screen as the flow shows it: every guidance message (in its plain and its
    /// gentler words) as the main message with the two longest hints of the language under it, every hint under the
    /// longest message, the Steady bar filling, and manual capture offered, at every size in every language.
    func testEveryGuidanceMessageAndHintFitsTheCaptureScreenInEveryLanguage() throws {
        let scenes = WizardScenes.scenes.filter { $0.screenName == .capture && !$0.showsHelp }
        let live = try XCTUnwrap(
            scenes.first { wizard in
                if case .capture(let progress) = wizard.state { return progress.manualOffered == nil }
                return false
            }, "no scene in the capture state")
        let saved = Words.current
        defer { Words.current = saved }
        var checked = 0
        for translations in try languages() {
            Words.current = translations
            // Each code with its words, plain and gentle, longest first (by display width: Japanese is double).
            var worded: [(code: GuidanceCode, slight: Bool, text: String)] = []
            for code in GuidanceCode.allCases where code != .ready {
                worded.append((code, false, Messages.guidance(code)))
                if Messages.guidance(code, slight: true) != Messages.guidance(code) {
                    worded.append((code, true, Messages.guidance(code, slight: true)))
                }
            }
            worded.sort {
                TerminalText.width(of: $0.text, unicode: true) > TerminalText.width(of: $1.text, unicode: true)
            }
            func guidance(
                _ primary: (code: GuidanceCode, slight: Bool), _ hints: [(code: GuidanceCode, slight: Bool)],
                stability: Double = 0, manual: ManualFallbackReason? = nil
            ) -> FrameGuidance {
                let slight = Set(([primary] + hints).filter(\.slight).map(\.code))
                return FrameGuidance(
                    time: 0, primary: primary.code, hints: hints.map(\.code), stability: stability,
                    manualFallback: manual, slight: slight)
            }
            /// The two longest hints of other codes (one wording per code).
            func longestHints(besides code: GuidanceCode) -> [(code: GuidanceCode, slight: Bool)] {
                var hints: [(code: GuidanceCode, slight: Bool)] = []
                for entry in worded where entry.code != code && !hints.contains(where: { $0.code == entry.code }) {
                    hints.append((code: entry.code, slight: entry.slight))
                    if hints.count == 2 { break }
                }
                return hints
            }
            var frames: [FrameGuidance] = []
            for entry in worded {
                frames.append(guidance((code: entry.code, slight: entry.slight), longestHints(besides: entry.code)))
            }
            frames.append(guidance((code: .ready, slight: false), [], stability: 0.6))
            let longest = worded[0]
            for hint in worded where hint.code != longest.code {
                frames.append(
                    guidance((code: longest.code, slight: longest.slight), [(code: hint.code, slight: hint.slight)]))
            }
            let two = longestHints(besides: longest.code)
            frames.append(guidance((code: longest.code, slight: longest.slight), two, manual: .timeout))
            frames.append(guidance((code: longest.code, slight: longest.slight), two, manual: .noConfidentFace))
            for frame in frames {
                for (columns, rows) in Self.sizes {
                    var wizard = live
                    var shown = frame
                    shown.time = wizard.now + 1
                    _ = wizard.handle(.resized(columns: columns, rows: rows), at: wizard.now)
                    _ = wizard.handle(.frameAnalyzed(shown), at: wizard.now + 0.1)
                    let model = wizard.screen(at: wizard.now)
                    XCTAssertTrue(model.name == .capture || model.name == .manualCapture, "\(model.name)")
                    let what =
                        "\(translations.language) \(model.name) \(frame.primary) + \(frame.hints) at \(columns)×\(rows)"
                    for problem in problems(model, columns: columns, rows: rows) { XCTFail("\(what): \(problem)") }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    /// No item past the edge, no word cut (every word on the screen is a whole word of the model's texts), the
    /// key bar on the last row with every key's name and its words whole.
    func problems(_ model: ScreenModel, columns: Int, rows: Int) -> [String] {
        var found: [String] = []
        let layout = ScreenLayout(model, columns: columns, rows: rows, unicode: true, pictureSize: (640, 480))
        let screen = CellRect(x: 0, y: 0, width: columns, height: rows)
        var sources = [
            model.title, model.primary ?? "", model.countdown ?? "", model.progress?.label ?? "",
            Words.text(.helpTitle), Words.text(.keyCloseHelp),
        ]
        sources += model.hints + model.lines + model.helpLines + model.keys.flatMap { [$0.key, $0.action] }
        if let progress = model.progress {
            sources.append(Words.progressPercent(percent: String(Int((progress.fraction * 100).rounded()))))
        }
        let words = Set(sources.flatMap { Self.words($0) })
        for item in layout.items {
            if !screen.contains(CellRect(x: item.column, y: item.row, width: item.width, height: 1)) {
                found.append("past the edge: \(item)")
            }
            switch item.style {
            case .progressFilled, .progressEmpty, .illustration, .helpFrame, .spinner: continue
            default: break
            }
            for word in Self.words(item.text) where !words.contains(word) {
                found.append("\"\(word)\" is cut (in \"\(item.text)\")")
            }
        }
        let bar = layout.items.filter { $0.row == rows - 1 && ($0.style == .keyName || $0.style == .keyAction) }
        let names = bar.filter { $0.style == .keyName }.map { $0.text.trimmingCharacters(in: .whitespaces) }
        if names != model.keys.map(\.key) { found.append("the key bar lost keys: \(names)") }
        if !model.showsHelp {
            for item in layout.items where item.row == rows - 1 && item.style != .keyName && item.style != .keyAction {
                found.append("\(item) on the key bar")
            }
        }
        return found
    }

    /// The checker above finds what it looks for: a cut word, and keys that do not fit.
    func testTheLayoutCheckerSeesACutWordAndALostKey() {
        let long = ScreenModel(
            name: .tutorial, title: String(repeating: "Unbelievably ", count: 8) + "long",
            keys: [KeyHelp("q", "quit")])
        XCTAssertTrue(
            problems(long, columns: 60, rows: 20).contains { $0.contains("is cut") },
            "\(problems(long, columns: 60, rows: 20))")
        let crowded = ScreenModel(
            name: .tutorial, title: "Keys",
            keys: (0..<12).map { KeyHelp("key\($0)", "does something") })
        XCTAssertTrue(problems(crowded, columns: 60, rows: 20).contains { $0.contains("lost keys") })
        XCTAssertEqual(
            problems(
                ScreenModel(name: .tutorial, title: "Fine", keys: [KeyHelp("q", "quit")]),
                columns: 60, rows: 20), [])
    }

    /// The words of `text` as a line may break it: runs without spaces, wide characters one by one.
    static func words(_ text: String) -> [String] {
        TerminalText.tokens(text, unicode: true).map { String($0.characters.map(\.character)) }
            .flatMap { token -> [String] in
                token.contains { TerminalText.width($0.unicodeScalars.first!) == 2 }
                    ? token.map { String($0) } : [token]
            }
    }
}
