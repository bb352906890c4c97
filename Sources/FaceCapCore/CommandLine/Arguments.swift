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
    public var help: String
    /// What shells complete as the value (for an option that takes one).
    public var completion: ValueCompletion

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                completion: ValueCompletion = .none) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
        self.completion = completion
    }

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
            throw UsageError(Words.text(.usageWholeNumber, ["option": "--" + long, "low": String(range.lowerBound),
                                                            "high": String(range.upperBound), "text": text]))
        }
        return number
    }

    /// The value of `long` as a number within `range`, or nil when absent.
    public func double(_ long: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(long) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            let low = formatNumber(range.lowerBound), high = formatNumber(range.upperBound)
            throw UsageError(Words.text(.usageNumber, ["option": "--" + long, "low": low, "high": high, "text": text]))
        }
        return number
    }

    /// The value of `long` as WIDTHxHEIGHT, or nil when absent.
    public func size(_ long: String) throws(UsageError) -> (width: Int, height: Int)? {
        guard let text = value(long) else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...8192).contains(w), (16...8192).contains(h) else {
            throw UsageError(Words.text(.usageSize, ["option": "--" + long, "text": text]))
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
            throw UsageError(Words.text(.usageGivenTwice, ["option": spellings]))
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
                throw UsageError(Words.text(.usageUnknownOption, ["option": "--" + name]))
            }
            try once(option)
            if option.takesValue {
                if inline == nil {
                    guard index < arguments.count else {
                        throw UsageError(Words.text(.usageNeedsValue, ["option": "--" + name, "value": option.valueName ?? "VALUE"]))
                    }
                    inline = arguments[index]
                    index += 1
                }
                result.values[name, default: []].append(inline!)
            } else {
                guard inline == nil else { throw UsageError(Words.text(.usageTakesNoValue, ["option": "--" + name])) }
                result.flags.insert(name)
            }
            continue
        }
        if argument.hasPrefix("-"), argument.count > 1 {
            var letters = Substring(argument.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                guard let option = spec(short: letter) else {
                    throw UsageError(Words.text(.usageUnknownOption, ["option": "-" + String(letter)]))
                }
                try once(option)
                if option.takesValue {
                    if letters.isEmpty {
                        guard index < arguments.count else {
                            throw UsageError(Words.text(.usageNeedsValue, ["option": "-" + String(letter), "value": option.valueName ?? "VALUE"]))
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

/// Help text lines for `options`: synopses in a column, descriptions beside them, wrapped to `width`.
public func formatOptions(_ options: [OptionSpec], width: Int = helpWidth) -> String {
    formatColumns(options.map { ("  " + $0.synopsis, $0.help) }, width: width)
}

/// Help text never wider than this: an 80-column terminal shows it without wrapping.
public let helpWidth = 80

/// Two columns: each term (as given, with its indent), its text beside it from a shared column and wrapped to
/// `width` under itself. The column fits the widest term up to `maxColumn`; a wider term puts its text on the
/// next line.
public func formatColumns(_ rows: [(term: String, text: String)], width: Int = helpWidth, maxColumn: Int = 30) -> String {
    let column = (rows.map { $0.term.count }.filter { $0 + 2 <= maxColumn }.max() ?? maxColumn - 2) + 2
    let indent = String(repeating: " ", count: column)
    return rows.map { term, text in
        let lines = wrapWords(text, width: width - column)
        guard term.count + 2 <= column else {
            return ([term] + lines.map { indent + $0 }).joined(separator: "\n")
        }
        let first = term + String(repeating: " ", count: column - term.count) + (lines.first ?? "")
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }.joined(separator: "\n")
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word gets a line of its own).
public func wrapWords(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        if line.isEmpty {
            line = String(word)
        } else if line.count + 1 + word.count <= width {
            line += " " + word
        } else {
            lines.append(line)
            line = String(word)
        }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
}
