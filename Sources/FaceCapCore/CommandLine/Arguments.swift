/// What a shell completes as an option's value (`facecap generate bash|zsh`).
public enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer (a number, a size, a URL).
    case none
    /// A file name; `pattern` (a shell glob such as "*.y4m") narrows the offer.
    case file(pattern: String?)
    case directory
    /// A camera node under /dev.
    case device
    /// One of these words.
    case choices([String])
}

/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "device".
    public var long: String
    /// Optional one-letter alias, e.g. "d".
    public var short: Character?
    /// Name of the value in help text, e.g. "PATH"; nil for a flag that takes no value.
    public var valueName: String?
    /// What `--help` says of it: a catalogue message, in the current language when read.
    public var helpID: MessageID?
    /// Or a text given as is (tests).
    private var helpText: String
    /// What shells complete as the value (for an option that takes one).
    public var completion: ValueCompletion

    public init(
        _ long: String, short: Character? = nil, value: String? = nil, help: MessageID,
        completion: ValueCompletion = .none
    ) {
        self.init(long, short: short, value: value, text: "", completion: completion)
        helpID = help
    }

    /// An option whose help is `text` as it stands (not from the catalogue: for tests).
    public init(
        _ long: String, short: Character? = nil, value: String? = nil, text: String,
        completion: ValueCompletion = .none
    ) {
        self.long = long
        self.short = short
        self.valueName = value
        self.helpText = text
        self.completion = completion
    }

    /// The help text in the current language.
    public var help: String { helpID.map { Words.text($0) } ?? helpText }

    public var takesValue: Bool { valueName != nil }

    /// "-d, --device PATH" as shown in help text.
    public var synopsis: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(long)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

/// A command line that broke the rules: the one line a person sees, ending with a pointer to --help.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The result of parsing: option values by long name, flags, positionals. Each option appears at most once
/// (`parseArguments` refuses a repeated one), so `value` has no "last one wins" to hide.
public struct ParsedArguments: Sendable, Equatable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public init() {}

    public func value(_ long: String) -> String? { values[long]?.last }
    public func has(_ long: String) -> Bool { flags.contains(long) || values[long] != nil }

    /// The value of `long` as an integer within `range`, or nil when absent.
    public func int(_ long: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                Words.usageWholeNumber(
                    option: "--" + long, low: String(range.lowerBound),
                    high: String(range.upperBound), text: text))
        }
        return number
    }

    /// The value of `long` as a number within `range`, or nil when absent.
    public func double(_ long: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(long) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            let low = formatNumber(range.lowerBound), high = formatNumber(range.upperBound)
            throw UsageError(Words.usageNumber(option: "--" + long, low: low, high: high, text: text))
        }
        return number
    }

    /// The value of `long` as a V4L2 format's four-character code ("YUYV", "NV12", "Y10"): one to four printable
    /// ASCII characters; nil when absent.
    public func fourcc(_ long: String) throws(UsageError) -> String? {
        guard let text = value(long) else { return nil }
        guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ (33...126).contains($0) }) else {
            throw UsageError(Words.usageFormat(option: "--" + long, text: text))
        }
        return text
    }

    /// The value of `long` as WIDTHxHEIGHT, or nil when absent.
    public func size(_ long: String) throws(UsageError) -> (width: Int, height: Int)? {
        guard let text = value(long) else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (16...8192).contains(w), (16...8192).contains(h)
        else {
            throw UsageError(Words.usageSize(option: "--" + long, text: text))
        }
        return (w, h)
    }
}

private func formatNumber(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

/// Parses `arguments` (without the program and subcommand names) with the usual conventions:
/// `--name value`, `--name=value`, `-n value`, `-nvalue`, bundled short flags (`-ab`), and `--` to end
/// options. A lone `-` is a positional (stdin/stdout by convention). An option given twice (in any spelling) is
/// a usage error: with two values facecap would have to guess which one was meant.
public func parseArguments(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var index = 0
    func spec(long: String) -> OptionSpec? { options.first { $0.long == long } }
    func spec(short: Character) -> OptionSpec? { options.first { $0.short == short } }
    func once(_ option: OptionSpec) throws(UsageError) {
        guard !result.has(option.long) else {
            let spellings = (option.short.map { "-\($0)/" } ?? "") + "--\(option.long)"
            throw UsageError(Words.usageGivenTwice(option: spellings))
        }
    }

    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if argument == "--" {
            result.positionals += arguments[index...]
            break
        }
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name: String
            var inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inline = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = spec(long: name) else {
                throw unknownOption("--" + name, among: options.map { "--" + $0.long })
            }
            try once(option)
            if option.takesValue {
                if inline == nil {
                    guard index < arguments.count else {
                        throw UsageError(Words.usageNeedsValue(option: "--" + name, value: option.valueName ?? "VALUE"))
                    }
                    inline = arguments[index]
                    index += 1
                }
                result.values[name, default: []].append(inline!)
            } else {
                guard inline == nil else { throw UsageError(Words.usageTakesNoValue(option: "--" + name)) }
                result.flags.insert(name)
            }
            continue
        }
        if argument.hasPrefix("-"), argument.count > 1 {
            var letters = Substring(argument.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                guard let option = spec(short: letter) else {
                    throw UsageError(Words.usageUnknownOption(option: "-" + String(letter)))
                }
                try once(option)
                if option.takesValue {
                    if letters.isEmpty {
                        guard index < arguments.count else {
                            throw UsageError(
                                Words.usageNeedsValue(
                                    option: "-" + String(letter),
                                    value: option.valueName ?? "VALUE"))
                        }
                        result.values[option.long, default: []].append(arguments[index])
                        index += 1
                    } else {
                        result.values[option.long, default: []].append(String(letters))
                    }
                    break
                }
                result.flags.insert(option.long)
            }
            continue
        }
        result.positionals.append(argument)
    }
    return result
}

/// "unknown option '--inptu'; did you mean '--input'?" when one of `names` is near enough, else without the guess.
func unknownOption(_ given: String, among names: [String]) -> UsageError {
    guard let near = nearest(given, among: names) else {
        return UsageError(Words.usageUnknownOption(option: given))
    }
    return UsageError(Words.usageUnknownOptionDidYouMean(option: given, suggestion: near))
}

/// The one name of `names` a person most likely meant by `given` (a typo: a letter wrong, missing, extra or two
/// swapped, within one such edit for a short word and two for a longer one), or nil when none is that near or two
/// are equally near. Case is ignored.
public func nearest(_ given: String, among names: [String]) -> String? {
    let word = Array(given.lowercased())
    let limit = word.count <= 4 ? 1 : 2
    var best: [(String, Int)] = []
    for name in names {
        let distance = editDistance(word, Array(name.lowercased()))
        guard distance <= limit, distance > 0 || given != name else { continue }
        if let first = best.first, distance > first.1 { continue }
        if let first = best.first, distance < first.1 { best = [] }
        best.append((name, distance))
    }
    return best.count == 1 ? best[0].0 : nil
}

/// Edits (a letter replaced, inserted, deleted, or two neighbours swapped) from `a` to `b` (optimal string alignment).
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
            }
        }
    }
    return table[a.count][b.count]
}

/// Help text lines for `options`: synopses in a column, descriptions beside them, wrapped to `width`.
public func formatOptions(_ options: [OptionSpec], width: Int = helpWidth) -> String {
    formatColumns(options.map { ("  " + $0.synopsis, $0.help) }, width: width)
}

/// Help text never wider than this: an 80-column terminal shows it without wrapping.
public let helpWidth = 80

/// Two columns: each term (as given, with its indent), its text beside it from a shared column and wrapped to
/// `width` under itself. The column fits the widest term up to `maxColumn`; a wider term puts its text on the
/// next line.
public func formatColumns(_ rows: [(term: String, text: String)], width: Int = helpWidth, maxColumn: Int = 30) -> String
{
    let column = (rows.map { displayWidth($0.term) }.filter { $0 + 2 <= maxColumn }.max() ?? maxColumn - 2) + 2
    let indent = String(repeating: " ", count: column)
    return rows.map { term, text in
        let lines = wrapWords(text, width: width - column)
        guard displayWidth(term) + 2 <= column else {
            return ([term] + lines.map { indent + $0 }).joined(separator: "\n")
        }
        let first = term + String(repeating: " ", count: column - displayWidth(term)) + (lines.first ?? "")
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }.joined(separator: "\n")
}

/// `text` broken into lines of at most `width` terminal cells: at spaces, or between wide characters (Japanese has
/// no spaces; a closing mark such as 、 or ） never starts a line, an opening one never ends it). A word wider than a
/// line gets a line of its own.
public func wrapWords(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ") {
        for (index, piece) in breakablePieces(word).enumerated() {
            let pieceWidth = displayWidth(piece)
            let gap = index == 0 && lineWidth > 0 ? 1 : 0
            if lineWidth == 0 {
                (line, lineWidth) = (piece, pieceWidth)
            } else if lineWidth + gap + pieceWidth <= width {
                line += (gap == 1 ? " " : "") + piece
                lineWidth += gap + pieceWidth
            } else {
                lines.append(line)
                (line, lineWidth) = (piece, pieceWidth)
            }
        }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
}

/// Terminal cells `text` takes: 2 for an East Asian wide character, 0 for a combining mark, else 1 (the table
/// `cellWidth` holds, which the full-screen front end's `TerminalText` uses too).
public func displayWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + cellWidth($1) }
}

/// Cells `scalar` occupies, as `wcwidth` gives them on a UTF-8 Linux for the scripts messages use: combining
/// marks 0, East Asian wide and emoji 2, the rest 1. The one table for help text printed without a terminal
/// and for the full-screen layouts.
public func cellWidth(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
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

/// A word cut where a line may break inside it: before or after a wide character, except before a closing mark
/// or after an opening one.
private func breakablePieces(_ word: Substring) -> [String] {
    let noStart: Set<Character> = [
        "、", "。", "，", "．", "）", "」", "』", "：", "；", "？", "！", "ー", "・", ")", ",", ".", ":", ";",
    ]
    let noEnd: Set<Character> = ["（", "「", "『", "("]
    var pieces: [String] = []
    var piece = ""
    var previous: Character?
    for character in word {
        if let previous, !piece.isEmpty,
            character.unicodeScalars.contains(where: { cellWidth($0) == 2 })
                || previous.unicodeScalars.contains(where: { cellWidth($0) == 2 }),
            !noStart.contains(character), !noEnd.contains(previous)
        {
            pieces.append(piece)
            piece = ""
        }
        piece.append(character)
        previous = character
    }
    if !piece.isEmpty { pieces.append(piece) }
    return pieces
}
