/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "device".
    public var long: String
    /// Optional one-letter alias, e.g. "d".
    public var short: Character?
    /// Name of the value in help text, e.g. "PATH"; nil for a flag that takes no value.
    public var valueName: String?
    public var help: String

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
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

/// The result of parsing: option values by long name (last one wins, all kept), flags, positionals.
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
            throw UsageError("--\(long) takes a whole number from \(range.lowerBound) to \(range.upperBound), "
                             + "not '\(text)'")
        }
        return number
    }

    /// The value of `long` as a number within `range`, or nil when absent.
    public func double(_ long: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(long) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            let low = formatNumber(range.lowerBound), high = formatNumber(range.upperBound)
            throw UsageError("--\(long) takes a number from \(low) to \(high), not '\(text)'")
        }
        return number
    }

    /// The value of `long` as WIDTHxHEIGHT, or nil when absent.
    public func size(_ long: String) throws(UsageError) -> (width: Int, height: Int)? {
        guard let text = value(long) else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...8192).contains(w), (16...8192).contains(h) else {
            throw UsageError("--\(long) takes WIDTHxHEIGHT with each side from 16 to 8192, e.g. 640x480, not '\(text)'")
        }
        return (w, h)
    }
}

private func formatNumber(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

/// Parses `arguments` (without the program and subcommand names) with the usual conventions:
/// `--name value`, `--name=value`, `-n value`, `-nvalue`, bundled short flags (`-ab`), and `--` to end
/// options. A lone `-` is a positional (stdin/stdout by convention).
public func parseArguments(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var index = 0
    func spec(long: String) -> OptionSpec? { options.first { $0.long == long } }
    func spec(short: Character) -> OptionSpec? { options.first { $0.short == short } }

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
                throw UsageError("unknown option '--\(name)'")
            }
            if option.takesValue {
                if inline == nil {
                    guard index < arguments.count else {
                        throw UsageError("--\(name) needs a value (\(option.valueName ?? "VALUE"))")
                    }
                    inline = arguments[index]
                    index += 1
                }
                result.values[name, default: []].append(inline!)
            } else {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                result.flags.insert(name)
            }
            continue
        }
        if argument.hasPrefix("-"), argument.count > 1 {
            var letters = Substring(argument.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                guard let option = spec(short: letter) else {
                    throw UsageError("unknown option '-\(letter)'")
                }
                if option.takesValue {
                    if letters.isEmpty {
                        guard index < arguments.count else {
                            throw UsageError("-\(letter) needs a value (\(option.valueName ?? "VALUE"))")
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

/// Help text lines for `options`, aligned.
public func formatOptions(_ options: [OptionSpec]) -> String {
    let width = min(34, (options.map { $0.synopsis.count }.max() ?? 0) + 2)
    return options.map { option in
        let synopsis = "  " + option.synopsis
        let pad = max(1, width + 2 - synopsis.count)
        return synopsis + String(repeating: " ", count: pad) + option.help
    }.joined(separator: "\n")
}
