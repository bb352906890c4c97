import FaceCapCore

// The pieces screens are made of, each drawing into the area it is given (ratatui's widgets) and tested alone
// on a small canvas (ScreenWidgetsTests); ScreenLayout decides the areas.

/// One line centred in its area: a title, the main message, a hint, a countdown.
struct CentredLine: TextWidget {
    var text: String
    var style: TextStyle

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        canvas.addCentered(text, in: area, style: style)
    }
}

/// "/ Waiting for the answer: 4 s (time-out 30 s)": a countdown, after a turning glyph while something is awaited,
/// centred as one line; the text never moves as the glyph turns.
struct Countdown: TextWidget {
    var text: String
    /// The spinner's step, when it turns.
    var spinner: Int?

    /// The spinner's glyphs: a bar turning, in ASCII whatever the locale (braille spinners show as empty boxes
    /// in fonts without braille, as the screenshots' renderer showed).
    static let glyphs = ["|", "/", "-", "\\"]

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        guard let step = spinner else {
            canvas.addCentered(text, in: area, style: .countdown)
            return
        }
        let glyphs = Self.glyphs
        let fitted = canvas.fit(text, width: max(1, area.width - 2))
        let width = canvas.width(of: fitted) + 2
        let column = area.x + max(0, (area.width - width) / 2)
        canvas.add(
            glyphs[((step % glyphs.count) + glyphs.count) % glyphs.count], row: area.y, column: column,
            style: .spinner)
        canvas.add(fitted, row: area.y, column: column + 2, style: .countdown)
    }
}

/// "Enter start  q quit  ? help", centred. When a language's words make it too wide, the gaps narrow first, then
/// the last keys lose their words (never a word cut short), then the keys that do not fit are left off from the end.
struct KeyBar: TextWidget {
    var keys: [KeyHelp]

    private func pieces(gap: String, words: Int) -> [(String, TextStyle)] {
        keys.enumerated().flatMap { i, key -> [(String, TextStyle)] in
            let last = i == keys.count - 1
            let name = (" \(key.key) ", TextStyle.keyName)
            return i < words
                ? [name, (" \(key.action)" + (last ? "" : gap), .keyAction)]
                : [name] + (last ? [] : [(" ", .keyAction)])
        }
    }

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        let unicode = canvas.unicode
        func width(_ list: [(String, TextStyle)]) -> Int {
            list.reduce(0) { $0 + TerminalText.width(of: $1.0, unicode: unicode) }
        }
        var chosen = pieces(gap: "  ", words: keys.count)
        if width(chosen) > area.width { chosen = pieces(gap: " ", words: keys.count) }
        var words = keys.count
        while width(chosen) > area.width, words > 0 {
            words -= 1
            chosen = pieces(gap: " ", words: words)
        }
        var kept: [(String, TextStyle)] = []
        var total = 0
        for piece in chosen {
            let w = canvas.width(of: piece.0)
            if total + w > area.width { break }
            kept.append(piece)
            total += w
        }
        var column = area.x + max(0, (area.width - total) / 2)
        for (text, style) in kept {
            canvas.add(text, row: area.y, column: column, style: style)
            column += canvas.width(of: text)
        }
    }
}

/// "Uploading 120 of 340 kB  ████████░░░░  66 %", the bar shrinking first when space is short; with no room for a
/// bar, the label and the percentage centred on the screen's row.
struct ProgressBar: TextWidget {
    var progress: ScreenProgress

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        let fraction = progress.fraction.isFinite ? min(1, max(0, progress.fraction)) : 0
        let percent = " " + Words.progressPercent(percent: String(Int((fraction * 100).rounded())))
        let labelWidth = canvas.width(of: progress.label)
        let barWidth = min(40, area.width - labelWidth - canvas.width(of: percent) - 2)
        guard barWidth >= 5 else {
            canvas.addCentered(progress.label + percent, in: canvas.line(area.y), style: .progressLabel)
            return
        }
        let total = labelWidth + 2 + barWidth + canvas.width(of: percent)
        var column = area.x + max(0, (area.width - total) / 2)
        canvas.add(progress.label, row: area.y, column: column, style: .progressLabel)
        column += labelWidth + 2
        let filled = Int((fraction * Double(barWidth)).rounded())
        let full = canvas.unicode ? "█" : "#", empty = canvas.unicode ? "░" : "-"
        canvas.add(String(repeating: full, count: filled), row: area.y, column: column, style: .progressFilled)
        canvas.add(
            String(repeating: empty, count: barWidth - filled), row: area.y, column: column + filled,
            style: .progressEmpty)
        canvas.add(percent, row: area.y, column: column + barWidth, style: .progressLabel)
    }
}

/// The tutorial's face in an oval, with UTF-8 line drawing or in ASCII, each line centred in the area's columns.
struct Illustration: TextWidget {
    static func lines(unicode: Bool) -> [String] {
        unicode
            ? [
                "   ╭───────────╮   ",
                "  ╱             ╲  ",
                " │   (o)   (o)   │ ",
                " │               │ ",
                " │       ╷       │ ",
                " │      ─╯       │ ",
                " │    ───────    │ ",
                "  ╲             ╱  ",
                "   ╰───────────╯   ",
            ]
            : [
                "   .-----------.   ",
                "  /             \\  ",
                " |   (o)   (o)   | ",
                " |               | ",
                " |       |       | ",
                " |      _|       | ",
                " |    -------    | ",
                "  \\             /  ",
                "   '-----------'   ",
            ]
    }

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        for (i, line) in Self.lines(unicode: canvas.unicode).enumerated() {
            canvas.addCentered(
                line, in: CellRect(x: area.x, y: area.y + i, width: area.width, height: 1),
                style: .illustration)
        }
    }
}

/// Body text as a paragraph: wrapped at a comfortable measure, left-aligned; a line that starts with "$ " is a
/// command, indented and cut where it must (never between words it does not have), a blank line stays blank.
struct BodyText: TextWidget {
    /// The lines as wrapped, each with its style.
    let lines: [(text: String, style: TextStyle)]
    /// The widest line's cells.
    let width: Int

    init(_ paragraphs: [String], measure: Int, unicode: Bool) {
        var lines: [(text: String, style: TextStyle)] = []
        for line in paragraphs {
            if line.hasPrefix("$ ") {
                lines += TerminalText.hardWrap(line, width: max(1, measure - 2), unicode: unicode)
                    .map { ("  " + $0, .command) }
            } else if line.isEmpty {
                lines.append(("", .body))
            } else {
                lines += TerminalText.wrap(line, width: measure, unicode: unicode).map { ($0, .body) }
            }
        }
        self.lines = lines
        width = lines.map { TerminalText.width(of: $0.text, unicode: unicode) }.max() ?? 0
    }

    /// As many lines as the area has rows, from its first column.
    func render(in area: CellRect, into canvas: inout TextCanvas) {
        for (i, line) in lines.prefix(area.height).enumerated() {
            canvas.add(line.text, row: area.y + i, column: area.x, style: line.style)
        }
    }
}

/// The `?` help: a framed box in the middle of the area, filled so that it hides what is under it; its lines
/// wrapped to the box between words or wide characters, never cut. Too small for a frame: the lines from the top.
struct HelpBox: TextWidget {
    var lines: [String]

    /// The columns the help's text wraps at on a terminal `columns` wide: the body measure at most, with room for
    /// the box's frame and margins.
    static func measure(columns: Int) -> Int { max(1, min(columns - 6, ScreenLayout.bodyMeasure)) }

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        let title = " " + Words.text(.helpTitle) + " "
        let measure = Self.measure(columns: area.width)
        let lines = self.lines.flatMap { line -> [String] in
            guard canvas.width(of: line) > measure else { return [line] }
            let indent = String(line.prefix { $0 == " " })
            return TerminalText.wrap(line, width: max(1, measure - indent.count), unicode: canvas.unicode)
                .map { indent + $0 }
        }
        let widest = lines.map { canvas.width(of: $0) }.max() ?? 0
        let boxWidth = min(area.width, max(widest, canvas.width(of: title)) + 4)
        let boxHeight = min(area.height, lines.count + 2)
        guard boxWidth >= 4, boxHeight >= 3 else {
            for (i, line) in lines.prefix(area.height).enumerated() {
                canvas.add(line, row: area.y + i, column: area.x, style: .helpText)
            }
            return
        }
        let x = area.x + (area.width - boxWidth) / 2, y = area.y + (area.height - boxHeight) / 2
        let (h, v, tl, tr, bl, br) = canvas.unicode ? ("─", "│", "┌", "┐", "└", "┘") : ("-", "|", "+", "+", "+", "+")
        let inner = boxWidth - 2
        let top = canvas.fit(title, width: inner)
        canvas.add(
            tl + top + String(repeating: h, count: inner - canvas.width(of: top)) + tr, row: y, column: x,
            style: .helpFrame)
        for i in 0..<(boxHeight - 2) {
            let text = canvas.fit(lines[i], width: inner - 2)
            let pad = inner - 2 - canvas.width(of: text)
            canvas.add(v + " ", row: y + 1 + i, column: x, style: .helpFrame)
            canvas.add(text + String(repeating: " ", count: pad), row: y + 1 + i, column: x + 2, style: .helpText)
            canvas.add(" " + v, row: y + 1 + i, column: x + boxWidth - 2, style: .helpFrame)
        }
        canvas.add(bl + String(repeating: h, count: inner) + br, row: y + boxHeight - 1, column: x, style: .helpFrame)
    }
}
