import XCTest
import CCurses
import FaceCapCore
@testable import FaceCapTerminal

final class ScreenLayoutTests: XCTestCase {
    static let sizes = [(80, 24), (200, 60), (60, 20), (59, 19), (100, 32), (40, 12), (20, 5), (10, 3), (3, 3),
                        (1, 1), (2, 1), (1, 2), (0, 0), (300, 4), (4, 100)]

    func testEveryScreenFitsAtEverySize() {
        for name in ScreenName.allCases {
            for help in [false, true] {
                for unicode in [true, false] {
                    for (columns, rows) in Self.sizes {
                        let layout = ScreenLayout(ScreenSamples.model(name, help: help), columns: columns, rows: rows,
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
                                let overlaps = item.row >= picture.y && item.row < picture.y + picture.height
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
        let layout = ScreenLayout(ScreenSamples.model(.capture), columns: 80, rows: 24, unicode: true,
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
            let layout = ScreenLayout(ScreenSamples.model(.permissionDenied), columns: columns, rows: rows,
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
        XCTAssertEqual(layout.items.filter { $0.style == .illustration }.count,
                       ScreenLayout.illustration(unicode: true).count)
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
        let layout = ScreenLayout(ScreenSamples.model(.capture, help: true), columns: 80, rows: 24, unicode: true,
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
        let layout = ScreenLayout(ScreenSamples.model(.uploading), columns: 80, rows: 24, unicode: true,
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
        XCTAssertEqual(TerminalText.displayable("Too dark — 60×20…", unicode: false).map(String.init).joined(),
                       "Too dark - 60x20...")
        XCTAssertEqual(TerminalText.wrap("Hold still — image is blurry", width: 12, unicode: true),
                       ["Hold still —", "image is", "blurry"])
        XCTAssertEqual(TerminalText.wrap("abcdefghij", width: 4, unicode: true), ["abcd", "efgh", "ij"])
        // A path longer than a line breaks after a "/" (not inside a folder's name) when that fills half the line.
        XCTAssertEqual(TerminalText.wrap("Saved to /tmp/a-long-folder/another-sub-folder/facecap-1.jpg", width: 30,
                                         unicode: true),
                       ["Saved to", "/tmp/a-long-folder/", "another-sub-folder/", "facecap-1.jpg"])
        XCTAssertEqual(TerminalText.wrap("/a/bcdefghijkl", width: 8, unicode: true), ["/a/bcdef", "ghijkl"],
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
        let primary = long ? "Turn your head a little to the left, and then look straight at the camera again"
            : "Move closer"
        return ScreenModel(name: manual ? .manualCapture : .capture, title: "Taking your selfie",
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
        for (columns, rows) in [(80, 24), (100, 32), (200, 60), (60, 20)] {
            var rectangles = Set<String>()
            for hints in 0...2 {
                for progress in [false, true] {
                    for countdown in [false, true] {
                        for manual in [false, true] {
                            for long in [false, true] {
                                let model = capture(hints: hints, progress: progress, countdown: countdown,
                                                    manual: manual, long: long)
                                let layout = ScreenLayout(model, columns: columns, rows: rows, unicode: true,
                                                          pictureSize: (640, 480))
                                guard let picture = layout.picture else {
                                    XCTFail("no preview at \(columns)×\(rows)")
                                    continue
                                }
                                rectangles.insert("\(picture)")
                                // The main message is always shown, under the picture.
                                let main = layout.items.first { if case .primary = $0.style { true } else { false } }
                                XCTAssertNotNil(main, "\(columns)×\(rows): \(model)")
                                XCTAssertGreaterThanOrEqual(main?.row ?? 0, picture.y + picture.height)
                                if progress {
                                    XCTAssertTrue(layout.items.contains { $0.style == .progressFilled }, "the Steady bar")
                                }
                            }
                        }
                    }
                }
            }
            XCTAssertEqual(rectangles.count, 1, "\(columns)×\(rows): \(rectangles.sorted())")
        }
    }

    func testLargerTerminalsGiveLargerThumbnails() {
        func thumbnail(_ columns: Int, _ rows: Int) -> CellRect? {
            ScreenLayout(ScreenSamples.model(.success), columns: columns, rows: rows, unicode: true,
                         pictureSize: (640, 480)).picture
        }
        let small = try! XCTUnwrap(thumbnail(80, 24)), large = try! XCTUnwrap(thumbnail(200, 60))
        // At 200×60 the thumbnail is more than twice as tall as at 80×24 (it stopped at 12 rows).
        XCTAssertGreaterThan(large.height, 2 * small.height, "\(small) → \(large)")
        XCTAssertGreaterThan(large.height, 12)
    }
}
