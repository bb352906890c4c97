// Puts a screen's cells into curses' window: the pictures' cells in their colour pairs, the words in their styles.

internal import CCurses
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Paints into curses' window what `CursesFrontEnd.draw` lays out: a raster's cells (the live preview, the photo)
/// in the preview's colour pairs, and each text item in the attributes and pair of its style.
struct CursesPainter {
    let palette: PreviewPalette
    let unicode: Bool
    /// The screens' own pairs, chosen at start-up.
    let pairs: ColourPairs
    /// The preview's pairs: made as cells need them in direct colour, else one static table.
    private var directPairs: DirectPairCache?
    private let pairTable: PreviewPairTable
    private var wide: [wchar_t] = []

    init(palette: PreviewPalette, unicode: Bool, directColor: Bool, pairs: ColourPairs) {
        self.palette = palette
        self.unicode = unicode
        self.pairs = pairs
        let preview = CursesFrontEnd.previewPairs(for: palette, directColor: directColor, screenPairs: pairs)
        directPairs = preview.0
        pairTable = preview.1
    }

    /// Copies a raster's cells to the screen at `rect`, clipped to the screen's `columns × rows`.
    mutating func put(_ raster: PreviewRaster, at rect: CellRect, columns: Int, rows: Int) {
        let window = ccurses_stdscr()
        let cells = raster.cells
        let ramp = palette == .monochrome || !unicode
        let guideAttributes = ramp ? CCURSES_A_BOLD : CCURSES_A_NORMAL
        for row in 0..<min(raster.rows, rect.height) where rect.y + row < rows {
            for column in 0..<min(raster.columns, rect.width) where rect.x + column < columns {
                let cell = cells[row * raster.columns + column]
                let (pair, blank) = pair(foreground: cell.foreground, background: cell.background)
                ccurses_put_cell(
                    window, Int32(rect.y + row), Int32(rect.x + column),
                    wchar_t(bitPattern: blank ? 32 : cell.character.value),
                    cell.isGuide ? guideAttributes : CCURSES_A_NORMAL, pair)
            }
        }
    }

    /// Writes `item`'s text at its place, in its style.
    mutating func put(_ item: TextItem) {
        let (attributes, pair) = style(item.style)
        wide.removeAll(keepingCapacity: true)
        for scalar in item.text.unicodeScalars { wide.append(wchar_t(bitPattern: scalar.value)) }
        wide.append(0)
        ccurses_put_text(
            ccurses_stdscr(), Int32(item.row), Int32(item.column), wide, Int32(wide.count - 1), attributes, pair)
    }

    /// The pair for a preview cell, and whether the cell must be drawn as a space (`PreviewPairTable.pair`).
    @inline(__always)
    private mutating func pair(foreground: Int32, background: Int32) -> (pair: Int32, blank: Bool) {
        if foreground < 0 && background < 0 { return (0, false) }
        if directPairs != nil { return (directPairs!.pair(foreground: foreground, background: background), false) }
        return pairTable.pair(foreground: foreground, background: background)
    }

    private func style(_ style: TextStyle) -> (attr_t, Int32) {
        let colour = palette != .monochrome
        func tone(_ tone: ScreenTone) -> Int32 { colour ? pairs.pair(for: tone) : 0 }
        // A tone's background is emphasis enough; bold would turn its black ink grey on terminals (and
        // renderers) that brighten bold colours.
        func emphasis(_ pair: Int32) -> attr_t {
            pair == 0 || pairs.inked.contains(pair) ? CCURSES_A_BOLD : CCURSES_A_NORMAL
        }
        switch style {
        case .title(let t), .primary(let t):
            let pair = tone(t)
            return (emphasis(pair), pair)
        case .hint, .body, .keyAction, .progressLabel, .helpText, .illustration: return (CCURSES_A_NORMAL, 0)
        case .command, .countdown, .helpFrame, .spinner: return (CCURSES_A_BOLD, 0)
        case .keyName: return (CCURSES_A_REVERSE, 0)
        case .progressFilled: return colour ? (CCURSES_A_NORMAL, ColourPairs.barFilled) : (CCURSES_A_NORMAL, 0)
        case .progressEmpty: return colour ? (CCURSES_A_NORMAL, ColourPairs.barEmpty) : (CCURSES_A_NORMAL, 0)
        }
    }
}
