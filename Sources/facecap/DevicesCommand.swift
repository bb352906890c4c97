import FaceCapCore
import FaceCapIO

/// `facecap devices [--json]`: the video-capture nodes, their names and what they can stream.
enum DevicesCommand: Sendable {
    static let options: [OptionSpec] = [
        OptionSpec("json", help: .optionDevicesJSON)
    ]
    static let usage = "facecap devices [--json]"
    static let about = MessageID.commandDevicesAbout

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        if let extra = parsed.positionals.first { throw UsageError(Words.usageUnexpectedOperand(argument: extra)) }

        var scan = CameraDevice.scan()
        // What facecap may steer on each, read now (the scan itself does not).
        scan.devices = scan.devices.map { device in
            var device = device
            device.controls = CameraDeviceControl.read(path: device.path)
            return device
        }
        if parsed.has("json") {
            printOut(CameraDeviceText.json(scan.devices, problems: scan.problems.map(\.message)))
        } else if !scan.devices.isEmpty {
            printOut(CameraDeviceText.human(scan.devices))
        }
        if scan.devices.isEmpty {
            // Nothing usable: the first problem (e.g. permission denied) explains why, else there is no camera.
            throw scan.problems.first ?? CameraError.noCamera(directory: "/dev")
        }
        for problem in scan.problems { printError(Words.warningPrefix(message: problem.message)) }
        // Listed, but no camera facecap can read: the wizard's exit code (69) for a script that asks first.
        // Its own words: the camera error's "('facecap devices' says how to set it up)" would point at this command.
        if let camera = CameraRank.rawBayerCamera(scan.devices) {
            printError(Words.devicesRawBayerOnly(driver: camera.driver, nodes: camera.nodeSpan))
            return .noCamera
        }
        return .success
    }
}
