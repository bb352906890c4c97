import FaceCapCore
import XCTest

@testable import FaceCapTerminal

/// Each widget alone on a small canvas (ratatui tests its widgets against a `Buffer`): where its text lands, how it
/// is cut, and that nothing leaves the area it was given or the screen.
final class ScreenWidgetsTests: XCTestCase {
    private func draw(
        _ widget: some TextWidget, in area: CellRect? = nil, columns: Int, rows: Int,
        unicode: Bool = true
    ) -> [TextItem] {
        var canvas = TextCanvas(columns: columns, rows: rows, unicode: unicode)
        widget.render(in: area ?? canvas.bounds, into: &canvas)
        return canvas.items
    }

    private func row(_ text: String, _ style: TextStyle, at row: Int, _ column: Int) -> TextItem {
        TextItem(row: row, column: column, text: text, style: style, width: TerminalText.width(of: text, unicode: true))
    }

    func testTheCanvasKeepsTextOnTheScreen() {
        var canvas = TextCanvas(columns: 6, rows: 2, unicode: true)
        canvas.add("abcdefgh", row: 1, column: 2, style: .body)
        canvas.add("x", row: 2, column: 0, style: .body)
        canvas.add("x", row: 0, column: 6, style: .body)
        canvas.add("", row: 0, column: 0, style: .body)
        XCTAssertEqual(canvas.items, [row("abc…", .body, at: 1, 2)])
    }

    func testACentredLineIsCentredInItsAreaAndCut() {
        let title = CentredLine(text: "abc", style: .title(.good))
        XCTAssertEqual(
            draw(title, in: CellRect(x: 2, y: 1, width: 8, height: 1), columns: 12, rows: 3),
            [row("abc", .title(.good), at: 1, 4)])
        XCTAssertEqual(
            draw(CentredLine(text: "a longer title", style: .hint), columns: 6, rows: 1),
            [row("a lon…", .hint, at: 0, 0)])
    }

    func testACountdownTurnsItsGlyphWithoutMovingTheText() {
        let items = (0..<4).map { draw(Countdown(text: "5 s", spinner: $0), columns: 15, rows: 1) }
        XCTAssertEqual(items.map { $0.map(\.text) }, [["|", "5 s"], ["/", "5 s"], ["-", "5 s"], ["\\", "5 s"]])
        for drawn in items {
            XCTAssertEqual(drawn, [row(drawn[0].text, .spinner, at: 0, 5), row("5 s", .countdown, at: 0, 7)])
        }
        XCTAssertEqual(draw(Countdown(text: "5 s", spinner: -1), columns: 15, rows: 1).first?.text, "\\")
        XCTAssertEqual(
            draw(Countdown(text: "5 s", spinner: nil), columns: 15, rows: 1),
            [row("5 s", .countdown, at: 0, 6)])
    }

    func testTheKeyBarNarrowsItsGapsThenDropsWordsThenKeys() {
        let bar = KeyBar(keys: [KeyHelp("q", "quit"), KeyHelp("?", "help")])
        XCTAssertEqual(draw(bar, columns: 30, rows: 1).map(\.text), [" q ", " quit  ", " ? ", " help"])
        XCTAssertEqual(draw(bar, columns: 30, rows: 1).first?.column, 6)
        XCTAssertEqual(draw(bar, columns: 17, rows: 1).map(\.text), [" q ", " quit ", " ? ", " help"])
        XCTAssertEqual(draw(bar, columns: 12, rows: 1).map(\.text), [" q ", " quit ", " ? "])
        XCTAssertEqual(draw(bar, columns: 7, rows: 1).map(\.text), [" q ", " ", " ? "])
        XCTAssertEqual(draw(bar, columns: 2, rows: 1), [])
        for columns in 1...30 {
            for item in draw(bar, columns: columns, rows: 1) {
                XCTAssertLessThanOrEqual(item.column + item.width, columns)
                XCTAssertEqual(item.style == .keyName, item.text.hasPrefix(" ") && item.text.count == 3)
            }
        }
    }

    func testTheProgressBarFillsItsShareAndFallsBackToWords() {
        let half = ScreenProgress(fraction: 0.5, label: "Up")
        let items = draw(
            ProgressBar(progress: half), in: CellRect(x: 2, y: 0, width: 29, height: 1), columns: 34, rows: 1)
        XCTAssertEqual(items.map(\.style), [.progressLabel, .progressFilled, .progressEmpty, .progressLabel])
        XCTAssertEqual(
            items.map(\.text),
            [
                "Up", String(repeating: "█", count: 10), String(repeating: "░", count: 10),
                " 50 %",
            ])
        XCTAssertEqual(items.map(\.column), [2, 6, 16, 26])
        let ascii = draw(
            ProgressBar(progress: ScreenProgress(fraction: .nan, label: "Up")), columns: 30, rows: 1,
            unicode: false)
        XCTAssertEqual(ascii.map(\.text), ["Up", String(repeating: "-", count: 22), " 0 %"])
        XCTAssertEqual(
            draw(
                ProgressBar(progress: half), in: CellRect(x: 0, y: 0, width: 12, height: 1), columns: 14,
                rows: 1), [row("Up 50 %", .progressLabel, at: 0, 3)])
    }

    func testTheIllustrationIsCentredLineByLine() {
        for unicode in [true, false] {
            let items = draw(Illustration(), columns: 25, rows: 9, unicode: unicode)
            XCTAssertEqual(items.map(\.text), Illustration.lines(unicode: unicode))
            XCTAssertEqual(items.map(\.row), Array(0..<9))
            XCTAssertTrue(items.allSatisfy { $0.column == 3 && $0.width == 19 && $0.style == .illustration })
        }
    }

    func testBodyTextWrapsCommandsAndKeepsBlankLines() {
        let body = BodyText(["one two three", "", "$ sudo usermod"], measure: 8, unicode: true)
        XCTAssertEqual(body.lines.map(\.text), ["one two", "three", "", "  $ sudo", "   userm", "  od"])
        XCTAssertEqual(body.lines.map(\.style), [.body, .body, .body, .command, .command, .command])
        XCTAssertEqual(body.width, 8)
        XCTAssertEqual(
            draw(body, in: CellRect(x: 1, y: 1, width: 8, height: 3), columns: 10, rows: 5),
            [row("one two", .body, at: 1, 1), row("three", .body, at: 2, 1)])
    }

    func testTheHelpBoxFramesItsLinesInTheMiddle() {
        let items = draw(HelpBox(lines: ["a b"]), columns: 14, rows: 5)
        XCTAssertEqual(items.map(\.text), ["┌ Help ──┐", "│ ", "a b   ", " │", "└────────┘"])
        XCTAssertEqual(items.map(\.row), [1, 2, 2, 2, 3])
        XCTAssertEqual(items.map(\.column), [2, 2, 4, 10, 2])
        XCTAssertEqual(items.map(\.style), [.helpFrame, .helpFrame, .helpText, .helpFrame, .helpFrame])
        // No room for a frame: the lines (wrapped to the measure) from the top-left, as many as there are rows.
        XCTAssertEqual(
            draw(HelpBox(lines: ["a b", "c"]), columns: 3, rows: 2),
            [row("a", .helpText, at: 0, 0), row("b", .helpText, at: 1, 0)])
        XCTAssertEqual(HelpBox.measure(columns: 200), ScreenLayout.bodyMeasure)
    }

    func testTheGuidanceRowsKeepTheLastRowForTheStatus() {
        let model = ScreenModel(
            name: .capture, title: "T", picture: .livePreview(oval: .ready, stability: 0.5),
            primary: "Hold", hints: ["h1", "h2"], lines: ["why"],
            progress: ScreenProgress(fraction: 1, label: "S"), countdown: "9 s")
        let text = ScreenText(model, page: Page(columns: 20), columns: 20, unicode: true)
        let rows = GuidanceRows(model, text: text, width: 16, unicode: true)
        XCTAssertEqual(rows.lines.map(\.text), ["Hold", "h1", "why", "h2", "9 s"])
        let items = draw(rows, in: CellRect(x: 2, y: 1, width: 16, height: 4), columns: 20, rows: 6)
        XCTAssertEqual(items.prefix(3).map(\.text), ["Hold", "h1", "why"])
        XCTAssertEqual(items.prefix(3).map(\.row), [1, 2, 3])
        XCTAssertEqual(items.prefix(3).map(\.style), [.primary(.good), .hint, .body])
        XCTAssertTrue(items.dropFirst(3).allSatisfy { $0.row == 4 && $0.style != .countdown })
        XCTAssertEqual(
            draw(rows, in: CellRect(x: 2, y: 1, width: 16, height: 1), columns: 20, rows: 6).map(\.text),
            ["Hold"])
    }

    func testTheGuidanceColumnGivesEachPartItsOwnRows() {
        let model = ScreenModel(
            name: .capture, title: "T", picture: .livePreview(oval: .adjusting, stability: 0),
            primary: "Move closer", hints: ["Light your face"], lines: ["", "Manual: why"],
            countdown: "9 s")
        let area = CellRect(x: 3, y: 2, width: 12, height: GuidanceColumn.rows)
        let items = draw(GuidanceColumn(model, tone: .warning), in: area, columns: 20, rows: 20)
        let band = items.filter { $0.style == .primary(.warning) }
        XCTAssertEqual(band.map(\.row), Array(2..<7))
        XCTAssertTrue(band.allSatisfy { $0.column == 3 && $0.width == 12 })
        XCTAssertEqual(band.map { $0.text.trimmingCharacters(in: .whitespaces) }, ["", "Move", "closer", "", ""])
        XCTAssertEqual(items.filter { $0.style == .hint }.map(\.row), [8, 9])
        XCTAssertEqual(items.filter { $0.style == .body }.map(\.text), ["Manual: why"])
        XCTAssertEqual(items.last, row("9 s", .countdown, at: 2 + GuidanceColumn.rows - 1, 7))
    }

    func testTheStillLayoutCentresItsGroupsWithBlankRowsBetween() {
        let model = ScreenModel(name: .success, title: "T", primary: "Done", lines: ["a", "b"], countdown: "5 s")
        let page = Page(columns: 20)
        let text = ScreenText(model, page: page, columns: 20, unicode: true)
        let still = StillLayout(model, text: text, page: page, budget: 10, rows: 12, unicode: true)
        XCTAssertEqual([still.primaryRows, still.bodyRows, still.countdownRows, still.pictureRows], [1, 2, 1, 0])
        // Three groups: two blank rows between them and one above; what is left (10 - 4 - 3 = 3) split above and below.
        XCTAssertEqual(still.gaps, 2)
        XCTAssertEqual(still.top, 1 + 1 + 1)
        var canvas = TextCanvas(columns: 20, rows: 12, unicode: true)
        XCTAssertNil(still.render(into: &canvas, pictureSize: (4, 3), cellAspect: 2))
        XCTAssertEqual(canvas.items.map(\.text), ["Done", "a", "b", "5 s"])
        XCTAssertEqual(canvas.items.map(\.row), [3, 5, 6, 8])
        // Short of rows: the main message first, then the countdown, the body last; no blank rows.
        let tight = StillLayout(model, text: text, page: page, budget: 3, rows: 5, unicode: true)
        XCTAssertEqual([tight.primaryRows, tight.countdownRows, tight.bodyRows, tight.gaps], [1, 1, 1, 0])
    }
}
