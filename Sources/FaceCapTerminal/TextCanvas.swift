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

/// The buffer widgets render into (ratatui's `Buffer`): runs of text on a `columns × rows` screen, in drawing
/// order, each cut to the screen, so that no widget can write outside it.
struct TextCanvas: Equatable, Sendable {
    let columns: Int
    let rows: Int
    /// Line drawing and other non-ASCII glyphs may be used.
    let unicode: Bool
    private(set) var items: [TextItem] = []

    init(columns: Int, rows: Int, unicode: Bool) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.unicode = unicode
    }

    /// The whole screen.
    var bounds: CellRect { CellRect(x: 0, y: 0, width: columns, height: rows) }

    /// Row `row` across the whole screen.
    func line(_ row: Int) -> CellRect { CellRect(x: 0, y: row, width: columns, height: 1) }

    /// Cells `text` takes.
    func width(of text: String) -> Int { TerminalText.width(of: text, unicode: unicode) }

    /// `text` cut to `width` cells (an ellipsis marks the cut).
    func fit(_ text: String, width: Int) -> String { TerminalText.fit(text, width: width, unicode: unicode) }

    /// `text` from `column` on `row`, cut at the screen's right edge; nothing off the screen.
    mutating func add(_ text: String, row: Int, column: Int, style: TextStyle) {
        guard row >= 0, row < rows, column >= 0, column < columns else { return }
        let fitted = fit(text, width: columns - column)
        let width = width(of: fitted)
        guard width > 0 else { return }
        items.append(TextItem(row: row, column: column, text: fitted, style: style, width: width))
    }

    /// `text` centred in the area's columns on its first row, cut to them.
    mutating func addCentered(_ text: String, in area: CellRect, style: TextStyle) {
        let fitted = fit(text, width: area.width)
        add(fitted, row: area.y, column: area.x + max(0, (area.width - width(of: fitted)) / 2), style: style)
    }
}

/// A piece of a screen that draws itself into an area of the canvas (ratatui's `Widget::render(area, buf)`).
protocol TextWidget {
    func render(in area: CellRect, into canvas: inout TextCanvas)
}
