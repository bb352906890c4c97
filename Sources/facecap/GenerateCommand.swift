import FaceCapCore

/// `facecap generate man|bash|zsh|pot`: the manual page and the shell completions, printed from the same option
/// tables `--help` shows (Documentation.swift), so they cannot drift apart, and the gettext template of every
/// message (`make pot`). `make deb` and `make install` use it. `facecap generate screens` prints the README's screen
/// table (ScreenTable.swift), which `DocumentationTests` holds the README to; it is the project's own document,
/// not something installed, so the usage line and the completions leave it out.
enum GenerateCommand: Sendable {
    static let options: [OptionSpec] = []
    static let outputs = ["man", "bash", "zsh", "pot"]
    static let usage = "facecap generate man|bash|zsh|pot"
    static let about = MessageID.commandGenerateAbout

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        guard parsed.positionals.count == 1, let what = parsed.positionals.first else {
            throw UsageError(Words.generateTakesOne(outputs: Words.list(outputs)))
        }
        // What is installed (man1, the completions' descriptions) and the template are English, whatever the
        // language of the person who builds the package (README, "Languages").
        let chosen = Words.current
        defer { Words.current = chosen }
        if what != "pot" { Words.current = .english }
        switch what {
        case "man": POSIX.writeAll(1, Documentation.manualPage(version: facecapVersion))
        case "bash": POSIX.writeAll(1, Documentation.bashCompletion())
        case "zsh": POSIX.writeAll(1, Documentation.zshCompletion())
        case "pot": POSIX.writeAll(1, GettextTemplate.text())
        case "screens": POSIX.writeAll(1, ScreenTable.markdown())
        default:
            Words.current = chosen
            throw UsageError(Words.generateTakesOneNot(outputs: Words.list(outputs), what: what))
        }
        return .success
    }
}
