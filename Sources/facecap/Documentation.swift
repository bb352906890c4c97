import FaceCapCore

/// One source for what `--help`, the manual page (`facecap generate man`) and the shell completions
/// (`facecap generate bash|zsh`) say: the option tables of the commands (`Subcommand.all`,
/// `WizardConfiguration.options`) and the tables below. Change the text here, not in the generated files.
enum Documentation {
    static let tagline = "take a good selfie from the terminal, guided live, validated, saved"

    /// Exit codes: the short label `--help` shows, and the sentence of the manual page.
    static let exitCodes: [(code: ExitCode, label: String, meaning: String)] = [
        (.success, "accepted", "the photo was accepted (or a command other than the wizard succeeded)"),
        (.manualReview, "manual review",
         "validation failed on every attempt; the photo was submitted for manual review"),
        (.usage, "usage", "bad command line: an unknown option, a bad value, a repeated option, a thresholds file "
            + "whose values contradict each other"),
        (.noInput, "input unreadable",
         "an input file (photo, clip, thresholds file) is missing, unreadable or not a valid image or clip"),
        (.noCamera, "no camera", "no camera, the camera is busy, or the path is not a video capture device"),
        (.serverUnreachable, "server unreachable", "the validation server could not be reached and the user quit"),
        (.permissionDenied, "camera permission denied", "permission to open the camera was denied"),
        (.failure, "other error", "any other error: the face models are missing or damaged, the output folder or "
            + "the events file cannot be written, the camera was disconnected, a clip ended, the disk is full"),
        (.cancelled, "cancelled", "cancelled by the user (q, Esc, Ctrl-C)"),
    ]

    static let keys: [(key: String, meaning: String)] = [
        ("SPACE", "take the photo, once manual capture is offered"),
        ("Enter, r", "start, continue, or retry"),
        ("q, Esc", "quit (exit 130)"),
        ("?", "help on the capture screen"),
        ("d", "choose another camera, on the camera error screens"),
    ]

    static let environment: [(name: String, meaning: String)] = [
        ("FACECAP_MODEL_DIR", "the folder that holds the face models (*.tflite). When set it is the only folder "
            + "searched, and it must exist; see FILES for where facecap looks otherwise."),
        ("FACECAP_TOKEN", "sent as 'Authorization: Bearer TOKEN' to the --server endpoint; never taken from the "
            + "command line, never written to events, reports or messages."),
        ("NO_COLOR", "when set and not empty, the preview has no colour (as --color none)."),
        ("TERM", "the terminal type; the full-screen wizard needs one that can address the screen (not dumb)."),
        ("COLORTERM", "truecolor or 24bit lets --color auto use 24-bit colour."),
        ("LANG, LC_ALL, LC_CTYPE", "the message language (LANG, default en) and whether the terminal takes "
            + "UTF-8; without UTF-8 the screens are drawn in ASCII."),
        ("https_proxy, http_proxy, no_proxy", "the proxy for --server uploads (never used for this machine)."),
    ]

    static let files: [(path: String, meaning: String)] = [
        ("/usr/share/facecap/models/", "the face models, checked against their SHA-256 sums when they were "
            + "fetched. facecap looks for them in $FACECAP_MODEL_DIR when that is set (and only there); otherwise "
            + "in BINDIR/../share/facecap/models (BINDIR is the folder of the facecap binary: /usr/bin gives "
            + "/usr/share/facecap/models), then in the models folder of a source checkout the binary was built in, "
            + "then in ./models."),
        ("./facecap-out/", "where photos and reports go unless --output says otherwise; created with mode 0700."),
        ("facecap-YYYYMMDD-HHMMSS.jpg", "the photo (full camera resolution, no EXIF), mode 0600, written "
            + "atomically; -2, -3, ... when the name is taken."),
        ("facecap-YYYYMMDD-HHMMSS.json", "its report beside it: capture, measures, guidance, landmarks, "
            + "validation."),
    ]

    static let examples: [(command: String, meaning: String)] = [
        ("facecap", "run the wizard with the first camera"),
        ("facecap --plain --events events.jsonl", "no full-screen UI; JSON Lines events for a script"),
        ("facecap --input clip.y4m --loop", "replay a clip instead of a camera"),
        ("facecap record --seconds 10 me.y4m", "record a clip for replay or a bug report"),
        ("facecap analyze --json photo.jpg", "faces, landmarks, measures and guidance as JSON"),
        ("ffmpeg -loop 1 -i photo.jpg -frames:v 90 -pix_fmt yuv420p clip.y4m",
         "turn a photo into a 3-second clip (ffmpeg is not part of facecap)"),
    ]

    static let description = [
        "facecap turns on the webcam and shows a live, mirrored preview with an oval guide in the terminal, with "
            + "guidance as the person moves (\"Move closer\", \"Too dark\", \"Hold still\"). The photo is taken by "
            + "itself once the face is placed, lit and sharp, or with SPACE as a fallback; it is checked by a "
            + "built-in validator (or uploaded to a server with --server) and saved with a JSON report.",
        "Everything runs on this machine: facecap runs Google's MediaPipe face models itself; no frame leaves the "
            + "machine and only the final photo is kept. Scripts drive facecap through exit codes, JSON Lines "
            + "events (--events) and the output files; --plain replaces the full-screen UI with one line per "
            + "change, for screen readers, pipes and logs.",
        "Without a command, facecap runs the wizard. Each option may be given once: a repeated option is a usage "
            + "error (exit 64). The output folder (written to by a test file) and the events file are checked before "
            + "the camera opens; --size and --fps with --input are said to be ignored.",
    ]

    // MARK: --help

    /// `facecap --help`: commands, the wizard's options, keys and exit codes, within 80 columns.
    static func help() -> String {
        var commands = [("  facecap [options]", "run the capture wizard")]
        commands += Subcommand.all.map { ("  facecap " + $0.synopsis, $0.summary) }
        commands.append(("  facecap --help | --version", "this help, or the version"))
        let codes = exitCodes.map { "\($0.code.rawValue) \($0.label)" }.joined(separator: ", ")
        let keyText = keys.prefix(4).map { "\($0.key) \($0.meaning)" }.joined(separator: "; ")
        return (["facecap — \(tagline).", "", "Usage:", formatColumns(commands, maxColumn: 40), "",
                 "Options:", formatOptions(WizardConfiguration.options), ""]
            + wrapWords("Keys: " + keyText + ".", width: helpWidth)
            + wrapWords("Exit codes: " + codes + ".", width: helpWidth)
            + ["Without a camera, try a clip: facecap --input clip.y4m", "More: man facecap"])
            .joined(separator: "\n")
    }

    // MARK: manual page

    /// The roff source of facecap(1).
    static func manualPage(version: String) -> String {
        var page = [".TH FACECAP 1 \"\" \"facecap \(version)\" \"User Commands\"",
                    ".\\\" Generated by 'facecap generate man' from facecap's option tables (Documentation.swift).",
                    ".ad l", ".nh", ".SH NAME", "facecap \\- " + roff(tagline),
                    ".SH SYNOPSIS", ".B facecap", "[\\fIoptions\\fR]"]
        for command in Subcommand.all {
            let words = command.usage.split(separator: " ", maxSplits: 2).map(String.init)
            page += [".br", ".B " + roff(words.prefix(2).joined(separator: " "))]
            if words.count > 2 { page.append(roff(words[2])) }
        }
        page += [".br", ".B facecap", "\\-\\-help | \\-\\-version", ".SH DESCRIPTION"]
        page += description.flatMap { [".PP", roff($0)] }
        page += [".SH OPTIONS", "Options of the wizard (the names are a stable contract):"]
        page += WizardConfiguration.options.flatMap(manualOption)
        page.append(".SH COMMANDS")
        for command in Subcommand.all {
            page += [".SS " + roff(command.usage), roff(command.about)]
            page += (command.options + [helpOption]).flatMap(manualOption)
        }
        page += [".SH KEYS", "In the full-screen wizard:"]
        page += keys.flatMap { [".TP", "\\fB" + roff($0.key) + "\\fR", roff($0.meaning)] }
        page.append(".SH EXIT STATUS")
        page += exitCodes.flatMap { [".TP", "\\fB\($0.code.rawValue)\\fR", roff($0.meaning)] }
        page += [".PP", "Errors go to standard error as one line that says what to do."]
        page.append(".SH ENVIRONMENT")
        page += environment.flatMap { [".TP", "\\fB" + roff($0.name) + "\\fR", roff($0.meaning)] }
        page.append(".SH FILES")
        page += files.flatMap { [".TP", "\\fI" + roff($0.path) + "\\fR", roff($0.meaning)] }
        page.append(".SH EXAMPLES")
        page += examples.flatMap { [".TP", "\\fB" + roff($0.command) + "\\fR", roff($0.meaning)] }
        page += [".SH SEE ALSO", "\\fBffmpeg\\fR(1), \\fBv4l2\\-ctl\\fR(1)",
                 ".PP", "The README shipped in /usr/share/doc/facecap (the analyze \\-\\-json fields, the validation "
                    + "server contract, the guidance codes)."]
        return page.joined(separator: "\n") + "\n"
    }

    private static func manualOption(_ option: OptionSpec) -> [String] {
        var tag = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        tag += "\\fB" + roff("--" + option.long) + "\\fR"
        if let value = option.valueName { tag += " \\fI" + roff(value) + "\\fR" }
        return [".TP", tag, roff(option.help)]
    }

    /// `text` for roff: backslashes and hyphens escaped (options stay copyable), typographic characters as roff
    /// glyphs, and a leading dot or quote neutralised.
    static func roff(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "—": out += "\\(em"
            case "–": out += "\\(en"
            case "…": out += "..."
            case "×": out += "\\(mu"
            case "≥": out += "\\(>="
            case "≤": out += "\\(<="
            case "°": out += "\\(de"
            case "’": out += "\\(cq"
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    // MARK: shell completions

    /// A bash completion script (for /usr/share/bash-completion/completions/facecap); plain bash, no helpers.
    static func bashCompletion() -> String {
        let names = Subcommand.all.map(\.name)
        var script = [
            "# bash completion for facecap; generated by 'facecap generate bash' from facecap's option tables.",
            "_facecap() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command='' i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case ${COMP_WORDS[i]} in",
            "            \(names.joined(separator: "|"))) command=${COMP_WORDS[i]}; break ;;",
            "        esac",
            "    done",
            "    local IFS=$'\\n'",
            "    case \"$command $prev\" in",
        ]
        var valueCases: [String] = []
        var optionWords: [String] = []
        let tables = [("", WizardConfiguration.options)] + Subcommand.all.map { ($0.name, $0.options + [helpOption]) }
        for (name, options) in tables {
            optionWords.append("        '\(name)') words='\(options.flatMap(optionNames).joined(separator: " "))' ;;")
            for option in options where option.takesValue {
                let patterns = optionNames(option).map { "'\(name) \($0)'" }.joined(separator: "|")
                valueCases.append("        \(patterns)) COMPREPLY=(\(bashWords(option.completion))); return ;;")
            }
        }
        script += valueCases
        script += ["    esac", "    local words", "    case $command in"] + optionWords + ["    esac",
            "    if [[ $cur == -* ]]; then",
            "        COMPREPLY=($(IFS=' '; compgen -W \"$words\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    case $command in",
            "        '') COMPREPLY=($(IFS=' '; compgen -W '\(names.joined(separator: " "))' -- \"$cur\")) ;;"]
        for command in Subcommand.all where command.operands != .none {
            script.append("        \(command.name)) COMPREPLY=(\(bashWords(command.operands))) ;;")
        }
        script += ["    esac", "}", "complete -o filenames -F _facecap facecap"]
        return script.joined(separator: "\n") + "\n"
    }

    private static func optionNames(_ option: OptionSpec) -> [String] {
        ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
    }

    /// The `compgen` call that lists what `completion` offers for the word being completed (`$cur`).
    private static func bashWords(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return ""
        case .file(nil): return "$(compgen -f -- \"$cur\")"
        case .file(let pattern?): return "$(compgen -d -- \"$cur\"; compgen -f -X '!\(pattern)' -- \"$cur\")"
        case .directory: return "$(compgen -d -- \"$cur\")"
        case .device: return "$(compgen -f -X '!/dev/video*' -- \"${cur:-/dev/video}\")"
        case .choices(let words): return "$(IFS=' '; compgen -W '\(words.joined(separator: " "))' -- \"$cur\")"
        }
    }

    /// A zsh completion function (for /usr/share/zsh/vendor-completions/_facecap).
    static func zshCompletion() -> String {
        var script = [
            "#compdef facecap",
            "# zsh completion for facecap; generated by 'facecap generate zsh' from facecap's option tables.",
            "_facecap() {",
            "  local -a commands",
            "  commands=(",
        ]
        script += Subcommand.all.map { "    '\($0.name):\(zshText($0.summary))'" }
        script += ["  )", "  if (( CURRENT > 2 )); then", "    case ${words[2]} in"]
        for command in Subcommand.all {
            var specs = (command.options + [helpOption]).map(zshSpec)
            switch command.operands {
            case .none: break
            case .file(pattern: nil): specs.append("'*:file:_files'")
            default: specs.append("'1:\(command.name == "generate" ? "what" : "file"):\(zshAction(command.operands))'")
            }
            script += ["      \(command.name))", "        shift words; (( CURRENT-- ))",
                       "        _arguments -s -S : \\"] + specs.map { "          \($0) \\" }
            script[script.count - 1].removeLast(2)
            script += ["        return ;;"]
        }
        script += ["    esac", "  fi", "  _arguments -s -S : \\"]
        script += WizardConfiguration.options.map { "    \(zshSpec($0)) \\" }
        script += ["    '1:command:{_describe command commands}'", "}", "", "_facecap \"$@\""]
        return script.joined(separator: "\n") + "\n"
    }

    /// One `_arguments` spec: exclusions, names (`-d+` and `--device=` take a value in the same or the next
    /// word), description and the value's completion.
    private static func zshSpec(_ option: OptionSpec) -> String {
        let help = "[\(zshText(option.help))]"
        let value = option.valueName.map { ":\(zshText($0.lowercased())):\(zshAction(option.completion))" } ?? ""
        guard let short = option.short else {
            return "'--\(option.long)\(option.takesValue ? "=" : "")\(help)\(value)'"
        }
        let names = option.takesValue ? "{-\(short)+,--\(option.long)=}" : "{-\(short),--\(option.long)}"
        return "'(-\(short) --\(option.long))'\(names)'\(help)\(value)'"
    }

    private static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return " "
        case .file(nil): return "_files"
        case .file(let pattern?): return "_files -g \"\(pattern)\""
        case .directory: return "_files -/"
        case .device: return "{compadd -- /dev/video*(N)}"
        case .choices(let words): return "(\(words.joined(separator: " ")))"
        }
    }

    /// Help text inside a single-quoted `_arguments` spec: no quotes, brackets or colons to break it.
    private static func zshText(_ text: String) -> String {
        String(text.map { character -> Character in
            switch character {
            case "'", "\"": return "`"
            case "[", "{": return "("
            case "]", "}": return ")"
            case ":": return ","
            default: return character
            }
        })
    }
}
