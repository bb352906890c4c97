import FaceCapCore

/// `facecap generate man|bash|zsh|pot`: the manual page and the shell completions, printed from the same option
/// tables `--help` shows (Documentation.swift), so they cannot drift apart, and the gettext template of every
/// message (`make pot`). `make deb` and `make install` use it.
enum GenerateCommand {
    static let options: [OptionSpec] = []
    static let outputs = ["man", "bash", "zsh", "pot"]
    static let usage = "facecap generate man|bash|zsh|pot"
    static let about = "Prints facecap's manual page (roff, for man1/facecap.1), or its completion script for bash "
        + "(bash-completion/completions/facecap) or zsh (a _facecap function for fpath), or the template translations are "
        + "made from (pot, for Resources/po/facecap.pot)."

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        guard parsed.positionals.count == 1, let what = parsed.positionals.first else {
            throw UsageError("'facecap generate' takes one of: \(outputs.joined(separator: ", "))")
        }
        switch what {
        case "man": writeAll(Documentation.manualPage(version: facecapVersion), to: 1)
        case "bash": writeAll(Documentation.bashCompletion(), to: 1)
        case "zsh": writeAll(Documentation.zshCompletion(), to: 1)
        case "pot": writeAll(GettextTemplate.text(), to: 1)
        default: throw UsageError("'facecap generate' takes one of: \(outputs.joined(separator: ", ")), not '\(what)'")
        }
        return .success
    }
}
