import FaceCapCore

/// `facecap [options]`: the capture wizard.
enum WizardCommand {
    static let options: [OptionSpec] = [
        OptionSpec("device", short: "d", value: "PATH", help: "camera (default: the first video-capture node)"),
        OptionSpec("input", short: "i", value: "FILE.y4m", help: "replay a clip instead of a camera, at its own frame rate"),
        OptionSpec("loop", help: "with --input: repeat the clip"),
        OptionSpec("output", short: "o", value: "DIR", help: "where photos and reports go (default ./facecap-out)"),
        OptionSpec("server", value: "URL", help: "validate by uploading to this endpoint (default: built-in validator)"),
        OptionSpec("attempts", value: "N", help: "validation attempts before manual review (default 3)"),
        OptionSpec("manual-after", value: "SEC", help: "offer manual capture after this many seconds (default 30)"),
        OptionSpec("no-tutorial", help: "skip the tutorial and camera-permission screens"),
        OptionSpec("no-mirror", help: "show the preview unmirrored"),
        OptionSpec("color", value: "MODE", help: "preview colours: auto, truecolor, 256, 16 or none"),
        OptionSpec("size", value: "WxH", help: "requested camera size (default 640x480)"),
        OptionSpec("fps", value: "N", help: "requested camera frame rate (default 30)"),
        OptionSpec("events", value: "FILE", help: "write JSON Lines events to FILE (- = stdout, with --plain)"),
        OptionSpec("plain", help: "no full-screen UI: one line per state or guidance change"),
        OptionSpec("lang", value: "CODE", help: "message language (default from LANG)"),
        OptionSpec("help", short: "h", help: "show this help"),
        OptionSpec("version", help: "show the version"),
    ]

    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try parseArguments(arguments, options: options)
        if parsed.has("help") {
            printOut(helpText())
            return .success
        }
        if parsed.has("version") {
            printOut("facecap \(facecapVersion)")
            return .success
        }
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
        throw UsageError("the capture wizard is not built yet")
    }

    static func helpText() -> String {
        var lines = [
            "facecap — take a good selfie from the terminal, guided live, validated, saved.",
            "",
            "Usage:",
            "  facecap [options]                run the capture wizard",
        ]
        for command in subcommands {
            let left = "  facecap " + command.synopsis
            lines.append(left + String(repeating: " ", count: max(1, 35 - left.count)) + command.summary)
        }
        lines += ["  facecap --help | --version", "", "Options:", formatOptions(options), "",
                  "Exit codes: 0 accepted, 3 manual review, 64 usage, 66 input unreadable, 69 no camera,",
                  "            75 server unreachable, 77 camera permission denied, 1 other error, 130 cancelled."]
        return lines.joined(separator: "\n")
    }
}
