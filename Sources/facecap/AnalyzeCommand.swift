import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `facecap analyze [--json] [--thresholds FILE] IMAGE…`: the faces in photos (JPEG, PNG, PPM/PGM) and in
/// every frame of `.y4m` clips, their quality measures and the guidance facecap gives. Photos are analysed
/// independently (plain thresholds, no motion); a clip's frames are tracked like camera frames and go
/// through the wizard's analyzer — hysteresis, message persistence, stability window, auto capture and
/// the manual-capture fallback — at the clip's own timestamps, so it shows what the wizard would show.
enum AnalyzeCommand: Sendable {
    static let options = [
        OptionSpec("json", help: .optionAnalyzeJSON),
        OptionSpec("thresholds", value: "FILE", help: .optionThresholds, completion: .file(pattern: "*.json")),
    ]
    static let usage = "facecap analyze [--json] [--thresholds FILE] IMAGE|CLIP.y4m…"
    static let about = MessageID.commandAnalyzeAbout

    /// Config files are a few hundred bytes; anything near this is not one.
    static let maxThresholdsBytes = 1 << 20

    static func run(_ arguments: [String]) throws -> ExitCode {
        guard let parsed = try parseSubcommand(arguments, usage: usage, about: about, options: options) else {
            return .success
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError(Words.text(.analyzeNeedsFile))
        }
        let json = parsed.has("json")
        let thresholds =
            try parsed.value("thresholds").map { try AnalyzerThresholds(json: try readText($0)) }
            ?? AnalyzerThresholds()
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        var exitCode = ExitCode.success
        for path in parsed.positionals {
            do {
                if try MediaKind.sniff(path: path) == .y4m {
                    try analyzeClip(path, tracker: tracker, thresholds: thresholds, json: json)
                } else {
                    let frame = try ImageFile.read(path: path)
                    tracker.reset()
                    let faces = tracker.process(frame)
                    report(
                        AnalysisRecord(
                            path: path, frameIndex: nil, frame: frame, faces: faces,
                            analysis: AnalysisReport.photo(
                                frame: frame, faces: faces,
                                thresholds: thresholds),
                            thresholds: thresholds), json: json)
                }
            } catch let error as UserFacingError {
                // One bad file does not stop the others; the exit code still says something failed.
                printError(error.message)
                if exitCode == .success { exitCode = error.exitCode }
            }
        }
        return exitCode
    }

    private static func analyzeClip(
        _ path: String, tracker: FaceTracker, thresholds: AnalyzerThresholds,
        json: Bool
    ) throws {
        let reader = try Y4MFileReader(path: path)
        defer { reader.close() }
        tracker.reset()
        var analyzer = Analyzer(thresholds: thresholds)
        var frame = Frame(format: .gray, width: 1, height: 1, data: [])
        if !json {
            let header = reader.header
            printOut(
                Words.analyzeClipHeader(
                    path: path, width: String(header.width), height: String(header.height),
                    fps: "\(header.frameRate.value)", seconds: "\(thresholds.stabilityWindow)"))
        }
        var index = 0
        var captured = false
        var last: AnalyzerOutput?
        while try reader.readWholeFrame(into: &frame) {
            // The hand and iris models' cadences follow the last analysis, as in the wizard (FramePipeline): a photo
            // the analyzer keeps waits for a reading of every crop (`HandCadence.capture`), which only this gives.
            tracker.followCadences(after: last)
            let faces = tracker.process(frame)
            let output = analyzer.process(frame, faces: faces)
            last = output
            report(
                AnalysisRecord(
                    path: path, frameIndex: index, frame: frame, faces: faces,
                    analysis: AnalysisReport.clipFrame(index: index, output: output),
                    thresholds: thresholds), json: json)
            captured = captured || output.capture != nil
            index += 1
        }
        if reader.endedWithTruncatedFrame {
            printError(
                Words.warningPrefix(message: Words.analyzeClipCut(count: index, path: path, index: String(index))))
        }
        if !json {
            printOut(
                captured
                    ? Words.analyzeClipCaptured(count: index, path: path)
                    : Words.analyzeClipNotCaptured(count: index, path: path))
        }
    }

    private static func report(_ record: AnalysisRecord, json: Bool) {
        printOut(json ? record.json() : record.text())
    }

    /// The text of a small file, or the `InputFileError` (exit 66) that says why it cannot be read.
    private static func readText(_ path: String) throws -> String {
        String(decoding: try POSIXFile.readAll(path, limit: maxThresholdsBytes), as: UTF8.self)
    }
}

/// What `analyze` reports for one image or clip frame, and its two renderings. Every field of the JSON
/// output is built in `jsonFields()`: extend the output there.
struct AnalysisRecord {
    var path: String
    /// Index of the frame in a clip; nil for a photo.
    var frameIndex: Int?
    var frame: Frame
    var faces: [Face]
    /// The analyzer's measures and guidance (for a clip frame, with the wizard's state).
    var analysis: AnalysisReport.Entry
    var thresholds: AnalyzerThresholds

    static let keypointNames = ["right_eye", "left_eye", "nose_tip", "mouth_centre", "right_ear", "left_ear"]

    /// The JSON object's fields in order: file, frame (0 for a photo), timestamp (clips), width, height,
    /// faces, then the analyzer's metrics, guidance, primary (and for clips its state: `AnalysisReport`).
    func jsonFields() -> [(String, String)] {
        var fields: [(String, String)] = [("file", JSONText.string(path)), ("frame", String(frameIndex ?? 0))]
        if frameIndex != nil {
            fields.append(("timestamp", JSONText.number(frame.timestamp, decimals: 3)))
        }
        fields += [
            ("width", String(frame.width)), ("height", String(frame.height)),
            ("faces", JSONText.array(faces.map { Self.jsonFace($0, thresholds: thresholds) })),
        ]
        return fields + AnalysisReport.fields(analysis)
    }

    /// One face: score, box [x, y, w, h] and keypoints in pixels, whether it was tracked, the 468 landmarks
    /// ([x, y, z] in pixels, as in the photo report) and the landmark model's face presence as a probability
    /// (both null when the landmark model did not confirm the face), head pose and eyes.
    static func jsonFace(_ face: Face, thresholds: AnalyzerThresholds) -> String {
        let d = face.detection
        let box = [d.box.x, d.box.y, d.box.width, d.box.height].map { JSONText.number(Double($0), decimals: 1) }
        let keypoints = zip(keypointNames, d.keypoints).map { name, point in
            (
                name,
                JSONText.array([
                    JSONText.number(Double(point.x), decimals: 1),
                    JSONText.number(Double(point.y), decimals: 1),
                ])
            )
        }
        return JSONText.object(
            [
                ("score", JSONText.number(Double(d.score), decimals: 4)),
                ("box", JSONText.array(box)),
                ("keypoints", JSONText.object(keypoints)),
                ("tracked", String(face.isTracked)),
                (
                    "landmarks",
                    face.landmarks.map { landmarks in
                        JSONText.array(
                            landmarks.points.map { point in
                                JSONText.array(
                                    [point.x, point.y, point.z].map { JSONText.number(Double($0), decimals: 1) })
                            })
                    } ?? "null"
                ),
                (
                    "presence",
                    face.landmarks.map { JSONText.number(presenceProbability($0.presence), decimals: 3) } ?? "null"
                ),
            ] + AnalysisReport.faceFields(face, thresholds: thresholds))
    }

    /// The landmark model's face flag is a logit; as a probability (its sigmoid) it reads as what it is: how
    /// sure the model is that its crop holds a face. facecap keeps the landmarks from 0.5 (logit 0, MediaPipe's rule).
    static func presenceProbability(_ logit: Float) -> Double { 1 / (1 + exp(-Double(logit))) }

    func json() -> String { JSONText.object(jsonFields()) }

    /// A photo: a heading, a line or two per face, the measures and the guidance. A clip frame: one line
    /// with the guidance as the wizard shows it.
    func text() -> String {
        if frameIndex != nil { return AnalysisReport.clipLine(analysis) }
        var place = path
        if let frameIndex {
            place = Words.analyzeFrameAt(
                path: path, index: String(frameIndex),
                seconds: JSONText.number(frame.timestamp, decimals: 3))
        }
        let count = faces.isEmpty ? Words.text(.analyzeNoFace) : Words.analyzeFaces(count: faces.count)
        var lines = [
            Words.analyzePhotoLine(
                where: place, width: String(frame.width), height: String(frame.height),
                faces: count)
        ]
        for (n, face) in faces.enumerated() {
            let d = face.detection
            func f(_ v: Float) -> String { JSONText.number(Double(v), decimals: 1) }
            let line = Words.analyzeFaceLine(
                index: String(n + 1), score: JSONText.number(Double(d.score), decimals: 3),
                x: f(d.box.x), y: f(d.box.y), w: f(d.box.width), h: f(d.box.height))
            lines.append("  " + line + (face.isTracked ? "  " + Words.text(.analyzeTracked) : ""))
            let points = zip(Self.keypointNames, d.keypoints).map {
                "\($0.replacingUnderscores) (\(f($1.x)), \(f($1.y)))"
            }
            lines.append("    " + Words.analyzeKeypoints(points: points.joined(separator: "  ")))
            if let landmarks = face.landmarks {
                let presence = JSONText.fixed(Self.presenceProbability(landmarks.presence), decimals: 3)
                lines.append("    " + Words.analyzeLandmarks(count: String(landmarks.points.count), presence: presence))
            }
        }
        lines += AnalysisReport.summaryLines(analysis, thresholds: thresholds)
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
