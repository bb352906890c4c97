import FaceCapCore

/// Where everything of one screen goes at one terminal size: computed from the `ScreenModel` alone,
/// with no terminal, so every screen can be checked at every size. Every item and the picture lie
/// inside `columns × rows`, whatever the size (down to 1×1) and however long the texts are.
///
/// The layout only decides the areas (ratatui's `Layout`): the title on the first row, the key help on the last,
/// the rest by `StillLayout` or the live preview's layouts (ScreenLayout+Live.swift); the widgets
/// (ScreenWidgets.swift) draw into them, and the help box over everything.
public struct ScreenLayout: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    /// Drawn in order, after the picture: later items cover earlier ones (the help overlay comes last).
    public private(set) var items: [TextItem] = []
    /// The cells the picture (live preview or photo) fills, aspect-correct; nil when there is none or no room.
    public private(set) var picture: CellRect?

    /// The widest a line of body text is wrapped at (columns): wider lines are hard to read.
    static let bodyMeasure = 76
    /// Rows from which a photo's thumbnail takes three fifths of the screen rather than two.
    static let largeRows = 40

    /// Lays out `model` on a `columns × rows` terminal. `pictureSize` is the pixel size of the picture
    /// (the camera frame or the photo), for its aspect; `cellAspect` is a cell's height over its width.
    public init(
        _ model: ScreenModel, columns: Int, rows: Int, unicode: Bool,
        pictureSize: (width: Int, height: Int)? = nil, cellAspect: Double = 2
    ) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        guard self.columns > 0, self.rows > 0 else { return }
        var canvas = TextCanvas(columns: columns, rows: rows, unicode: unicode)
        let page = Page(columns: columns)
        // Title on the first row, key help on the last; the rest share what is between.
        CentredLine(text: model.title, style: .title(model.tone)).render(in: canvas.line(0), into: &canvas)
        var budget = rows - 1
        if rows >= 3 {
            KeyBar(keys: model.keys).render(in: canvas.line(rows - 1), into: &canvas)
            budget -= 1
        }
        let text = ScreenText(model, page: page, columns: columns, unicode: unicode)
        let size = pictureSize ?? (4, 3)
        if case .livePreview? = model.picture {
            picture = Self.layOutLive(
                model, text: text, budget: budget, page: page, pictureSize: size,
                cellAspect: cellAspect, into: &canvas)
        } else {
            let still = StillLayout(model, text: text, page: page, budget: budget, rows: rows, unicode: unicode)
            picture = still.render(into: &canvas, pictureSize: size, cellAspect: cellAspect)
        }
        if model.showsHelp { HelpBox(lines: model.helpLines).render(in: canvas.bounds, into: &canvas) }
        items = canvas.items
    }
}

/// The columns text may use: a margin each side (two on a terminal 40 columns wide or more, one from 10, none
/// below) and the width between.
struct Page: Equatable, Sendable {
    let margin: Int
    let width: Int

    init(columns: Int) {
        margin = columns >= 40 ? 2 : (columns >= 10 ? 1 : 0)
        width = max(1, columns - 2 * margin)
    }
}

/// A screen's texts as the widgets take them: the main message in at most two lines (the rest joined into the
/// second, cut), its tone, and the body wrapped at the measure with the column it starts at (the block centred).
struct ScreenText {
    let primary: [String]
    let primaryTone: ScreenTone
    let body: BodyText
    let bodyColumn: Int

    init(_ model: ScreenModel, page: Page, columns: Int, unicode: Bool) {
        let width = page.width
        var primary = model.primary.map { TerminalText.wrap($0, width: width, unicode: unicode) } ?? []
        if primary.count > 2 {
            primary = [
                primary[0],
                TerminalText.fit(
                    primary[1] + " " + primary[2...].joined(separator: " "),
                    width: width, unicode: unicode),
            ]
        }
        self.primary = primary
        // The live preview's message takes the colour of the oval: searching, adjusting, ready.
        if case .livePreview(let oval, _) = model.picture {
            switch oval {
            case .searching: primaryTone = .neutral
            case .adjusting: primaryTone = .warning
            case .ready, .capturing: primaryTone = .good
            }
        } else {
            primaryTone = model.tone
        }
        body = BodyText(model.lines, measure: min(page.width, ScreenLayout.bodyMeasure), unicode: unicode)
        bodyColumn = max(page.margin, (columns - body.width) / 2)
    }
}
