import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// Every subcommand: its name, one line for help, its `--help` text and options (which the manual page and
/// the shell completions are generated from, see Documentation.swift), and its entry point.
struct Subcommand: Sendable {
    var name: String
    var synopsis: String
    var summary: MessageID
    /// "facecap analyze [--json] …", as its `--help` starts.
    var usage: String
    /// The paragraph its `--help` shows under the usage line.
    var about: MessageID
    var options: [OptionSpec]
    /// What its arguments after the options are, for shell completion.
    var operands: ValueCompletion
    var run: @Sendable ([String]) throws -> ExitCode

    /// The table `main` dispatches on and `facecap --help` lists (a static constant, not a main.swift
    /// global: those belong to the main actor, and the help text is built outside it).
    static let all: [Subcommand] = [
        Subcommand(
            DevicesCommand.self, name: "devices", synopsis: "devices [--json]", summary: .commandDevicesSummary,
            operands: .none),
        Subcommand(
            AnalyzeCommand.self, name: "analyze", synopsis: "analyze [--json] IMAGE…", summary: .commandAnalyzeSummary,
            operands: .file(pattern: nil)),
        Subcommand(
            RecordCommand.self, name: "record", synopsis: "record [--seconds N] OUT.y4m",
            summary: .commandRecordSummary,
            operands: .file(pattern: "*.y4m")),
        Subcommand(
            BenchCommand.self, name: "bench", synopsis: "bench [--json]", summary: .commandBenchSummary,
            operands: .none),
        Subcommand(
            GenerateCommand.self, name: "generate", synopsis: "generate man|bash|zsh|pot",
            summary: .commandGenerateSummary,
            operands: .choices(GenerateCommand.outputs)),
    ]
}

/// What a subcommand's type declares for the table: its `--help` text and options, and its entry point.
protocol SubcommandType: Sendable {
    static var usage: String { get }
    static var about: MessageID { get }
    static var options: [OptionSpec] { get }
    static func run(_ arguments: [String]) throws -> ExitCode
}

extension DevicesCommand: SubcommandType {}
extension AnalyzeCommand: SubcommandType {}
extension RecordCommand: SubcommandType {}
extension BenchCommand: SubcommandType {}
extension GenerateCommand: SubcommandType {}

extension Subcommand {
    /// The entry for `command`: its usage, about, options and entry point are its type's.
    init<Command: SubcommandType>(
        _ command: Command.Type, name: String, synopsis: String, summary: MessageID, operands: ValueCompletion
    ) {
        self.init(
            name: name, synopsis: synopsis, summary: summary, usage: Command.usage, about: Command.about,
            options: Command.options, operands: operands, run: { try Command.run($0) })
    }
}

/// The release build targets AVX2 + FMA (see Package.swift). Checked before any optimised code runs, so
/// an older CPU gets a sentence instead of an illegal-instruction crash.
func checkCPU() -> Bool {
    #if arch(x86_64) && !DEBUG
    guard let file = fopen("/proc/cpuinfo", "r") else { return true }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 8192)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard text.hasPrefix("flags") else { continue }
        let flags = Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }))
        return flags.contains("avx2") && flags.contains("fma")
    }
    #endif
    return true
}

func runMain() -> ExitCode {
    // Events count time from here (SPEC: `t` = seconds since start).
    let startTime = SystemClock().now()
    guard checkCPU() else {
        printError(
            "this build needs a CPU with AVX2 and FMA (Intel Haswell / AMD Excavator, 2013, or newer); "
                + "rebuild from source without '-target-cpu haswell' in Package.swift for an older CPU")
        return .failure
    }
    var arguments = Array(CommandLine.arguments.dropFirst())
    var helpCommand = "facecap --help"
    do {
        // The language first, so that even a usage error is in it (Catalogues: --lang, then the environment).
        try Catalogues.choose(option: languageOption(arguments))
        if let first = arguments.first, let command = Subcommand.all.first(where: { $0.name == first }) {
            arguments.removeFirst()
            helpCommand = "facecap \(command.name) --help"
            // `--lang` is the whole program's (read above): every command takes it, none lists it again.
            return try command.run(try withoutLanguageOption(arguments))
        }
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = Subcommand.all.map(\.name)
            let list = Words.list(names)
            if let near = nearest(first, among: names) {
                throw UsageError(Words.usageUnknownCommandDidYouMean(command: first, suggestion: near, commands: list))
            }
            throw UsageError(Words.usageUnknownCommand(command: first, commands: list))
        }
        return try WizardCommand.run(arguments, startTime: startTime)
    } catch let error as UserFacingError {
        printError(error.message)
        if error.exitCode == .usage { printError(Words.usageSeeHelp(command: helpCommand)) }
        return error.exitCode
    } catch {
        printError("\(error)")
        return .failure
    }
}

/// The value of `--lang CODE` or `--lang=CODE` before any `--`, read ahead of the parser (which checks it again).
func languageOption(_ arguments: [String]) -> String? {
    var index = 0
    while index < arguments.count, arguments[index] != "--" {
        let argument = arguments[index]
        if argument == "--lang", index + 1 < arguments.count { return arguments[index + 1] }
        if argument.hasPrefix("--lang=") { return String(argument.dropFirst("--lang=".count)) }
        index += 1
    }
    return nil
}

/// `arguments` without `--lang CODE` or `--lang=CODE` before any `--`; `--lang` with no value is a usage error.
func withoutLanguageOption(_ arguments: [String]) throws(UsageError) -> [String] {
    var kept: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if argument == "--" {
            kept += arguments[index...]
            break
        }
        if argument == "--lang" {
            guard index + 1 < arguments.count else {
                throw UsageError(Words.usageNeedsValue(option: "--lang", value: "CODE"))
            }
            index += 2
            continue
        }
        if !argument.hasPrefix("--lang=") { kept.append(argument) }
        index += 1
    }
    return kept
}

exit(runMain().rawValue)
