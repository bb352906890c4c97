import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The program's version, shown by --version.
let facecapVersion = "0.1.0"

/// Writes one line to stderr prefixed with the program name.
func printError(_ message: String) {
    POSIX.writeAll(STDERR_FILENO, "facecap: \(message)\n")
}

/// Writes text to stdout at once, so pipes see each line as it happens.
func printOut(_ text: String) {
    POSIX.writeAll(STDOUT_FILENO, text + "\n")
}

/// `-h, --help`, which every subcommand accepts.
let helpOption = OptionSpec("help", short: "h", help: .optionHelp)

/// Parses a subcommand's arguments (its `options` plus `-h, --help`). With `--help` it prints
/// "Usage: …", `about` and the options, and returns nil: the caller then exits 0.
func parseSubcommand(
    _ arguments: [String], usage: String, about: MessageID,
    options: [OptionSpec]
) throws -> ParsedArguments? {
    let all = options + [helpOption]
    let parsed = try parseArguments(arguments, options: all)
    guard parsed.has("help") else { return parsed }
    let label = Words.text(.cliUsage) + " "
    let indent = String(repeating: " ", count: displayWidth(label))
    let usageLines = wrapWords(usage, width: helpWidth - displayWidth(label)).enumerated().map {
        ($0 == 0 ? label : indent) + $1
    }
    printOut(
        (usageLines + [""] + wrapWords(Words.text(about), width: helpWidth) + ["", formatOptions(all)]).joined(
            separator: "\n"))
    return nil
}
