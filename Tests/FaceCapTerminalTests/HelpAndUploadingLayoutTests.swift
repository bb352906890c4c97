import FaceCapCore
import XCTest

@testable import FaceCapTerminal

/// The `?` help and the Uploading screen as the flow really produces them (WizardScenes), in every language.
extension RealScreenTests {
    /// At every size from the 60×20 minimum, the help shows every word of every one of its lines: wrapped, never
    /// cut short at the edge of its box, never a line left off at its foot.
    func testTheHelpShowsAllOfItselfAtEverySizeInEveryLanguage() throws {
        let saved = Words.current
        defer { Words.current = saved }
        let scenes = WizardScenes.scenes.filter(\.showsHelp)
        XCTAssertGreaterThan(scenes.count, 5)
        for translations in try languages() {
            Words.current = translations
            for scene in scenes {
                for (columns, rows) in Self.sizes {
                    var wizard = scene
                    _ = wizard.handle(.resized(columns: columns, rows: rows), at: scene.now)
                    let model = wizard.screen(at: wizard.now)
                    XCTAssertTrue(model.showsHelp)
                    let layout = ScreenLayout(
                        model, columns: columns, rows: rows, unicode: true, pictureSize: (640, 480))
                    let shown = layout.items.filter { $0.style == .helpText }.flatMap { Self.words($0.text) }
                    let wanted = model.helpLines.flatMap { Self.words($0) }
                    XCTAssertEqual(
                        shown, wanted, "\(translations.language) help over \(model.name) at \(columns)×\(rows)")
                }
            }
        }
    }

    /// The sentence the help gives in two catalogue entries ("Follow … green;" and "hold still …") is one
    /// paragraph: at 60×20 its first half's last words never stand on a row of their own before the second half.
    func testTheHelpsSplitSentenceFlowsAsOneParagraph() throws {
        let saved = Words.current
        defer { Words.current = saved }
        let scene = try XCTUnwrap(WizardScenes.scenes.first { $0.showsHelp })
        for translations in try languages() where translations.language != "wide" {
            Words.current = translations
            var wizard = scene
            _ = wizard.handle(.resized(columns: 60, rows: 20), at: scene.now)
            let model = wizard.screen(at: wizard.now)
            let follow = Words.text(.helpFollow), hold = Words.text(.helpHoldStill)
            XCTAssertTrue(
                model.helpLines.contains { $0.hasPrefix(follow) && $0.hasSuffix(hold) },
                "\(translations.language): \(model.helpLines)")
            let rows = ScreenLayout(model, columns: 60, rows: 20, unicode: true, pictureSize: (640, 480)).items
                .filter { $0.style == .helpText }.map { $0.text.trimmingCharacters(in: .whitespaces) }
            // A row that ends the first half before a row that starts the second: only where the next word did not
            // fit (in the help's measure at 60 columns).
            let measure = HelpBox.measure(columns: 60)
            for (row, next) in zip(rows, rows.dropFirst()) where follow.hasSuffix(row) && !row.isEmpty {
                let word = next.split(separator: " ").first.map(String.init) ?? next
                let forced = TerminalText.width(of: row + " " + word, unicode: true) > measure
                XCTAssertFalse(
                    hold.hasPrefix(next) && !forced,
                    "\(translations.language): '\(row)' then '\(next)' on a row of their own")
            }
        }
    }

    /// The Uploading screen says its percentage once (not "100 %" on both sides of the bar).
    func testUploadingSaysItsPercentageOnce() throws {
        let saved = Words.current
        defer { Words.current = saved }
        let scenes = WizardScenes.scenes.filter { $0.screenName == .uploading && !$0.showsHelp }
        XCTAssertFalse(scenes.isEmpty)
        for translations in try languages() {
            Words.current = translations
            for scene in scenes {
                let model = scene.screen(at: scene.now)
                guard let progress = model.progress else { continue }
                let percent = Words.progressPercent(percent: String(Int((progress.fraction * 100).rounded())))
                for (columns, rows) in Self.sizes {
                    let layout = ScreenLayout(
                        model, columns: columns, rows: rows, unicode: true, pictureSize: (640, 480))
                    let said = layout.items.filter { $0.text.contains(percent.trimmingCharacters(in: .whitespaces)) }
                    XCTAssertEqual(
                        said.count, 1, "\(translations.language) \(model.name) at \(columns)×\(rows): \(said)")
                }
            }
        }
    }

    /// While the answer is awaited, the spinner turns beside the seconds and the text stands still.
    func testTheSpinnerTurnsBesideAStillLine() {
        let model = ScreenModel(
            name: .uploading, title: "Sending your photo", picture: .photo,
            progress: ScreenProgress(fraction: 1, label: "Sending"),
            countdown: "Waiting for the answer: 4 s (time-out 30 s)", spinner: 3)
        var turned = model
        turned.spinner = 4
        for unicode in [true, false] {
            let a = ScreenLayout(model, columns: 80, rows: 24, unicode: unicode)
            let b = ScreenLayout(turned, columns: 80, rows: 24, unicode: unicode)
            let glyphA = a.items.first { $0.style == .spinner }, glyphB = b.items.first { $0.style == .spinner }
            XCTAssertNotNil(glyphA)
            XCTAssertNotEqual(glyphA?.text, glyphB?.text)
            XCTAssertEqual(glyphA?.row, glyphB?.row)
            XCTAssertEqual(a.items.filter { $0.style == .countdown }, b.items.filter { $0.style == .countdown })
            if !unicode { XCTAssertTrue(glyphA!.text.unicodeScalars.allSatisfy(\.isASCII)) }
        }
    }
}
