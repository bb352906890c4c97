import FaceCapCore
import FaceCapIO

/// `facecap devices [--json]`: the video-capture nodes, their names and what they can stream.
enum DevicesCommand {
    static let options: [OptionSpec] = [
        OptionSpec("json", help: "print one JSON document (shape in the README) instead of text"),
    ]
    static let usage = "facecap devices [--json]"
    static let about = "Lists video-capture devices (metadata nodes are skipped): path, name, driver, bus, "
        + "formats, sizes and frame rates."

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'") }

        let scan = CameraDevice.scan()
        if parsed.has("json") {
            printOut(CameraDeviceText.json(scan.devices, problems: scan.problems.map(\.message)))
        } else if !scan.devices.isEmpty {
            printOut(CameraDeviceText.human(scan.devices))
        }
        if scan.devices.isEmpty {
            // Nothing usable: the first problem (e.g. permission denied) explains why, else there is no camera.
            throw scan.problems.first ?? CameraError.noCamera(directory: "/dev")
        }
        for problem in scan.problems { printError("warning: " + problem.message) }
        return .success
    }
}
