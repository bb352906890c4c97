import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Every subcommand: its name, one line for help, and its entry point.
struct Subcommand {
    var name: String
    var synopsis: String
    var summary: String
    var run: ([String]) throws -> ExitCode
}

let subcommands: [Subcommand] = [
    Subcommand(name: "devices", synopsis: "devices [--json]",
               summary: "list capture devices: path, name, driver, bus, formats, sizes, frame rates",
               run: DevicesCommand.run),
    Subcommand(name: "analyze", synopsis: "analyze [--json] IMAGE…",
               summary: "analyse photos (JPEG, PNG, PPM/PGM) or clips (.y4m, every frame)",
               run: AnalyzeCommand.run),
    Subcommand(name: "record", synopsis: "record [--seconds N] OUT.y4m",
               summary: "record a clip from the camera for replay and bug reports",
               run: RecordCommand.run),
    Subcommand(name: "bench", synopsis: "bench [--json]",
               summary: "measure face-model and per-frame analysis time on this machine",
               run: BenchCommand.run),
]

func runMain() -> ExitCode {
    var arguments = Array(CommandLine.arguments.dropFirst())
    do {
        if let first = arguments.first, let command = subcommands.first(where: { $0.name == first }) {
            arguments.removeFirst()
            return try command.run(arguments)
        }
        if let first = arguments.first, !first.hasPrefix("-") {
            throw UsageError("unknown command '\(first)' (commands: \(subcommands.map(\.name).joined(separator: ", ")))")
        }
        return try WizardCommand.run(arguments)
    } catch let error as UserFacingError {
        printError(error.message)
        if error.exitCode == .usage { printError("Run 'facecap --help' for more.") }
        return error.exitCode
    } catch {
        printError("\(error)")
        return .failure
    }
}

exit(runMain().rawValue)
