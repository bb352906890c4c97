import Foundation
import XCTest

/// Every text cell the wizard draws is readable on a light and on a dark terminal theme (issue 18): at least
/// 4.5:1 (WCAG) between a cell's ink and its background, where a cell that names no colour takes the
/// theme's own. Read from the real cells tmux holds (`capture-pane -e`), in 256, 16 and 8 colours.
final class WizardContrastTests: ScratchDirectoryTestCase {
    /// Default foreground and background of a dark and a light theme (those of the UX review's renderer).
    static let themes: [(name: String, foreground: RGB, background: RGB)] = [
        ("dark", RGB(208, 208, 208), RGB(24, 24, 28)), ("light", RGB(30, 30, 30), RGB(250, 250, 245)),
    ]

    private func start(_ arguments: [String], term: String, columns: Int = 80, rows: Int = 24) throws -> TmuxSession {
        let binary = try facecapBinary().path
        let quoted = ([binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let command =
            "cd '\(directory.path)' && env -u NO_COLOR -u COLORTERM LC_ALL=C.UTF-8 TERM=\(term) \(quoted); "
            + "exec sleep 600"
        return try TmuxSession(command, columns: columns, rows: rows)
    }

    /// The text cells of a capture below 4.5:1 on either theme: "row,column 'c' ratio theme".
    static func lowContrastCells(_ capture: String) -> [String] {
        var failures: [String] = []
        for (row, cells) in SGRScreen.parse(capture).enumerated() {
            for (column, cell) in cells.enumerated() {
                // Pictures are not text: the preview and thumbnails are half blocks, shades (16 and 8 colours),
                // or spaces on a colour.
                guard cell.character != " ", cell.character != "▀", cell.character != "\u{00A0}",
                    !"░▒▓".contains(cell.character)
                else { continue }
                for theme in themes {
                    var ink = cell.foreground ?? theme.foreground, paper = cell.background ?? theme.background
                    if cell.reverse {
                        (ink, paper) = (cell.background ?? theme.background, cell.foreground ?? theme.foreground)
                    }
                    if cell.dim {
                        ink = RGB((2 * ink.r + paper.r) / 3, (2 * ink.g + paper.g) / 3, (2 * ink.b + paper.b) / 3)
                    }
                    let ratio = RGB.contrast(ink, paper)
                    if ratio < 4.5 {
                        failures.append(
                            "\(row),\(column) '\(cell.character)' \(String(format: "%.2f", ratio)) \(theme.name)")
                    }
                }
            }
        }
        return failures
    }

    func testEveryTextCellIsReadableOnLightAndDarkThemes() throws {
        let clip = try write("approach.y4m", TestClips.approachAndHold(frames: 90))
        for term in ["xterm-256color", "xterm-16color", "xterm"] {
            let tmux = try start(["--no-tutorial", "--input", clip, "--loop", "--output", "out-\(term)"], term: term)
            XCTAssertTrue(tmux.waitFor("Move closer"), tmux.screen())
            var screens: [String] = [tmux.screen(colours: true)]
            XCTAssertTrue(tmux.waitFor("Steady"), tmux.screen())
            screens.append(tmux.screen(colours: true))
            XCTAssertTrue(tmux.waitFor("Selfie accepted"), tmux.screen())
            screens.append(tmux.screen(colours: true))
            for screen in screens {
                let low = Self.lowContrastCells(screen)
                XCTAssertTrue(
                    low.isEmpty,
                    "\(term): \(low.count) text cells under 4.5:1, e.g. \(low.prefix(6))\n"
                        + screen.replacingOccurrences(of: "\u{1B}", with: "^["))
            }
        }
    }

    /// The preview's cells in a capture: half blocks, and spaces on a colour, in rows without any letter.
    static func previewRectangle(_ capture: String) -> String? {
        var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for (row, cells) in SGRScreen.parse(capture).enumerated()
        where !cells.contains(where: { $0.character.isLetter }) {
            for (column, cell) in cells.enumerated()
            where cell.character == "▀" || "░▒▓".contains(cell.character)
                || (cell.character == " " && cell.background != nil)
            {
                box =
                    box.map { (min($0.x0, column), min($0.y0, row), max($0.x1, column), max($0.y1, row)) }
                    ?? (column, row, column, row)
            }
        }
        return box.map { "\($0.x1 - $0.x0 + 1)×\($0.y1 - $0.y0 + 1) at \($0.x0),\($0.y0)" }
    }

    func testThePreviewIsOneRectangleOnAMovingFace() throws {
        // A face that sways and comes and goes in size: the guidance and its hints change all the time.
        let clip = try write(
            "sway.y4m",
            TestClips.sergey(
                frames: 60, width: { 0.3 + 0.12 * sin(Double($0) / 5) },
                x: { 0.5 + 0.15 * sin(Double($0) / 7) }))
        // screen-256color has no bce: ncurses then sends every cell, where with bce it erases runs of one colour
        // with ECH, which capture-pane leaves out.
        let tmux = try start(
            ["--no-tutorial", "--input", clip, "--loop", "--output", "out"], term: "screen-256color",
            columns: 100, rows: 32)
        XCTAssertTrue(tmux.waitFor("Taking your selfie"), tmux.screen())
        Thread.sleep(forTimeInterval: 0.5)
        var rectangles = Set<String>(), texts = Set<String>()
        for _ in 0..<30 {
            // -N: the trailing cells too (spaces on a colour at the right of the preview).
            let capture = (try? tmux.tmux(["capture-pane", "-p", "-e", "-N", "-t", tmux.name])) ?? ""
            if let rectangle = Self.previewRectangle(capture) { rectangles.insert(rectangle) }
            texts.insert(tmux.screen().split(separator: "\n").suffix(8).joined(separator: "\n"))
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertGreaterThan(texts.count, 2, "the guidance changed while the face moved")
        XCTAssertEqual(rectangles.count, 1, "the preview moved: \(rectangles.sorted())")
    }

    func testTheCheckFindsYellowOnTheDefaultBackground() {
        // The measure itself: yellow text on the default background is what the review found unreadable.
        XCTAssertFalse(Self.lowContrastCells("\u{1B}[1;33mTaking your selfie\u{1B}[0m").isEmpty)
        XCTAssertTrue(Self.lowContrastCells("\u{1B}[30;43mTaking your selfie\u{1B}[0m").isEmpty)
        XCTAssertTrue(Self.lowContrastCells("plain text and \u{1B}[7m q \u{1B}[0m quit").isEmpty)
    }
}

struct RGB: Equatable {
    var r, g, b: Int
    init(_ r: Int, _ g: Int, _ b: Int) { (self.r, self.g, self.b) = (r, g, b) }

    /// WCAG 2 contrast ratio.
    static func contrast(_ a: RGB, _ b: RGB) -> Double {
        func luminance(_ c: RGB) -> Double {
            func channel(_ v: Int) -> Double {
                let s = Double(v) / 255
                return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
        }
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}

/// The cells of a `capture-pane -e -p` capture: SGR colours as xterm shows them by default (bold makes the
/// eight basic foreground colours bright, as many terminals do).
enum SGRScreen {
    struct Cell {
        var character: Character
        var foreground: RGB?
        var background: RGB?
        var reverse = false
        var dim = false
    }

    static let base16: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
        RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0),
        RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    static func xterm(_ n: Int) -> RGB {
        if n < 16 { return base16[n] }
        if n < 232 {
            let i = n - 16, level = { (v: Int) in v == 0 ? 0 : 55 + 40 * v }
            return RGB(level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        let v = 8 + 10 * (n - 232)
        return RGB(v, v, v)
    }

    static func parse(_ text: String) -> [[Cell]] {
        var rows: [[Cell]] = []
        var fg: Int?, bg: Int?, fgRGB: RGB?, bgRGB: RGB?, bold = false, reverse = false, dim = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [Cell] = []
            var i = line.startIndex
            while i < line.endIndex {
                if line[i] == "\u{1B}" {
                    var j = line.index(after: i)
                    guard j < line.endIndex else { break }
                    if line[j] == "[" {
                        j = line.index(after: j)
                        var parameters = ""
                        while j < line.endIndex, !(line[j].isLetter) {
                            parameters.append(line[j]); j = line.index(after: j)
                        }
                        if j < line.endIndex, line[j] == "m" {
                            let ps =
                                parameters.isEmpty
                                ? [0]
                                : parameters.split(separator: ";", omittingEmptySubsequences: false)
                                    .map { Int($0.split(separator: ":").first ?? "0") ?? 0 }
                            var k = 0
                            while k < ps.count {
                                let p = ps[k]
                                switch p {
                                case 0:
                                    (fg, bg, fgRGB, bgRGB, bold, reverse, dim) = (
                                        nil, nil, nil, nil, false, false, false
                                    )
                                case 1: bold = true
                                case 2: dim = true
                                case 22: bold = false; dim = false
                                case 7: reverse = true
                                case 27: reverse = false
                                case 30...37: fg = p - 30; fgRGB = nil
                                case 90...97: fg = p - 90 + 8; fgRGB = nil
                                case 39: fg = nil; fgRGB = nil
                                case 40...47: bg = p - 40; bgRGB = nil
                                case 100...107: bg = p - 100 + 8; bgRGB = nil
                                case 49: bg = nil; bgRGB = nil
                                case 38, 48:
                                    if k + 2 < ps.count, ps[k + 1] == 5 {
                                        if p == 38 { fg = ps[k + 2]; fgRGB = nil } else { bg = ps[k + 2]; bgRGB = nil }
                                        k += 2
                                    } else if k + 4 < ps.count, ps[k + 1] == 2 {
                                        let c = RGB(ps[k + 2], ps[k + 3], ps[k + 4])
                                        if p == 38 { fg = nil; fgRGB = c } else { bg = nil; bgRGB = c }
                                        k += 4
                                    }
                                default: break
                                }
                                k += 1
                            }
                        }
                        i = j < line.endIndex ? line.index(after: j) : j
                    } else {
                        i = line.index(after: j)
                    }
                    continue
                }
                var foreground = fgRGB ?? fg.map { xterm(bold && $0 < 8 ? $0 + 8 : $0) }
                if foreground == nil, fgRGB == nil, fg == nil { foreground = nil }
                cells.append(
                    Cell(
                        character: line[i], foreground: foreground, background: bgRGB ?? bg.map(xterm),
                        reverse: reverse, dim: dim))
                i = line.index(after: i)
            }
            rows.append(cells)
        }
        return rows
    }
}
