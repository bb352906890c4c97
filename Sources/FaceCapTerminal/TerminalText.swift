/// Text as terminal cells: how wide it is, made safe for the locale, cut or wrapped to a width.
///
/// Works on Unicode scalars with the widths `wcwidth` gives on a UTF-8 Linux for the scripts messages
/// use (combining marks 0, East Asian wide and emoji 2, the rest 1), so layouts can be computed and
/// tested without a terminal.
public enum TerminalText {
    /// Cells `scalar` occupies.
    public static func width(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch v {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x20D0...0x20FF, 0xFE00...0xFE0F,
             0xFE20...0xFE2F:
            return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
             0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Cells `text` occupies once made displayable.
    public static func width(of text: String, unicode: Bool) -> Int {
        displayable(text, unicode: unicode).reduce(0) { $0 + width($1) }
    }

    /// The scalars to draw for `text`: control characters become spaces; without UTF-8, the common
    /// typographic characters become ASCII look-alikes and anything else a "?".
    public static func displayable(_ text: String, unicode: Bool) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.unicodeScalars.count)
        for s in text.unicodeScalars {
            if s.value < 0x20 || (0x7F...0x9F).contains(s.value) {
                out.append(" ")
            } else if unicode || s.isASCII {
                out.append(s)
            } else {
                out.append(contentsOf: ascii(s).unicodeScalars)
            }
        }
        return out
    }

    private static func ascii(_ s: Unicode.Scalar) -> String {
        switch s {
        case "…": return "..."
        case "—", "–", "−", "‐": return "-"
        case "×": return "x"
        case "·", "•": return "*"
        case "‘", "’", "′": return "'"
        case "“", "”", "″": return "\""
        case "°": return " deg"
        case "→": return "->"
        case "←": return "<-"
        case "✓", "✔": return "v"
        case "✗", "✘": return "x"
        case "\u{00A0}": return " "
        default: return width(s) == 0 ? "" : "?"
        }
    }

    /// `text` cut to at most `width` cells, ending in an ellipsis when it was cut.
    public static func fit(_ text: String, width limit: Int, unicode: Bool) -> String {
        let scalars = displayable(text, unicode: unicode)
        guard limit > 0 else { return "" }
        var total = 0
        for s in scalars { total += width(s) }
        if total <= limit { return string(scalars) }
        let ellipsis: [Unicode.Scalar] = unicode ? ["…"] : ["."]
        let room = limit - ellipsis.count
        var kept: [Unicode.Scalar] = []
        var used = 0
        for s in scalars {
            let w = width(s)
            if used + w > room { break }
            kept.append(s)
            used += w
        }
        return string(room >= 0 ? kept + ellipsis : [])
    }

    /// `text` broken into lines of at most `width` cells, between words where it can.
    public static func wrap(_ text: String, width limit: Int, unicode: Bool) -> [String] {
        guard limit > 0 else { return [] }
        var lines: [String] = []
        var line: [Unicode.Scalar] = []
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var scalars = displayable(String(word), unicode: unicode)
            var w = scalars.reduce(0) { $0 + width($1) }
            if lineWidth > 0 && lineWidth + 1 + w <= limit {
                line.append(" ")
                line += scalars
                lineWidth += 1 + w
                continue
            }
            if lineWidth > 0 {
                lines.append(string(line))
                line = []
                lineWidth = 0
            }
            // A word longer than a line is split where it must be.
            while w > limit {
                let (head, tail) = split(scalars, width: limit)
                lines.append(string(head))
                scalars = tail
                w = scalars.reduce(0) { $0 + width($1) }
            }
            line = scalars
            lineWidth = w
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(string(line)) }
        return lines
    }

    /// `text` verbatim (a command someone may type), broken only where a line is full.
    public static func hardWrap(_ text: String, width limit: Int, unicode: Bool) -> [String] {
        guard limit > 0 else { return [] }
        var scalars = displayable(text, unicode: unicode)
        var lines: [String] = []
        repeat {
            let (head, tail) = split(scalars, width: limit)
            lines.append(string(head))
            scalars = tail
        } while !scalars.isEmpty
        return lines
    }

    private static func split(_ scalars: [Unicode.Scalar], width limit: Int) -> ([Unicode.Scalar], [Unicode.Scalar]) {
        var used = 0, count = 0
        for s in scalars {
            let w = width(s)
            if used + w > limit && count > 0 { break }
            used += w
            count += 1
        }
        return (Array(scalars[..<count]), Array(scalars[count...]))
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }
}
