import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `facecap [options]`: the capture wizard.
enum WizardCommand {
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try parseArguments(arguments, options: WizardConfiguration.options)
        if parsed.has("help") {
            printOut(helpText())
            return .success
        }
        if parsed.has("version") {
            printOut("facecap \(facecapVersion)")
            return .success
        }
        let configuration = try WizardConfiguration(parsed, environment: environmentVariables(["LANG", "NO_COLOR"]))
        // Ctrl-C and SIGTERM end the wizard through the normal path, so the camera is released in order.
        StopSignals.install()
        let source = try openSource(configuration)
        defer { source.close() }
        var frame = Frame(format: source.format, width: 0, height: 0, data: [])
        // The first frame proves the source works end to end (the camera streams, the clip decodes).
        while try source.nextFrame(into: &frame, timeout: 0.2) == .noFrameYet {
            if StopSignals.received != 0 { return .cancelled }
        }
        if StopSignals.received != 0 { return .cancelled }
        printError("opened \(source.label); the guided capture screens are not part of this build yet — "
                   + "'facecap analyze' and 'facecap record' work today")
        return .failure
    }

    static func openSource(_ configuration: WizardConfiguration) throws -> FrameSource {
        switch configuration.source {
        case .clip(let path, let loop):
            return try ClipSource(path: path, loop: loop)
        case .camera(let path):
            let camera = CameraConfiguration(width: configuration.width, height: configuration.height,
                                             frameRate: configuration.frameRate)
            if let path { return try Camera(path: path, configuration: camera) }
            return try Camera.openFirst(configuration: camera)
        }
    }

    /// The values of `names` that are set in the process environment (getenv: no Foundation needed).
    static func environmentVariables(_ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    static func helpText() -> String {
        var lines = [
            "facecap — take a good selfie from the terminal, guided live, validated, saved.",
            "",
            "Usage:",
            "  facecap [options]                run the capture wizard",
        ]
        for command in Subcommand.all {
            let left = "  facecap " + command.synopsis
            lines.append(left + String(repeating: " ", count: max(1, 35 - left.count)) + command.summary)
        }
        lines += ["  facecap --help | --version", "", "Options:", formatOptions(WizardConfiguration.options), "",
                  "Exit codes: 0 accepted, 3 manual review, 64 usage, 66 input unreadable, 69 no camera,",
                  "            75 server unreachable, 77 camera permission denied, 1 other error, 130 cancelled.",
                  "Without a camera, try a clip: facecap --input clip.y4m"]
        return lines.joined(separator: "\n")
    }
}
