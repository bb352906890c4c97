import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `facecap analyze [--json] [--thresholds FILE] IMAGE|CLIP…`: the analyzer on photos and recorded clips.
///
/// A photo is analysed on its own (plain thresholds, no motion). A `.y4m` clip is analysed frame by frame
/// with the wizard's memory — hysteresis, message persistence, stability window, auto capture and the
/// manual-capture fallback — at the clip's own timestamps, so it shows what the wizard would have shown.
enum AnalyzeCommand {
    static let options: [OptionSpec] = [
        OptionSpec("json", help: "print one JSON object per photo or clip frame (shape in the README)"),
        OptionSpec("thresholds", value: "FILE",
                   help: "JSON object overriding analyzer thresholds, e.g. {\"minFaceWidth\": 0.25}"),
        OptionSpec("help", short: "h", help: "show this help"),
    ]

    /// Config files are a few hundred bytes; anything near this is not one.
    static let maxThresholdsBytes = 1 << 20

    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try parseArguments(arguments, options: options)
        if parsed.has("help") {
            printOut("Usage: facecap analyze [--json] [--thresholds FILE] IMAGE|CLIP.y4m…\n\n"
                     + "Finds faces and prints the quality measures and the guidance facecap would give: for a photo"
                     + " on its own, for a .y4m clip frame by frame as the wizard would show it.\n\n"
                     + formatOptions(options))
            return .success
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError("give at least one photo (JPEG, PNG, PPM/PGM) or .y4m clip to analyse")
        }
        let thresholds = try parsed.value("thresholds").map { try AnalyzerThresholds(json: try readText($0)) }
            ?? AnalyzerThresholds()
        let models = try ModelFiles.loadFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks)
        let json = parsed.has("json")

        // Every input is tried; the first failure decides the exit code once the others are done.
        var firstFailure: UserFacingError?
        for path in parsed.positionals {
            do {
                if try MediaKind.sniff(path: path) == .y4m {
                    try analyzeClip(path, tracker: tracker, thresholds: thresholds, json: json)
                } else {
                    try analyzePhoto(path, tracker: tracker, thresholds: thresholds, json: json)
                }
            } catch let error as UserFacingError {
                printError(error.message)
                firstFailure = firstFailure ?? error
            }
        }
        return firstFailure?.exitCode ?? .success
    }

    private static func analyzePhoto(_ path: String, tracker: FaceTracker, thresholds: AnalyzerThresholds,
                                     json: Bool) throws {
        let frame = try ImageFile.read(path: path)
        tracker.reset()
        let entry = AnalysisReport.photo(file: path, frame: frame, faces: tracker.process(frame),
                                         thresholds: thresholds)
        printOut(json ? AnalysisReport.json(entry, thresholds: thresholds)
                      : AnalysisReport.summary(entry, thresholds: thresholds))
    }

    private static func analyzeClip(_ path: String, tracker: FaceTracker, thresholds: AnalyzerThresholds,
                                    json: Bool) throws {
        let reader = try Y4MFileReader(path: path)
        defer { reader.close() }
        tracker.reset()
        var analyzer = Analyzer(thresholds: thresholds)
        var frame = Frame.empty()
        if !json {
            let header = reader.header
            printOut("\(path): \(header.width)×\(header.height) at \(header.frameRate.value) fps, "
                     + "stability window \(thresholds.stabilityWindow) s")
        }
        var index = 0
        var captured = false
        var fallback: ManualFallbackReason?
        while try reader.readFrame(into: &frame) {
            let faces = tracker.process(frame)
            let output = analyzer.process(frame, faces: faces)
            let entry = AnalysisReport.clipFrame(file: path, index: index, faces: faces, output: output)
            if json {
                printOut(AnalysisReport.json(entry, thresholds: thresholds))
            } else if index == 0 || output.guidanceChanged || output.capture != nil
                        || output.manualFallback != fallback || index % 30 == 0 {
                // Readable output shows what changes (and a heartbeat each 30 frames), not every frame.
                printOut(AnalysisReport.clipLine(entry))
            }
            captured = captured || output.capture != nil
            fallback = output.manualFallback
            index += 1
        }
        if !json {
            printOut("\(path): \(index) frames, " + (captured ? "auto-captured" : "no auto capture"))
        }
    }

    /// The text of a small file, or the `InputFileError` (exit 66) that says why it cannot be read.
    private static func readText(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else {
            let code = errno
            let problem: InputFileError.Problem
            switch code {
            case ENOENT: problem = .missing
            case EACCES, EPERM: problem = .permissionDenied
            case EISDIR: problem = .isDirectory
            default: problem = .unreadable(String(cString: strerror(code)))
            }
            throw InputFileError(path: path, problem: problem)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes += chunk[0..<n] }
            if bytes.count > maxThresholdsBytes {
                throw InputFileError(path: path, problem: .fileTooLarge(bytes: bytes.count, limit: maxThresholdsBytes))
            }
            if n < chunk.count {
                if ferror(file) != 0 {
                    let reason = String(cString: strerror(errno))
                    throw InputFileError(path: path, problem: .unreadable(reason))
                }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
