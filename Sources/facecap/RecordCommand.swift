import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `facecap record [--device PATH] [--seconds N] [--size WxH] [--fps N] [--format FOURCC] OUT.y4m`: a clip from the
/// camera, for replay with --input and for bug reports.
enum RecordCommand: Sendable {
    static let options: [OptionSpec] = [
        OptionSpec("device", short: "d", value: "PATH", help: .optionDevice, completion: .device),
        OptionSpec("seconds", value: "N", help: .optionSeconds),
        OptionSpec("size", value: "WxH", help: .optionSize),
        OptionSpec("fps", value: "N", help: .optionFps),
        OptionSpec("format", value: "FOURCC", help: .optionFormat),
    ]
    static let usage = "facecap record [--device PATH] [--seconds N] [--size WxH] [--fps N] [--format FOURCC] OUT.y4m"
    static let about = MessageID.commandRecordAbout

    static func run(_ arguments: [String]) throws -> ExitCode {
        // First thing: from here on Ctrl-C/SIGTERM stop the recording cleanly instead of killing the process.
        StopSignals.install()
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        guard parsed.positionals.count == 1, let output = parsed.positionals.first else {
            throw UsageError(
                parsed.positionals.isEmpty
                    ? Words.text(.recordNeedsFile)
                    : Words.recordOneFile(count: String(parsed.positionals.count)))
        }
        let seconds = try parsed.double("seconds", in: 0.1...3600) ?? 10
        var configuration = CameraConfiguration()
        if let size = try parsed.size("size") {
            configuration.width = size.width
            configuration.height = size.height
        }
        configuration.frameRate = try parsed.int("fps", in: 1...240) ?? 30
        configuration.pixelFormat = try parsed.fourcc("format")
        configuration.automaticSize = !parsed.has("size")

        let camera: Camera
        if let device = parsed.value("device") {
            camera = try Camera(path: device, configuration: configuration)
        } else {
            camera = try Camera.openFirst(configuration: configuration)
        }
        defer { camera.close() }
        if StopSignals.received != 0 { return .cancelled }

        // Frames go to a hidden file beside OUT that replaces it only once it holds a frame: a recording
        // that gets nothing (or fails at once) leaves an existing OUT as it was.
        let partial = RecordingOutput.partialPath(for: output)
        let writer = try Y4MFileWriter(
            path: partial, width: camera.width, height: camera.height,
            format: camera.format, frameRate: camera.frameRate,
            colorRange: camera.colorRange)
        let rate = CameraDeviceText.rate(seconds)
        printError(
            camera.wasSizeAdjusted
                ? Words.recordStartingAdjusted(
                    seconds: rate, camera: camera.label, width: String(camera.requestedWidth),
                    height: String(camera.requestedHeight), path: output)
                : Words.recordStarting(seconds: rate, camera: camera.label, path: output))

        let summary: RecordingSummary
        do {
            summary = try recordClip(from: camera, to: writer, seconds: seconds)
        } catch {
            camera.close()
            try? writer.close()
            try? RecordingOutput.publish(partial, as: output, keep: writer.framesWritten > 0)
            throw error
        }
        camera.close()
        do {
            try writer.close()
        } catch {
            unlink(partial)
            throw error
        }
        try RecordingOutput.publish(partial, as: output, keep: summary.framesWritten > 0)
        printOut(summary.report(camera: camera, output: output))
        switch summary.stop {
        case .finished: return .success
        case .signal: return .cancelled
        case .sourceFailed:
            if let error = summary.error { throw error }
            throw CameraError.disconnected(path: camera.path)
        }
    }
}
