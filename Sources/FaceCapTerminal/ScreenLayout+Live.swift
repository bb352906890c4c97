import FaceCapCore

/// The capture screens: the preview in a fixed rectangle (from the terminal's size and the frame's shape alone),
/// with the guidance in a column beside it on a wide terminal, else in the reserved rows under it.
extension ScreenLayout {
    /// The rows under the live preview kept for text: three for the main message, the hints and the body
    /// lines, and one status row (the Steady bar, or the countdown). Fixed, so the preview's rectangle is one
    /// rectangle for as long as the capture lasts, however many hints come and go.
    static let liveTextRows = 4
    /// The guidance column beside the preview on a wide terminal: at least this many columns (a line of guidance
    /// and the Steady bar fit whole), at most `sideColumnMaximum`, `sideGap` blank columns from the picture.
    static let sideColumnMinimum = 40
    static let sideColumnMaximum = 56
    static let sideGap = 3

    /// Draws the guidance and returns the preview's rectangle (nil when there is no room for one).
    static func layOutLive(
        _ model: ScreenModel, text: ScreenText, budget: Int, page: Page,
        pictureSize: (width: Int, height: Int), cellAspect: Double,
        into canvas: inout TextCanvas
    ) -> CellRect? {
        if let beside = beside(
            rows: canvas.rows, budget: budget, margin: page.margin, width: page.width,
            pictureSize: pictureSize, cellAspect: cellAspect)
        {
            let top = beside.picture.y + max(0, (beside.picture.height - GuidanceColumn.rows) / 2)
            GuidanceColumn(model, tone: text.primaryTone)
                .render(
                    in: CellRect(x: beside.column, y: top, width: beside.columnWidth, height: GuidanceColumn.rows),
                    into: &canvas)
            return beside.picture
        }
        let textRows = min(budget, liveTextRows)
        let (pictureRows, gap) = stackedRows(rows: canvas.rows, budget: budget)
        GuidanceRows(model, text: text, width: page.width, unicode: canvas.unicode)
            .render(
                in: CellRect(x: page.margin, y: 1 + pictureRows + gap, width: page.width, height: textRows),
                into: &canvas)
        guard pictureRows > 0 else { return nil }
        return stackedPicture(
            rows: canvas.rows, budget: budget, margin: page.margin, width: page.width,
            pictureSize: pictureSize, cellAspect: cellAspect)
    }

    /// The stacked capture layout's picture rows and the blank row under them (a blank row between the picture
    /// and the text on a tall terminal; at 80×24 the row goes to the picture).
    static func stackedRows(rows: Int, budget: Int) -> (picture: Int, gap: Int) {
        let textRows = min(budget, liveTextRows)
        let gap = rows >= 30 && budget - textRows - 1 >= 3 ? 1 : 0
        return (max(0, budget - textRows - gap), gap)
    }

    /// The preview's rectangle in the stacked capture layout (the text rows under it).
    static func stackedPicture(
        rows: Int, budget: Int, margin: Int, width: Int,
        pictureSize: (width: Int, height: Int), cellAspect: Double
    ) -> CellRect {
        PreviewRaster.fit(
            frameWidth: pictureSize.width, frameHeight: pictureSize.height,
            in: CellRect(x: margin, y: 1, width: width, height: stackedRows(rows: rows, budget: budget).picture),
            cellAspect: cellAspect)
    }

    /// The preview's rectangle and the guidance column (its first column and width) on a terminal wide enough
    /// for the guidance beside the preview: when a preview of the full height between title and keys leaves at
    /// least `sideColumnMinimum` columns beside it, or, on a frame too wide for that, when the preview beside the
    /// column is no smaller than the one above the text rows. Nil: the guidance goes under the preview. From the
    /// terminal's size and the frame's shape alone, so the rectangle is as steady as the stacked one.
    static func beside(
        rows: Int, budget: Int, margin: Int, width: Int, pictureSize: (width: Int, height: Int),
        cellAspect: Double
    ) -> (picture: CellRect, column: Int, columnWidth: Int)? {
        guard budget >= GuidanceColumn.rows, width >= sideColumnMinimum + sideGap + 10 else { return nil }
        let side = PreviewRaster.fit(
            frameWidth: pictureSize.width, frameHeight: pictureSize.height,
            in: CellRect(x: 0, y: 0, width: width - sideColumnMinimum - sideGap, height: budget),
            cellAspect: cellAspect)
        if side.height < budget {
            // The picture the stacked layout would draw at this size (the same rows `layOutLive` gives it).
            let stacked = stackedPicture(
                rows: rows, budget: budget, margin: margin, width: width,
                pictureSize: pictureSize, cellAspect: cellAspect)
            guard side.width * side.height >= stacked.width * stacked.height else { return nil }
        }
        let columnWidth = min(sideColumnMaximum, width - side.width - sideGap)
        let x = margin + (width - (side.width + sideGap + columnWidth)) / 2
        let picture = CellRect(x: x, y: 1 + (budget - side.height) / 2, width: side.width, height: side.height)
        return (picture, x + side.width + sideGap, columnWidth)
    }
}

/// The guidance in the rows under the preview: the main message, the first hint, then why (manual capture says
/// why auto capture stopped), then the rest, as many as fit above the last row, the status row, which holds the
/// Steady bar, else the countdown (a countdown beside the bar goes above it). On one row, the first line only.
struct GuidanceRows: TextWidget {
    /// Each line with its style, and whether it is centred (body lines start at `bodyColumn`).
    let lines: [(text: String, style: TextStyle, centred: Bool)]
    let bodyColumn: Int
    let progress: ScreenProgress?
    let countdown: String?

    /// Hints are cut to `width`.
    init(_ model: ScreenModel, text: ScreenText, width: Int, unicode: Bool) {
        let hints = model.hints.prefix(2).map {
            (text: TerminalText.fit($0, width: width, unicode: unicode), style: TextStyle.hint, centred: true)
        }
        var lines: [(text: String, style: TextStyle, centred: Bool)] = text.primary.map {
            ($0, .primary(text.primaryTone), true)
        }
        lines += hints.prefix(1)
        lines += text.body.lines.map { ($0.text, $0.style, false) }
        lines += hints.dropFirst()
        if model.progress != nil, let countdown = model.countdown { lines.append((countdown, .countdown, true)) }
        self.lines = lines
        bodyColumn = text.bodyColumn
        progress = model.progress
        countdown = model.countdown
    }

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        let room = area.height > 1 ? area.height - 1 : area.height
        for (i, line) in lines.prefix(room).enumerated() {
            if line.centred {
                canvas.addCentered(line.text, in: canvas.line(area.y + i), style: line.style)
            } else {
                canvas.add(line.text, row: area.y + i, column: bodyColumn, style: line.style)
            }
        }
        guard area.height > 1 else { return }
        let status = area.y + area.height - 1
        if let progress {
            ProgressBar(progress: progress).render(
                in: CellRect(x: area.x, y: status, width: area.width, height: 1),
                into: &canvas)
        } else if let countdown {
            canvas.addCentered(countdown, in: canvas.line(status), style: .countdown)
        }
    }
}

/// The guidance in its column beside the preview: the main message in a band of its tone's colour (up to three
/// lines, wrapped with a margin of two columns each side, centred in its rows), a blank row, the hints and reasons
/// (whole, wrapped to the column), a blank row, then the Steady bar and the countdown. Each part has its own rows,
/// so nothing in the column moves when another part comes or goes.
struct GuidanceColumn: TextWidget {
    static let bandRows = 5, detailRows = 6
    /// The column's rows.
    static let rows = bandRows + 1 + detailRows + 1 + 2

    let primary: String
    let tone: ScreenTone
    let hints: [String]
    let body: [String]
    let progress: ScreenProgress?
    let countdown: String?

    init(_ model: ScreenModel, tone: ScreenTone) {
        primary = model.primary ?? ""
        self.tone = tone
        hints = Array(model.hints.prefix(2))
        body = model.lines
        progress = model.progress
        countdown = model.countdown
    }

    func render(in area: CellRect, into canvas: inout TextCanvas) {
        renderBand(in: area, into: &canvas)
        // The first hint, why (manual capture says why auto capture stopped), then the rest; each whole.
        var details: [(String, TextStyle)] = []
        func wrapped(_ text: String, _ style: TextStyle) -> [(String, TextStyle)] {
            TerminalText.wrap(text, width: area.width, unicode: canvas.unicode).map { ($0, style) }
        }
        for hint in hints.prefix(1) { details += wrapped(hint, .hint) }
        for line in body where !line.isEmpty { details += wrapped(line, .body) }
        for hint in hints.dropFirst() { details += wrapped(hint, .hint) }
        for (i, (text, style)) in details.prefix(Self.detailRows).enumerated() {
            let row = area.y + Self.bandRows + 1 + i
            canvas.addCentered(text, in: CellRect(x: area.x, y: row, width: area.width, height: 1), style: style)
        }
        let status = area.y + Self.bandRows + 1 + Self.detailRows + 1
        if let progress {
            ProgressBar(progress: progress).render(
                in: CellRect(x: area.x, y: status, width: area.width, height: 1),
                into: &canvas)
        }
        if let countdown {
            canvas.addCentered(
                countdown, in: CellRect(x: area.x, y: status + 1, width: area.width, height: 1),
                style: .countdown)
        }
    }

    /// The band: every row of it filled in the tone's colour, the message's lines centred in it.
    private func renderBand(in area: CellRect, into canvas: inout TextCanvas) {
        var message = TerminalText.wrap(primary, width: area.width - 4, unicode: canvas.unicode)
        let most = Self.bandRows - 2
        if message.count > most {
            let rest = message[(most - 1)...].joined(separator: " ")
            message = Array(message.prefix(most - 1)) + [canvas.fit(rest, width: area.width - 4)]
        }
        let first = area.y + (Self.bandRows - message.count) / 2
        for row in area.y..<(area.y + Self.bandRows) {
            let i = row - first
            let text = i >= 0 && i < message.count ? message[i] : ""
            let w = canvas.width(of: text)
            let left = (area.width - w) / 2
            let padded =
                String(repeating: " ", count: left) + text + String(repeating: " ", count: area.width - w - left)
            canvas.add(padded, row: row, column: area.x, style: .primary(tone))
        }
    }
}
