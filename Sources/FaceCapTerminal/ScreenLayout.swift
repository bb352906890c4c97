import FaceCapCore

/// How a piece of text on a screen is drawn; the front end maps each style to attributes and colours.
public enum TextStyle: Equatable, Sendable {
    case title(ScreenTone)
    /// The main message: bold, in the colour of its tone.
    case primary(ScreenTone)
    case hint
    case body
    /// A command to type, shown verbatim.
    case command
    case countdown
    /// The turning glyph before a countdown while something is awaited.
    case spinner
    case keyName
    case keyAction
    case progressLabel
    case progressFilled
    case progressEmpty
    /// The tutorial's drawing.
    case illustration
    /// The border and background of the help overlay.
    case helpFrame
    case helpText
}

/// One run of text at a cell position, already cut to fit the screen.
public struct TextItem: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var text: String
    public var style: TextStyle
    /// Cells the text occupies.
    public var width: Int
}

/// Where everything of one screen goes at one terminal size: computed from the `ScreenModel` alone,
/// with no terminal, so every screen can be checked at every size. Every item and the picture lie
/// inside `columns × rows`, whatever the size (down to 1×1) and however long the texts are.
public struct ScreenLayout: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    /// Drawn in order, after the picture: later items cover earlier ones (the help overlay comes last).
    public private(set) var items: [TextItem] = []
    /// The cells the picture (live preview or photo) fills, aspect-correct; nil when there is none or no room.
    public private(set) var picture: CellRect?

    /// The tutorial's face in an oval, with UTF-8 line drawing or in ASCII.
    static func illustration(unicode: Bool) -> [String] {
        unicode ? [
            "   ╭───────────╮   ",
            "  ╱             ╲  ",
            " │   (o)   (o)   │ ",
            " │               │ ",
            " │       ╷       │ ",
            " │      ─╯       │ ",
            " │    ───────    │ ",
            "  ╲             ╱  ",
            "   ╰───────────╯   ",
        ] : [
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

    /// Lays out `model` on a `columns × rows` terminal. `pictureSize` is the pixel size of the picture
    /// (the camera frame or the photo), for its aspect; `cellAspect` is a cell's height over its width.
    /// The widest a line of body text is wrapped at (columns): wider lines are hard to read.
    static let bodyMeasure = 76

    public init(_ model: ScreenModel, columns: Int, rows: Int, unicode: Bool,
                pictureSize: (width: Int, height: Int)? = nil, cellAspect: Double = 2) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        guard self.columns > 0, self.rows > 0 else { return }
        let margin = columns >= 40 ? 2 : (columns >= 10 ? 1 : 0)
        let width = max(1, columns - 2 * margin)

        // Title on the first row, key help on the last; the rest share what is between.
        addCentered(model.title, row: 0, style: .title(model.tone), unicode: unicode)
        var budget = rows - 1
        if rows >= 3 {
            addKeys(model.keys, row: rows - 1, unicode: unicode)
            budget -= 1
        }
        func take(_ n: Int) -> Int {
            let k = max(0, min(n, budget))
            budget -= k
            return k
        }

        var primary = model.primary.map { TerminalText.wrap($0, width: width, unicode: unicode) } ?? []
        if primary.count > 2 {
            primary = [primary[0], TerminalText.fit(primary[1] + " " + primary[2...].joined(separator: " "),
                                                     width: width, unicode: unicode)]
        }
        let primaryTone: ScreenTone
        if case let .livePreview(oval, _) = model.picture {
            switch oval {
            case .searching: primaryTone = .neutral
            case .adjusting: primaryTone = .warning
            case .ready, .capturing: primaryTone = .good
            }
        } else {
            primaryTone = model.tone
        }
        // Body text reads as a paragraph: wrapped at a comfortable measure, left-aligned, and the block
        // centred under the title like everything else.
        let measure = min(width, Self.bodyMeasure)
        var body: [(String, TextStyle)] = []
        for line in model.lines {
            if line.hasPrefix("$ ") {
                body += TerminalText.hardWrap(line, width: max(1, measure - 2), unicode: unicode)
                    .map { ("  " + $0, .command) }
            } else if line.isEmpty {
                body.append(("", .body))
            } else {
                body += TerminalText.wrap(line, width: measure, unicode: unicode).map { ($0, .body) }
            }
        }
        let bodyWidth = body.map { TerminalText.width(of: $0.0, unicode: unicode) }.max() ?? 0
        let bodyColumn = max(margin, (columns - bodyWidth) / 2)

        if case .livePreview? = model.picture {
            layOutLive(model, primary: primary, primaryTone: primaryTone, body: body, bodyColumn: bodyColumn,
                       budget: budget, margin: margin, width: width, pictureSize: pictureSize, cellAspect: cellAspect,
                       unicode: unicode)
            if model.showsHelp { addHelp(model.helpLines, unicode: unicode) }
            return
        }
        let nPrimary = take(primary.count)
        let nCountdown = take(model.countdown == nil ? 0 : 1)
        let nProgress = take(model.progress == nil ? 0 : 1)
        let nHints = take(min(2, model.hints.count))
        var nPicture = 0
        var nBody = 0
        let art = Self.illustration(unicode: unicode)
        switch model.picture {
        case .livePreview?:
            // The preview is what the person looks at: body text gets at most a third of the room.
            nBody = take(min(body.count, budget / 3))
            nPicture = take(budget)
        case .photo?:
            nBody = take(body.count)
            // The thumbnail grows with the terminal: two fifths of its height, three fifths on a large one
            // (40 rows and more, where the text keeps its rows and blank lines all the same).
            nPicture = take(min(budget, max(3, rows * (rows >= Self.largeRows ? 3 : 2) / 5)))
            if nPicture < 3 { budget += nPicture; nPicture = 0 }
        case .tutorialIllustration?:
            nBody = take(body.count)
            if budget >= art.count && width >= TerminalText.width(of: art[0], unicode: unicode) {
                nPicture = take(art.count)
            }
        case nil:
            nBody = take(body.count)
        }

        // Blank rows between the groups while there is room, then centre what is left over.
        let groups = [nPicture, nPrimary + nHints, nBody, nProgress + nCountdown].filter { $0 > 0 }.count
        let gaps = take(min(max(0, groups - 1) + 1, budget))
        // The live preview starts under the title; other screens are centred in what is left.
        var isLive = false
        if case .livePreview? = model.picture { isLive = true }
        var row = 1 + (isLive ? 0 : budget / 2)
        var gapsLeft = gaps
        if gapsLeft > max(0, groups - 1) { row += 1; gapsLeft -= 1 }
        func gap() { if gapsLeft > 0 { row += 1; gapsLeft -= 1 } }

        if nPicture > 0 {
            let area = CellRect(x: margin, y: row, width: width, height: nPicture)
            switch model.picture {
            case .tutorialIllustration?:
                for (i, line) in art.enumerated() {
                    addCentered(line, row: row + i, style: .illustration, unicode: unicode)
                }
            case .photo?:
                let size = pictureSize ?? (4, 3)
                let half = CellRect(x: area.x, y: area.y, width: min(area.width, columns / 2 + 1), height: area.height)
                var small = PreviewRaster.fit(frameWidth: size.width, frameHeight: size.height, in: half,
                                              cellAspect: cellAspect)
                small.x = (columns - small.width) / 2
                picture = small
            default:
                let size = pictureSize ?? (4, 3)
                picture = PreviewRaster.fit(frameWidth: size.width, frameHeight: size.height, in: area,
                                            cellAspect: cellAspect)
            }
            row += nPicture
            gap()
        }
        for line in primary.prefix(nPrimary) {
            addCentered(line, row: row, style: .primary(primaryTone), unicode: unicode)
            row += 1
        }
        for hint in model.hints.prefix(nHints) {
            addCentered(TerminalText.fit(hint, width: width, unicode: unicode), row: row, style: .hint,
                        unicode: unicode)
            row += 1
        }
        if nPrimary + nHints > 0 { gap() }
        for (line, style) in body.prefix(nBody) {
            add(line, row: row, column: bodyColumn, style: style, unicode: unicode)
            row += 1
        }
        if nBody > 0 { gap() }
        if nProgress > 0, let progress = model.progress {
            addProgress(progress, row: row, margin: margin, width: width, unicode: unicode)
            row += 1
        }
        if nCountdown > 0, let countdown = model.countdown {
            if let step = model.spinner {
                addSpinning(countdown, step: step, row: row, unicode: unicode)
            } else {
                addCentered(countdown, row: row, style: .countdown, unicode: unicode)
            }
        }
        if model.showsHelp { addHelp(model.helpLines, unicode: unicode) }
    }

    /// The spinner's glyphs: a bar turning, in ASCII whatever the locale (braille spinners show as empty boxes
    /// in fonts without braille, as the screenshots' renderer showed).
    static let spinnerGlyphs = ["|", "/", "-", "\\"]

    /// "/ Waiting for the answer: 4 s (time-out 30 s)", centred as one line; the text never moves as the glyph turns.
    private mutating func addSpinning(_ text: String, step: Int, row: Int, unicode: Bool) {
        let glyphs = Self.spinnerGlyphs
        let fitted = TerminalText.fit(text, width: max(1, columns - 2), unicode: unicode)
        let width = TerminalText.width(of: fitted, unicode: unicode) + 2
        let column = max(0, (columns - width) / 2)
        add(glyphs[((step % glyphs.count) + glyphs.count) % glyphs.count], row: row, column: column, style: .spinner,
            unicode: unicode)
        add(fitted, row: row, column: column + 2, style: .countdown, unicode: unicode)
    }

    /// The rows under the live preview kept for text: three for the main message, the hints and the body
    /// lines, and one status row (the Steady bar, or the countdown). Fixed, so the preview's rectangle is one
    /// rectangle for as long as the capture lasts, however many hints come and go.
    static let liveTextRows = 4

    /// The capture screens: the preview in a fixed rectangle (from the terminal's size and the frame's
    /// shape alone), the text in the reserved rows under it, in order of importance.
    private mutating func layOutLive(_ model: ScreenModel, primary: [String], primaryTone: ScreenTone,
                                     body: [(String, TextStyle)], bodyColumn: Int, budget: Int, margin: Int,
                                     width: Int, pictureSize: (width: Int, height: Int)?, cellAspect: Double,
                                     unicode: Bool) {
        if let beside = Self.beside(rows: rows, budget: budget, margin: margin, width: width,
                                    pictureSize: pictureSize ?? (4, 3), cellAspect: cellAspect) {
            picture = beside.picture
            layOutGuidance(model, primary: model.primary ?? "", primaryTone: primaryTone, body: model.lines,
                           beside: beside.picture, column: beside.column, columnWidth: beside.columnWidth,
                           unicode: unicode)
            return
        }
        let textRows = min(budget, Self.liveTextRows)
        let (pictureRows, gap) = Self.stackedRows(rows: rows, budget: budget)
        if pictureRows > 0 {
            picture = Self.stackedPicture(rows: rows, budget: budget, margin: margin, width: width,
                                          pictureSize: pictureSize ?? (4, 3), cellAspect: cellAspect)
        }
        let first = 1 + pictureRows + gap
        let status = first + textRows - 1
        var row = first
        // The main message, the first hint, then why (manual capture says why auto capture stopped), then the rest.
        let hints = model.hints.prefix(2).map { (TerminalText.fit($0, width: width, unicode: unicode), TextStyle.hint, true) }
        var lines: [(String, TextStyle, Bool)] = primary.map { ($0, .primary(primaryTone), true) }
        lines += hints.prefix(1)
        lines += body.map { ($0.0, $0.1, false) }
        lines += hints.dropFirst()
        // The status row holds the Steady bar, else the countdown; a countdown beside the bar goes above it.
        var countdownAbove: String?
        if model.progress != nil, let countdown = model.countdown { countdownAbove = countdown }
        if let countdownAbove { lines.append((countdownAbove, .countdown, true)) }
        let room = textRows > 1 ? textRows - 1 : textRows
        for (text, style, centred) in lines.prefix(room) {
            if centred {
                addCentered(text, row: row, style: style, unicode: unicode)
            } else {
                add(text, row: row, column: bodyColumn, style: style, unicode: unicode)
            }
            row += 1
        }
        guard textRows > 1 else { return }
        if let progress = model.progress {
            addProgress(progress, row: status, margin: margin, width: width, unicode: unicode)
        } else if let countdown = model.countdown {
            addCentered(countdown, row: status, style: .countdown, unicode: unicode)
        }
    }

    /// The stacked capture layout's picture rows and the blank row under them (a blank row between the picture
    /// and the text on a tall terminal; at 80×24 the row goes to the picture).
    static func stackedRows(rows: Int, budget: Int) -> (picture: Int, gap: Int) {
        let textRows = min(budget, liveTextRows)
        let gap = rows >= 30 && budget - textRows - 1 >= 3 ? 1 : 0
        return (max(0, budget - textRows - gap), gap)
    }

    /// The preview's rectangle in the stacked capture layout (the text rows under it).
    static func stackedPicture(rows: Int, budget: Int, margin: Int, width: Int,
                               pictureSize: (width: Int, height: Int), cellAspect: Double) -> CellRect {
        PreviewRaster.fit(frameWidth: pictureSize.width, frameHeight: pictureSize.height,
                          in: CellRect(x: margin, y: 1, width: width, height: stackedRows(rows: rows, budget: budget).picture),
                          cellAspect: cellAspect)
    }

    /// Rows from which a photo's thumbnail takes three fifths of the screen rather than two.
    static let largeRows = 40
    /// The guidance column beside the preview on a wide terminal: at least this many columns (a line of guidance
    /// and the Steady bar fit whole), at most `sideColumnMaximum`, `sideGap` blank columns from the picture.
    static let sideColumnMinimum = 40
    static let sideColumnMaximum = 56
    static let sideGap = 3
    /// The column's rows: the main message in a band of five (up to three lines), a blank row, six rows of hints
    /// and reasons, a blank row, the Steady bar and the countdown. Each has its own rows, so nothing in the
    /// column moves when another part comes or goes.
    static let bandRows = 5, detailRows = 6
    static let sideRows = bandRows + 1 + detailRows + 1 + 2

    /// The preview's rectangle and the guidance column (its first column and width) on a terminal wide enough
    /// for the guidance beside the preview: when a preview of the full height between title and keys leaves at
    /// least `sideColumnMinimum` columns beside it, or, on a frame too wide for that, when the preview beside the
    /// column is no smaller than the one above the text rows. Nil: the guidance goes under the preview. From the
    /// terminal's size and the frame's shape alone, so the rectangle is as steady as the stacked one.
    static func beside(rows: Int, budget: Int, margin: Int, width: Int, pictureSize: (width: Int, height: Int),
                       cellAspect: Double) -> (picture: CellRect, column: Int, columnWidth: Int)? {
        guard budget >= sideRows, width >= sideColumnMinimum + sideGap + 10 else { return nil }
        let side = PreviewRaster.fit(frameWidth: pictureSize.width, frameHeight: pictureSize.height,
                                     in: CellRect(x: 0, y: 0, width: width - sideColumnMinimum - sideGap, height: budget),
                                     cellAspect: cellAspect)
        if side.height < budget {
            // The picture the stacked layout would draw at this size (the same rows `layOutLive` gives it).
            let stacked = stackedPicture(rows: rows, budget: budget, margin: margin, width: width,
                                         pictureSize: pictureSize, cellAspect: cellAspect)
            guard side.width * side.height >= stacked.width * stacked.height else { return nil }
        }
        let columnWidth = min(sideColumnMaximum, width - side.width - sideGap)
        let x = margin + (width - (side.width + sideGap + columnWidth)) / 2
        let picture = CellRect(x: x, y: 1 + (budget - side.height) / 2, width: side.width, height: side.height)
        return (picture, x + side.width + sideGap, columnWidth)
    }

    /// The guidance in its column beside the preview, level with the preview's middle: the main message in a
    /// band of its tone's colour, the hints and reasons under it (whole, wrapped to the column), then the
    /// Steady bar and the countdown, each in its own rows.
    private mutating func layOutGuidance(_ model: ScreenModel, primary: String, primaryTone: ScreenTone,
                                         body: [String], beside picture: CellRect, column: Int, columnWidth: Int,
                                         unicode: Bool) {
        let top = picture.y + max(0, (picture.height - Self.sideRows) / 2)
        // The band: the message wrapped with a margin of two columns each side, centred in its rows.
        var message = TerminalText.wrap(primary, width: columnWidth - 4, unicode: unicode)
        let most = Self.bandRows - 2
        if message.count > most {
            let rest = message[(most - 1)...].joined(separator: " ")
            message = Array(message.prefix(most - 1)) + [TerminalText.fit(rest, width: columnWidth - 4, unicode: unicode)]
        }
        let first = top + (Self.bandRows - message.count) / 2
        for row in top..<(top + Self.bandRows) {
            let i = row - first
            let text = i >= 0 && i < message.count ? message[i] : ""
            let w = TerminalText.width(of: text, unicode: unicode)
            let left = (columnWidth - w) / 2
            add(String(repeating: " ", count: left) + text + String(repeating: " ", count: columnWidth - w - left),
                row: row, column: column, style: .primary(primaryTone), unicode: unicode)
        }
        // The first hint, why (manual capture says why auto capture stopped), then the rest; each whole.
        let hints = model.hints.prefix(2)
        var details: [(String, TextStyle)] = []
        func wrapped(_ text: String, _ style: TextStyle) -> [(String, TextStyle)] {
            TerminalText.wrap(text, width: columnWidth, unicode: unicode).map { ($0, style) }
        }
        for hint in hints.prefix(1) { details += wrapped(hint, .hint) }
        for line in body where !line.isEmpty { details += wrapped(line, .body) }
        for hint in hints.dropFirst() { details += wrapped(hint, .hint) }
        for (i, (text, style)) in details.prefix(Self.detailRows).enumerated() {
            addCentered(text, row: top + Self.bandRows + 1 + i, column: column, width: columnWidth, style: style,
                        unicode: unicode)
        }
        let status = top + Self.bandRows + 1 + Self.detailRows + 1
        if let progress = model.progress {
            addProgress(progress, row: status, margin: column, width: columnWidth, unicode: unicode)
        }
        if let countdown = model.countdown {
            addCentered(countdown, row: status + 1, column: column, width: columnWidth, style: .countdown,
                        unicode: unicode)
        }
    }

    // MARK: Pieces

    /// `text` centred in the `width` columns from `column`, cut to them.
    private mutating func addCentered(_ text: String, row: Int, column: Int, width: Int, style: TextStyle,
                                      unicode: Bool) {
        let fitted = TerminalText.fit(text, width: width, unicode: unicode)
        add(fitted, row: row, column: column + max(0, (width - TerminalText.width(of: fitted, unicode: unicode)) / 2),
            style: style, unicode: unicode)
    }

    private mutating func add(_ text: String, row: Int, column: Int, style: TextStyle, unicode: Bool) {
        guard row >= 0, row < rows, column >= 0, column < columns else { return }
        let fitted = TerminalText.fit(text, width: columns - column, unicode: unicode)
        let width = TerminalText.width(of: fitted, unicode: unicode)
        guard width > 0 else { return }
        items.append(TextItem(row: row, column: column, text: fitted, style: style, width: width))
    }

    private mutating func addCentered(_ text: String, row: Int, style: TextStyle, unicode: Bool) {
        let fitted = TerminalText.fit(text, width: columns, unicode: unicode)
        let width = TerminalText.width(of: fitted, unicode: unicode)
        add(fitted, row: row, column: max(0, (columns - width) / 2), style: style, unicode: unicode)
    }

    /// "Enter start  q quit  ? help", centred. When a language's words make it too wide, the gaps narrow
    /// first, then the last keys lose their words (never a word cut short), then the keys that do not fit are
    /// left off from the end.
    private mutating func addKeys(_ keys: [KeyHelp], row: Int, unicode: Bool) {
        func pieces(gap: String, words: Int) -> [(String, TextStyle)] {
            keys.enumerated().flatMap { i, key -> [(String, TextStyle)] in
                let last = i == keys.count - 1
                let name = (" \(key.key) ", TextStyle.keyName)
                return i < words ? [name, (" \(key.action)" + (last ? "" : gap), .keyAction)]
                    : [name] + (last ? [] : [(" ", .keyAction)])
            }
        }
        func width(_ list: [(String, TextStyle)]) -> Int {
            list.reduce(0) { $0 + TerminalText.width(of: $1.0, unicode: unicode) }
        }
        var chosen = pieces(gap: "  ", words: keys.count)
        if width(chosen) > columns { chosen = pieces(gap: " ", words: keys.count) }
        var words = keys.count
        while width(chosen) > columns, words > 0 {
            words -= 1
            chosen = pieces(gap: " ", words: words)
        }
        var kept: [(String, TextStyle)] = []
        var total = 0
        for piece in chosen {
            let w = TerminalText.width(of: piece.0, unicode: unicode)
            if total + w > columns { break }
            kept.append(piece)
            total += w
        }
        var column = max(0, (columns - total) / 2)
        for (text, style) in kept {
            add(text, row: row, column: column, style: style, unicode: unicode)
            column += TerminalText.width(of: text, unicode: unicode)
        }
    }

    /// "Uploading 120 of 340 kB  ████████░░░░  66 %", the bar shrinking first when space is short.
    private mutating func addProgress(_ progress: ScreenProgress, row: Int, margin: Int, width: Int, unicode: Bool) {
        let fraction = progress.fraction.isFinite ? min(1, max(0, progress.fraction)) : 0
        let percent = " " + Words.text(.progressPercent, ["percent": String(Int((fraction * 100).rounded()))])
        let labelWidth = TerminalText.width(of: progress.label, unicode: unicode)
        let barWidth = min(40, width - labelWidth - TerminalText.width(of: percent, unicode: unicode) - 2)
        guard barWidth >= 5 else {
            addCentered(progress.label + percent, row: row, style: .progressLabel, unicode: unicode)
            return
        }
        let total = labelWidth + 2 + barWidth + TerminalText.width(of: percent, unicode: unicode)
        var column = margin + max(0, (width - total) / 2)
        add(progress.label, row: row, column: column, style: .progressLabel, unicode: unicode)
        column += labelWidth + 2
        let filled = Int((fraction * Double(barWidth)).rounded())
        let full = unicode ? "█" : "#", empty = unicode ? "░" : "-"
        add(String(repeating: full, count: filled), row: row, column: column, style: .progressFilled, unicode: unicode)
        add(String(repeating: empty, count: barWidth - filled), row: row, column: column + filled,
            style: .progressEmpty, unicode: unicode)
        add(percent, row: row, column: column + barWidth, style: .progressLabel, unicode: unicode)
    }

    /// The columns the help's text wraps at on a terminal `columns` wide: the body measure at most, with room for
    /// the box's frame and margins.
    static func helpMeasure(columns: Int) -> Int { max(1, min(columns - 6, bodyMeasure)) }

    /// A framed box in the middle of the screen, filled so that it hides what is under it.
    private mutating func addHelp(_ text: [String], unicode: Bool) {
        let title = " " + Words.text(.helpTitle) + " "
        // Wrapped to the box, between words or wide characters, never cut.
        let measure = Self.helpMeasure(columns: columns)
        let lines = text.flatMap { line -> [String] in
            guard TerminalText.width(of: line, unicode: unicode) > measure else { return [line] }
            let indent = String(line.prefix { $0 == " " })
            return TerminalText.wrap(line, width: max(1, measure - indent.count), unicode: unicode).map { indent + $0 }
        }
        let widest = lines.map { TerminalText.width(of: $0, unicode: unicode) }.max() ?? 0
        let boxWidth = min(columns, max(widest, TerminalText.width(of: title, unicode: unicode)) + 4)
        let boxHeight = min(rows, lines.count + 2)
        guard boxWidth >= 4, boxHeight >= 3 else {
            for (i, line) in lines.prefix(rows).enumerated() {
                add(line, row: i, column: 0, style: .helpText, unicode: unicode)
            }
            return
        }
        let x = (columns - boxWidth) / 2, y = (rows - boxHeight) / 2
        let (h, v, tl, tr, bl, br) = unicode ? ("─", "│", "┌", "┐", "└", "┘") : ("-", "|", "+", "+", "+", "+")
        let inner = boxWidth - 2
        let top = TerminalText.fit(title, width: inner, unicode: unicode)
        let topWidth = TerminalText.width(of: top, unicode: unicode)
        add(tl + top + String(repeating: h, count: inner - topWidth) + tr, row: y, column: x, style: .helpFrame,
            unicode: unicode)
        for i in 0..<(boxHeight - 2) {
            let text = TerminalText.fit(lines[i], width: inner - 2, unicode: unicode)
            let pad = inner - 2 - TerminalText.width(of: text, unicode: unicode)
            add(v + " ", row: y + 1 + i, column: x, style: .helpFrame, unicode: unicode)
            add(text + String(repeating: " ", count: pad), row: y + 1 + i, column: x + 2, style: .helpText,
                unicode: unicode)
            add(" " + v, row: y + 1 + i, column: x + boxWidth - 2, style: .helpFrame, unicode: unicode)
        }
        add(bl + String(repeating: h, count: inner) + br, row: y + boxHeight - 1, column: x, style: .helpFrame,
            unicode: unicode)
    }
}
