import FaceCapCore

/// The screens without the live preview: the picture (the photo's thumbnail or the tutorial's drawing), the main
/// message and hints, the body, then the progress bar and the countdown, each group given its rows in order of
/// importance while there are rows, blank rows between the groups while there is room, and the whole centred in
/// what is left between the title and the key help.
struct StillLayout {
    let model: ScreenModel
    let text: ScreenText
    let page: Page
    /// Rows given to each part.
    let primaryRows, countdownRows, progressRows, hintRows, pictureRows, bodyRows: Int
    /// The first row drawn on (a row lower when a blank row is left over), and the blank rows between groups.
    let top: Int
    let gaps: Int

    /// Rows handed out in order while there are any.
    private struct RowBudget {
        var left: Int
        mutating func take(_ n: Int) -> Int {
            let k = max(0, min(n, left))
            left -= k
            return k
        }
    }

    init(_ model: ScreenModel, text: ScreenText, page: Page, budget rows: Int, rows screenRows: Int, unicode: Bool) {
        self.model = model
        self.text = text
        self.page = page
        var budget = RowBudget(left: rows)
        primaryRows = budget.take(text.primary.count)
        countdownRows = budget.take(model.countdown == nil ? 0 : 1)
        progressRows = budget.take(model.progress == nil ? 0 : 1)
        hintRows = budget.take(min(2, model.hints.count))
        bodyRows = budget.take(text.body.lines.count)
        var pictureRows = 0
        switch model.picture {
        case .photo?:
            // The thumbnail grows with the terminal: two fifths of its height, three fifths on a large one
            // (40 rows and more, where the text keeps its rows and blank lines all the same).
            let share = screenRows * (screenRows >= ScreenLayout.largeRows ? 3 : 2) / 5
            pictureRows = budget.take(min(budget.left, max(3, share)))
            if pictureRows < 3 { budget.left += pictureRows; pictureRows = 0 }
        case .tutorialIllustration?:
            let art = Illustration.lines(unicode: unicode)
            if budget.left >= art.count && page.width >= TerminalText.width(of: art[0], unicode: unicode) {
                pictureRows = budget.take(art.count)
            }
        case .livePreview?, nil:
            break
        }
        self.pictureRows = pictureRows
        // Blank rows between the groups while there is room, then centre what is left over.
        let groups = [pictureRows, primaryRows + hintRows, bodyRows, progressRows + countdownRows].filter { $0 > 0 }
        let between = max(0, groups.count - 1)
        let blank = budget.take(min(between + 1, budget.left))
        top = 1 + budget.left / 2 + (blank > between ? 1 : 0)
        gaps = blank > between ? blank - 1 : blank
    }

    /// Draws the texts and returns the photo's rectangle (nil for none).
    func render(
        into canvas: inout TextCanvas, pictureSize: (width: Int, height: Int),
        cellAspect: Double
    ) -> CellRect? {
        var row = top
        var gapsLeft = gaps
        func gap() { if gapsLeft > 0 { row += 1; gapsLeft -= 1 } }
        var picture: CellRect?
        if pictureRows > 0 {
            picture = renderPicture(at: row, into: &canvas, pictureSize: pictureSize, cellAspect: cellAspect)
            row += pictureRows
            gap()
        }
        for line in text.primary.prefix(primaryRows) {
            CentredLine(text: line, style: .primary(text.primaryTone)).render(in: canvas.line(row), into: &canvas)
            row += 1
        }
        for hint in model.hints.prefix(hintRows) {
            CentredLine(text: canvas.fit(hint, width: page.width), style: .hint).render(
                in: canvas.line(row),
                into: &canvas)
            row += 1
        }
        if primaryRows + hintRows > 0 { gap() }
        text.body.render(
            in: CellRect(
                x: text.bodyColumn, y: row, width: canvas.columns - text.bodyColumn,
                height: bodyRows), into: &canvas)
        row += bodyRows
        if bodyRows > 0 { gap() }
        if progressRows > 0, let progress = model.progress {
            ProgressBar(progress: progress).render(
                in: CellRect(x: page.margin, y: row, width: page.width, height: 1),
                into: &canvas)
            row += 1
        }
        if countdownRows > 0, let countdown = model.countdown {
            Countdown(text: countdown, spinner: model.spinner).render(in: canvas.line(row), into: &canvas)
        }
        return picture
    }

    /// The tutorial's drawing, or the photo's rectangle: at most half the screen's width, centred.
    private func renderPicture(
        at row: Int, into canvas: inout TextCanvas, pictureSize: (width: Int, height: Int),
        cellAspect: Double
    ) -> CellRect? {
        let columns = canvas.columns
        switch model.picture {
        case .tutorialIllustration?:
            Illustration().render(in: CellRect(x: 0, y: row, width: columns, height: pictureRows), into: &canvas)
            return nil
        case .photo?:
            let half = CellRect(x: page.margin, y: row, width: min(page.width, columns / 2 + 1), height: pictureRows)
            var small = PreviewRaster.fit(
                frameWidth: pictureSize.width, frameHeight: pictureSize.height, in: half,
                cellAspect: cellAspect)
            small.x = (columns - small.width) / 2
            return small
        case .livePreview?, nil:
            return nil
        }
    }
}
