import CCurses
import FaceCapCore
import XCTest

@testable import FaceCapTerminal

final class ScreenLayoutTests: XCTestCase {
    static let sizes = [
        (80, 24), (200, 60), (60, 20), (59, 19), (100, 32), (40, 12), (20, 5), (10, 3), (3, 3),
        (1, 1), (2, 1), (1, 2), (0, 0), (300, 4), (4, 100),
    ]

    func testEveryScreenFitsAtEverySize() {
        for name in ScreenName.allCases {
            for help in [false, true] {
                for unicode in [true, false] {
                    for (columns, rows) in Self.sizes {
                        let layout = ScreenLayout(
                            ScreenSamples.model(name, help: help), columns: columns, rows: rows,
                            unicode: unicode, pictureSize: (640, 480))
                        let screen = CellRect(x: 0, y: 0, width: columns, height: rows)
                        let what = "\(name) help=\(help) unicode=\(unicode) at \(columns)×\(rows)"
                        for item in layout.items {
                            let cells = CellRect(x: item.column, y: item.row, width: item.width, height: 1)
                            XCTAssertTrue(screen.contains(cells), "\(what): \(item)")
                            XCTAssertEqual(item.width, TerminalText.width(of: item.text, unicode: unicode), what)
                            if !unicode {
                                XCTAssertTrue(item.text.unicodeScalars.allSatisfy(\.isASCII), "\(what): \(item.text)")
                            }
                        }
                        if let picture = layout.picture {
                            XCTAssertTrue(screen.contains(picture), "\(what): picture \(picture)")
                            // Text never lands on the picture, except the help box drawn over everything.
                            for item in layout.items where !help {
                                let overlaps =
                                    item.row >= picture.y && item.row < picture.y + picture.height
                                    && item.column < picture.x + picture.width && item.column + item.width > picture.x
                                XCTAssertFalse(overlaps, "\(what): \(item) on the picture")
                            }
                        }
                    }
                }
            }
        }
    }

    func testTheCaptureScreenAt80x24() {
        let layout = ScreenLayout(
            ScreenSamples.model(.capture), columns: 80, rows: 24, unicode: true,
            pictureSize: (640, 480))
        let picture = try! XCTUnwrap(layout.picture)
        // The preview takes most of the screen, undistorted.
        XCTAssertGreaterThanOrEqual(picture.height, 16)
        XCTAssertEqual(Double(picture.width) / Double(2 * picture.height), 4.0 / 3.0, accuracy: 0.05)
        XCTAssertEqual(picture.x + picture.width / 2, 40, accuracy: 1)
        let text = layout.items.map(\.text)
        XCTAssertEqual(layout.items.first?.text, "Auto capture")
        XCTAssertEqual(layout.items.first?.row, 0)
        let primary = try! XCTUnwrap(layout.items.first { $0.text == "Perfect — hold still" })
        XCTAssertEqual(primary.style, .primary(.good))
        XCTAssertGreaterThan(primary.row, picture.y + picture.height - 1)
        XCTAssertTrue(text.contains("Light your face evenly"))
        XCTAssertTrue(text.contains("Keep your eyes open"))
        XCTAssertTrue(text.contains("Manual capture in 21 s"))
        XCTAssertTrue(layout.items.contains { $0.row == 23 && $0.style == .keyName && $0.text == " q " })
    }

    func testCommandsAreShownVerbatim() {
        for (columns, rows) in [(80, 24), (200, 60), (60, 20)] {
            let layout = ScreenLayout(
                ScreenSamples.model(.permissionDenied), columns: columns, rows: rows,
                unicode: true)
            let commands = layout.items.filter { $0.style == .command }
                .map { $0.text.trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(commands, ["$ sudo usermod -aG video $USER", "$ newgrp video"], "\(columns)×\(rows)")
        }
        // Too narrow for the command: it is broken across lines, never cut.
        let narrow = ScreenLayout(ScreenSamples.model(.permissionDenied), columns: 24, rows: 40, unicode: true)
        let pieces = narrow.items.filter { $0.style == .command }.map { $0.text.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(pieces.joined(), "$ sudo usermod -aG video $USER$ newgrp video")
    }

    func testTheTutorialShowsItsIllustrationAndTips() {
        let layout = ScreenLayout(ScreenSamples.model(.tutorial), columns: 80, rows: 24, unicode: true)
        XCTAssertEqual(
            layout.items.filter { $0.style == .illustration }.count,
            Illustration.lines(unicode: true).count)
        let tips = ["• Face the camera", "• Keep a neutral expression", "• Find even light", "• No hat or sunglasses"]
        for tip in tips {
            XCTAssertTrue(layout.items.contains { $0.text == tip }, tip)
        }
        // Without room for it the drawing goes, the tips stay.
        let small = ScreenLayout(ScreenSamples.model(.tutorial), columns: 60, rows: 12, unicode: true)
        XCTAssertFalse(small.items.contains { $0.style == .illustration })
        XCTAssertTrue(small.items.contains { $0.text == "• No hat or sunglasses" })
    }

    func testTheHelpOverlayIsABoxOverTheScreen() {
        let layout = ScreenLayout(
            ScreenSamples.model(.capture, help: true), columns: 80, rows: 24, unicode: true,
            pictureSize: (640, 480))
        let box = layout.items.filter { $0.style == .helpFrame || $0.style == .helpText }
        XCTAssertEqual(box.first?.text.hasPrefix("┌ Help "), true)
        XCTAssertEqual(box.last?.text.hasPrefix("└"), true)
        // The box comes last, so it is drawn over the preview and the texts.
        XCTAssertEqual(layout.items.suffix(box.count), box[...])
        let rows = Set(box.map(\.row))
        XCTAssertEqual(rows.count, 4 + 2)
        for row in rows {
            let width = box.filter { $0.row == row }.reduce(0) { $0 + $1.width }
            XCTAssertEqual(width, box[0].width, "row \(row) of the box is not filled")
        }
    }

    func testProgressAndLongTexts() {
        let layout = ScreenLayout(
            ScreenSamples.model(.uploading), columns: 80, rows: 24, unicode: true,
            pictureSize: (600, 600))
        let filled = try! XCTUnwrap(layout.items.first { $0.style == .progressFilled })
        let empty = try! XCTUnwrap(layout.items.first { $0.style == .progressEmpty })
        XCTAssertEqual(Double(filled.width) / Double(filled.width + empty.width), 0.6, accuracy: 0.05)
        XCTAssertTrue(layout.items.contains { $0.text == " 60 %" })
        XCTAssertNotNil(layout.picture)

        var long = ScreenSamples.model(.retry)
        long.title = String(repeating: "very long title ", count: 20)
        long.hints = [String(repeating: "hint ", count: 40)]
        let cut = ScreenLayout(long, columns: 60, rows: 20, unicode: true)
        XCTAssertEqual(cut.items.first?.width, 60)
        XCTAssertEqual(cut.items.first?.text.hasSuffix("…"), true)
    }

    func testTextWidthsAndWrapping() {
        XCTAssertEqual(TerminalText.width(of: "Move closer", unicode: true), 11)
        XCTAssertEqual(TerminalText.width(of: "顔", unicode: true), 2)
        XCTAssertEqual(TerminalText.width(of: "e\u{301}", unicode: true), 1)
        XCTAssertEqual(
            TerminalText.displayable("Too dark — 60×20…", unicode: false).map(String.init).joined(),
            "Too dark - 60x20...")
        XCTAssertEqual(
            TerminalText.wrap("Hold still — image is blurry", width: 12, unicode: true),
            ["Hold still —", "image is", "blurry"])
        XCTAssertEqual(TerminalText.wrap("abcdefghij", width: 4, unicode: true), ["abcd", "efgh", "ij"])
        // A path longer than a line breaks after a "/" (not inside a folder's name) when that fills half the line.
        XCTAssertEqual(
            TerminalText.wrap(
                "Saved to /tmp/a-long-folder/another-sub-folder/facecap-1.jpg", width: 30,
                unicode: true),
            ["Saved to", "/tmp/a-long-folder/", "another-sub-folder/", "facecap-1.jpg"])
        XCTAssertEqual(
            TerminalText.wrap("/a/bcdefghijkl", width: 8, unicode: true), ["/a/bcdef", "ghijkl"],
            "a slash too early would leave most of the line empty")
        XCTAssertEqual(TerminalText.fit("abcdef", width: 4, unicode: true), "abc…")
        XCTAssertEqual(TerminalText.fit("abcdef", width: 4, unicode: false), "abc.")
        XCTAssertEqual(TerminalText.fit("a\u{1B}[2Jb", width: 10, unicode: true), "a [2Jb")
    }

    func testKeysMapToTheFlowsKeys() {
        XCTAssertEqual(KeyDecoder.key(character: 13), .enter)
        XCTAssertEqual(KeyDecoder.key(character: 10), .enter)
        XCTAssertEqual(KeyDecoder.key(character: 32), .space)
        XCTAssertEqual(KeyDecoder.key(character: 27), .escape)
        XCTAssertEqual(KeyDecoder.key(character: 113), .character("q"))
        XCTAssertEqual(KeyDecoder.key(character: 63), .character("?"))
        XCTAssertEqual(KeyDecoder.key(character: 0xE9), .character("é"))
        XCTAssertNil(KeyDecoder.key(character: 1))
        XCTAssertEqual(KeyDecoder.key(character: 127), .backspace, "DEL, what most terminals send for Backspace")
        XCTAssertEqual(KeyDecoder.key(character: 8), .backspace)
        XCTAssertEqual(KeyDecoder.key(code: KEY_BACKSPACE), .backspace)
        XCTAssertEqual(KeyDecoder.key(code: KEY_ENTER), .enter)
        XCTAssertNil(KeyDecoder.key(code: KEY_UP))
    }
}

/// The capture screen's preview keeps one rectangle however the text under it changes (issue 18: it used to
/// shrink by a row or two with every hint, so on a moving face the picture jumped about twice a second).
final class SteadyViewportTests: XCTestCase {
    private func capture(hints: Int, progress: Bool, countdown: Bool, manual: Bool, long: Bool) -> ScreenModel {
        let primary =
            long
            ? "Turn your head a little to the left, and then look straight at the camera again"
            : "Move closer"
        return ScreenModel(
            name: manual ? .manualCapture : .capture, title: "Taking your selfie",
            tone: progress ? .good : .neutral,
            picture: .livePreview(oval: progress ? .ready : .adjusting, stability: progress ? 0.4 : 0),
            primary: primary,
            hints: Array(["Light your face evenly", "Keep your eyes open"].prefix(hints)),
            lines: manual ? ["Auto capture did not finish in 30 s."] : [],
            progress: progress ? ScreenProgress(fraction: 0.4, label: "Steady") : nil,
            countdown: countdown ? "Manual capture in 21 s" : nil,
            keys: [KeyHelp("q", "quit"), KeyHelp("?", "help")])
    }

    func testThePreviewIsOneRectangleWhateverTheTextUnderIt() {
        for (columns, rows) in [(80, 24), (100, 32), (200, 60), (160, 45), (60, 20), (120, 36)] {
            var rectangles = Set<String>()
            for hints in 0...2 {
                for progress in [false, true] {
                    for countdown in [false, true] {
                        for manual in [false, true] {
                            for long in [false, true] {
                                let model = capture(
                                    hints: hints, progress: progress, countdown: countdown,
                                    manual: manual, long: long)
                                let layout = ScreenLayout(
                                    model, columns: columns, rows: rows, unicode: true,
                                    pictureSize: (640, 480))
                                guard let picture = layout.picture else {
                                    XCTFail("no preview at \(columns)×\(rows)")
                                    continue
                                }
                                rectangles.insert("\(picture)")
                                // The main message is always shown, under the picture or, on a wide terminal,
                                // beside it.
                                let main = layout.items.first { if case .primary = $0.style { true } else { false } }
                                XCTAssertNotNil(main, "\(columns)×\(rows): \(model)")
                                if columns >= 160 {
                                    XCTAssertGreaterThanOrEqual(main?.column ?? 0, picture.x + picture.width)
                                } else {
                                    XCTAssertGreaterThanOrEqual(main?.row ?? 0, picture.y + picture.height)
                                }
                                if progress {
                                    XCTAssertTrue(
                                        layout.items.contains { $0.style == .progressFilled }, "the Steady bar")
                                }
                            }
                        }
                    }
                }
            }
            XCTAssertEqual(rectangles.count, 1, "\(columns)×\(rows): \(rectangles.sorted())")
        }
    }

    /// On a wide terminal (issue 18: at 200×60 the guidance was one small line far below the face) the guidance
    /// stands in a column beside a preview of nearly the full height: the main message in a band of its colour,
    /// the hints whole, the Steady bar and the countdown in rows of their own, each at one place whatever else
    /// comes and goes; narrower terminals keep it under the preview.
    func testWideTerminalsPutTheGuidanceBesideThePreview() throws {
        for (columns, rows) in [(200, 60), (160, 45)] {
            var places: [String: Set<Int>] = [:]
            for hints in 0...2 {
                for progress in [false, true] {
                    for countdown in [false, true] {
                        for long in [false, true] {
                            let model = capture(
                                hints: hints, progress: progress, countdown: countdown, manual: false,
                                long: long)
                            let layout = ScreenLayout(
                                model, columns: columns, rows: rows, unicode: true,
                                pictureSize: (640, 480))
                            let picture = try XCTUnwrap(layout.picture)
                            let what = "\(columns)×\(rows) hints=\(hints) progress=\(progress) long=\(long)"
                            // The preview takes nearly the whole height between the title and the keys.
                            XCTAssertGreaterThanOrEqual(picture.height, rows - 4, what)
                            let guidance = layout.items.filter { $0.row > 0 && $0.row < rows - 1 }
                            XCTAssertFalse(guidance.isEmpty, what)
                            for item in guidance {
                                XCTAssertGreaterThanOrEqual(
                                    item.column, picture.x + picture.width + 1, "\(what): \(item)")
                                XCTAssertTrue(
                                    item.row >= picture.y && item.row < picture.y + picture.height,
                                    "\(what): \(item) level with the preview")
                            }
                            // The main message: whole, in a band at least 40 columns wide and three rows or more.
                            let band = guidance.filter { $0.style == .primary(.good) || $0.style == .primary(.warning) }
                            XCTAssertGreaterThanOrEqual(band.count, 3, what)
                            XCTAssertGreaterThanOrEqual(band.map(\.width).min() ?? 0, 40, what)
                            let message = band.map { $0.text.trimmingCharacters(in: .whitespaces) }.filter {
                                !$0.isEmpty
                            }
                            XCTAssertEqual(message.joined(separator: " "), model.primary, what)
                            // Every hint whole.
                            let hintText = guidance.filter { $0.style == .hint }.map(\.text).joined(separator: " ")
                            for hint in model.hints { XCTAssertTrue(hintText.contains(hint), "\(what): \(hint)") }
                            places["band", default: []].insert(band.first?.row ?? -1)
                            if let bar = guidance.first(where: { $0.style == .progressFilled }) {
                                places["bar", default: []].insert(bar.row)
                            }
                            if let count = guidance.first(where: { $0.style == .countdown }) {
                                places["countdown", default: []].insert(count.row)
                            }
                            if let hint = guidance.first(where: { $0.style == .hint }) {
                                places["hint", default: []].insert(hint.row)
                            }
                        }
                    }
                }
            }
            for (part, rowsSeen) in places {
                XCTAssertEqual(rowsSeen.count, 1, "\(columns)×\(rows): the \(part) moves")
            }
            XCTAssertEqual(Set(places.keys), ["band", "bar", "countdown", "hint"])
        }
        // Under the preview at the usual sizes, and at 100×32 the stacked preview is the larger one.
        for (columns, rows) in [(80, 24), (100, 32), (120, 36)] {
            let layout = ScreenLayout(
                capture(hints: 2, progress: true, countdown: true, manual: false, long: false),
                columns: columns, rows: rows, unicode: true, pictureSize: (640, 480))
            let picture = try XCTUnwrap(layout.picture)
            let main = try XCTUnwrap(layout.items.first { $0.style == .primary(.good) })
            XCTAssertGreaterThanOrEqual(main.row, picture.y + picture.height, "\(columns)×\(rows)")
        }
        // A frame too wide for a full-height preview beside the column (16:9 at 160×45) keeps the larger picture.
        let wide = ScreenLayout(
            capture(hints: 1, progress: false, countdown: false, manual: false, long: false),
            columns: 160, rows: 45, unicode: true, pictureSize: (1280, 720))
        let picture = try XCTUnwrap(wide.picture)
        let stacked = PreviewRaster.fit(
            frameWidth: 1280, frameHeight: 720,
            in: CellRect(x: 0, y: 0, width: 156, height: 43 - ScreenLayout.liveTextRows - 1))
        XCTAssertGreaterThanOrEqual(picture.width * picture.height, stacked.width * stacked.height)
    }

    /// At no size does the guidance go beside a picture smaller than the stacked layout would draw: every size
    /// from 60×20 to 200×60, for a 4:3 and a 16:9 camera (below 30 rows the stacked picture has no blank row
    /// under it, which an estimate of the stacked picture once left out: 92×24 went beside at 45×17, not 48×18).
    func testTheWideLayoutNeverDrawsASmallerPictureThanTheStackedOne() throws {
        let model = capture(hints: 1, progress: true, countdown: true, manual: false, long: false)
        for frame in [(640, 480), (1280, 720)] {
            for rows in stride(from: 20, through: 60, by: 1) {
                for columns in stride(from: 60, through: 200, by: 1) {
                    let layout = ScreenLayout(model, columns: columns, rows: rows, unicode: true, pictureSize: frame)
                    let picture = try XCTUnwrap(layout.picture, "\(columns)×\(rows)")
                    let margin = columns >= 40 ? 2 : 1
                    let stacked = ScreenLayout.stackedPicture(
                        rows: rows, budget: rows - 2, margin: margin,
                        width: columns - 2 * margin, pictureSize: frame,
                        cellAspect: 2)
                    XCTAssertGreaterThanOrEqual(
                        picture.width * picture.height, stacked.width * stacked.height,
                        "\(columns)×\(rows), \(frame)")
                }
            }
        }
        // 92×24 stays stacked: the message under the picture.
        let layout = ScreenLayout(model, columns: 92, rows: 24, unicode: true, pictureSize: (640, 480))
        let picture = try XCTUnwrap(layout.picture)
        let main = try XCTUnwrap(layout.items.first { $0.style == .primary(.good) })
        XCTAssertGreaterThanOrEqual(main.row, picture.y + picture.height)
    }

    /// The manual capture's reason and the help overlay on the wide layout.
    func testTheWideLayoutKeepsTheReasonAndTheHelp() throws {
        let model = capture(hints: 2, progress: false, countdown: true, manual: true, long: false)
        let layout = ScreenLayout(model, columns: 200, rows: 60, unicode: true, pictureSize: (640, 480))
        let picture = try XCTUnwrap(layout.picture)
        let reason = try XCTUnwrap(layout.items.first { $0.style == .body })
        XCTAssertEqual(reason.text, "Auto capture did not finish in 30 s.")
        XCTAssertGreaterThan(reason.column, picture.x + picture.width)
        var help = model
        help.showsHelp = true
        help.helpLines = ["q  quit", "?  help"]
        let withHelp = ScreenLayout(help, columns: 200, rows: 60, unicode: true, pictureSize: (640, 480))
        XCTAssertEqual(withHelp.picture, picture, "the help leaves the preview where it is")
        XCTAssertTrue(withHelp.items.contains { $0.style == .helpFrame })
    }

    func testLargerTerminalsGiveLargerThumbnails() {
        func thumbnail(_ columns: Int, _ rows: Int) -> CellRect? {
            ScreenLayout(
                ScreenSamples.model(.success), columns: columns, rows: rows, unicode: true,
                pictureSize: (640, 480)
            ).picture
        }
        let small = try! XCTUnwrap(thumbnail(80, 24)), large = try! XCTUnwrap(thumbnail(200, 60))
        // At 200×60 the thumbnail is three times as tall as at 80×24 (it stopped at 12 rows, then at 24).
        XCTAssertGreaterThanOrEqual(large.height, 3 * small.height, "\(small) → \(large)")
        XCTAssertGreaterThanOrEqual(large.height, 30)
        for name in [ScreenName.retry, .success] {
            for (columns, rows) in [(160, 45), (200, 60)] {
                let layout = ScreenLayout(
                    ScreenSamples.model(name), columns: columns, rows: rows, unicode: true,
                    pictureSize: (640, 480))
                let picture = try! XCTUnwrap(layout.picture)
                XCTAssertGreaterThanOrEqual(picture.height, rows / 2, "\(name) at \(columns)×\(rows)")
                // The screen's words all stay, under the thumbnail.
                let model = ScreenSamples.model(name)
                let shown = layout.items.map(\.text).joined(separator: " ")
                for line in model.lines where !line.isEmpty {
                    XCTAssertTrue(shown.contains(line.prefix(20)), "\(name) at \(columns)×\(rows): \(line)")
                }
            }
        }
    }
}
