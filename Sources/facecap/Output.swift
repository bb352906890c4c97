import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The program's version, shown by --version.
let facecapVersion = "0.1.0"

/// Writes one line to stderr prefixed with the program name.
func printError(_ message: String) {
    fputs("facecap: \(message)\n", stderr)
}

/// Writes text to stdout and flushes, so pipes see each line as it happens.
func printOut(_ text: String) {
    fputs(text + "\n", stdout)
    fflush(stdout)
}

/// `-h, --help`, which every subcommand accepts.
let helpOption = OptionSpec("help", short: "h", help: "show this help")

/// Parses a subcommand's arguments (its `options` plus `-h, --help`). With `--help` it prints
/// "Usage: …", `about` and the options, and returns nil: the caller then exits 0.
func parseSubcommand(_ arguments: [String], usage: String, about: String,
                     options: [OptionSpec]) throws -> ParsedArguments? {
    let all = options + [helpOption]
    let parsed = try parseArguments(arguments, options: all)
    guard parsed.has("help") else { return parsed }
    printOut("Usage: \(usage)\n\n\(about)\n\n" + formatOptions(all))
    return nil
}
