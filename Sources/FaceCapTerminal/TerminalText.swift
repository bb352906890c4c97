import FaceCapCore

/// Text as terminal cells: how wide it is, made safe for the locale, cut or wrapped to a width.
///
/// Works on Unicode scalars with the widths `wcwidth` gives on a UTF-8 Linux for the scripts messages
/// use (combining marks 0, East Asian wide and emoji 2, the rest 1), so layouts can be computed and
/// tested without a terminal.
public enum TerminalText {
    /// Cells `scalar` occupies.
    public static func width(_ scalar: Unicode.Scalar) -> Int { cellWidth(scalar) }

    /// Cells `text` occupies once made displayable.
    public static func width(of text: String, unicode: Bool) -> Int {
        cells(text, unicode: unicode).reduce(0) { $0 + $1.width }
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

    /// The characters (grapheme clusters: a letter with its accents, an emoji sequence) of `text` once made
    /// displayable, with the cells each takes: layout never splits one.
    static func cells(_ text: String, unicode: Bool) -> [(character: Character, width: Int)] {
        string(displayable(text, unicode: unicode)).map { character in
            (character, min(2, character.unicodeScalars.reduce(0) { $0 + width($1) }))
        }
    }

    /// `text` cut to at most `width` cells, ending in an ellipsis when it was cut; never inside a character.
    public static func fit(_ text: String, width limit: Int, unicode: Bool) -> String {
        let characters = cells(text, unicode: unicode)
        guard limit > 0 else { return "" }
        if characters.reduce(0, { $0 + $1.width }) <= limit { return String(characters.map(\.character)) }
        let ellipsis: Character = unicode ? "…" : "."
        let room = limit - 1
        var kept = ""
        var used = 0
        for (character, w) in characters {
            if used + w > room { break }
            kept.append(character)
            used += w
        }
        return room >= 0 ? kept + String(ellipsis) : ""
    }

    /// A piece of text a line may break before: a word (a run without spaces or wide characters), or one wide
    /// character (CJK has no spaces: a line may break between any two, as Japanese text does).
    struct Token {
        var characters: [(character: Character, width: Int)]
        /// A space came before it in the text (drawn when it does not start a line).
        var spaced: Bool
        var width: Int { characters.reduce(0) { $0 + $1.width } }
    }

    /// Closing punctuation and small kana never start a line, opening brackets never end one (JIS X 4051's
    /// line-breaking rules, the common core).
    static let noLineStart: Set<Character> = [
        "。", "、", "，", "．", "・", "：", "；", "？", "！", "」", "』", "）", "］",
        "｝", "〉", "》", "】", "〕", "ー", "ぁ", "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ",
        "ゅ", "ょ", "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ", "ョ", "…", "‥",
        ")", "]", "}", ",", ".", ":", ";", "!", "?", "%",
    ]
    static let noLineEnd: Set<Character> = ["「", "『", "（", "［", "｛", "〈", "《", "【", "〔", "(", "[", "{"]

    /// The break opportunities of `text`: spaces, and around wide characters, with the punctuation rules.
    static func tokens(_ text: String, unicode: Bool) -> [Token] {
        var tokens: [Token] = []
        var current: [(character: Character, width: Int)] = []
        var spaced = false
        var pendingSpace = false
        func close() {
            if !current.isEmpty { tokens.append(Token(characters: current, spaced: spaced)) }
            current = []
        }
        for cell in cells(text, unicode: unicode) {
            if cell.character == " " {
                close()
                pendingSpace = true
                continue
            }
            let wide = cell.width == 2
            let previousWide = current.last.map { $0.width == 2 } ?? false
            let glued =
                noLineStart.contains(cell.character) || current.last.map { noLineEnd.contains($0.character) } ?? false
            if !current.isEmpty, !glued, wide || previousWide {
                close()
                spaced = false
            }
            if current.isEmpty {
                spaced = pendingSpace
                pendingSpace = false
            }
            current.append(cell)
        }
        close()
        return tokens
    }

    /// `text` broken into lines of at most `width` cells: between words, or between wide characters, and
    /// inside a word only when the word alone is wider than a line.
    public static func wrap(_ text: String, width limit: Int, unicode: Bool) -> [String] {
        guard limit > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for token in tokens(text, unicode: unicode) {
            let gap = token.spaced && lineWidth > 0 ? 1 : 0
            if lineWidth > 0 && lineWidth + gap + token.width <= limit {
                line += (gap == 1 ? " " : "") + String(token.characters.map(\.character))
                lineWidth += gap + token.width
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            // A word longer than a line is split where it must be: after a path's last "/" that fits (when that
            // keeps at least half the line), else between characters.
            var rest = token.characters[...]
            while rest.reduce(0, { $0 + $1.width }) > limit {
                var (head, tail) = split(rest, width: limit)
                if let slash = head.lastIndex(where: { $0.character == "/" }), slash + 1 < head.endIndex,
                    head[..<(slash + 1)].reduce(0, { $0 + $1.width }) * 2 >= limit
                {
                    (head, tail) = (rest[..<(slash + 1)], rest[(slash + 1)...])
                }
                lines.append(String(head.map(\.character)))
                rest = tail
            }
            line = String(rest.map(\.character))
            lineWidth = rest.reduce(0) { $0 + $1.width }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` verbatim (a command someone may type), broken only where a line is full.
    public static func hardWrap(_ text: String, width limit: Int, unicode: Bool) -> [String] {
        guard limit > 0 else { return [] }
        var rest = cells(text, unicode: unicode)[...]
        var lines: [String] = []
        repeat {
            let (head, tail) = split(rest, width: limit)
            lines.append(String(head.map(\.character)))
            rest = tail
        } while !rest.isEmpty
        return lines
    }

    private static func split(_ characters: ArraySlice<(character: Character, width: Int)>, width limit: Int)
        -> (ArraySlice<(character: Character, width: Int)>, ArraySlice<(character: Character, width: Int)>)
    {
        var used = 0
        var end = characters.startIndex
        for index in characters.indices {
            let w = characters[index].width
            if used + w > limit && end > characters.startIndex { break }
            used += w
            end = index + 1
        }
        return (characters[..<end], characters[end...])
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }
}
