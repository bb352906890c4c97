/// The JSON report saved beside each photo and sent with it to a validation server (SPEC §7, README
/// "Output files"). Built from values only: it cannot hold the server token because nothing here takes
/// one.
///
/// ```
/// {"facecap": {"version": "0.1.0", "models": {"face_detection_short_range.tflite": "<sha256>", …}},
///  "capturedAt": "2026-11-29T22:30:00+01:00",
///  "capture": {"mode": "auto|manual", "attempt": 1, "final": false,
///              "source": {"kind": "camera", "device": "/dev/video0", "width": 1280, "height": 720,
///                         "fps": 30, "pixelFormat": "yuyv"} | {"kind": "clip", "path": "…"}},
///  "photo": {"width": 1280, "height": 720, "mirrored": false, "format": "jpeg"},
///  "metrics": {…the analyzer's measures at capture (as `facecap analyze --json`)…},
///  "guidance": ["ready"],
///  "face": {"score", "box": [x, y, w, h], "keypoints": [[x, y] ×6], "landmarks": [[x, y, z] ×468]} | null,
///  "validation": {"validator": "builtIn|server", "result": "pass|retry|manualReview",
///                 "reasons": […], "message": "…" | null}}
/// ```
/// Coordinates are photo pixels (x right, y down, the unmirrored photo); keypoints are MediaPipe's six
/// (right eye, left eye, nose tip, mouth centre, right ear, left ear, the person's own sides);
/// `validation` is absent until there is a verdict (the copy sent to a server has none).
public struct PhotoReport: Sendable, Equatable {
    /// Where the frames came from.
    public enum Source: Sendable, Equatable {
        /// A camera in the mode it was streaming (frame rate and pixel format when known).
        case camera(device: String, width: Int, height: Int, frameRate: Double?, pixelFormat: String?)
        /// A replayed `.y4m` clip.
        case clip(path: String)
    }

    /// Which checker gave the verdict.
    public enum Validator: String, Sendable, Equatable {
        case builtIn, server
    }

    /// A model file and its SHA-256 (lower-case hex), so a report says exactly which models measured it.
    public struct ModelDigest: Sendable, Equatable {
        public var file: String
        public var sha256: String
        public init(file: String, sha256: String) {
            self.file = file
            self.sha256 = sha256
        }
    }

    public var version: String
    /// Local time of the capture, ISO 8601 with offset (the caller formats it: this module has no clock).
    public var capturedAt: String
    /// How the photo was taken (the flow's `CaptureMode`).
    public var captureMode: CaptureMode
    /// 1-based attempt this photo was taken for.
    public var attempt: Int
    /// True when this is the last attempt (a failure means manual review).
    public var isFinal: Bool
    public var source: Source
    public var photoWidth: Int
    public var photoHeight: Int
    /// The analyzer's measures of the captured frame.
    public var metrics: FrameMetrics
    /// Guidance active at capture, in priority order (`[.ready]` for an auto capture).
    public var guidance: [GuidanceCode]
    /// The measured face (`metrics.face`), with its landmarks; nil when there was none (manual capture).
    public var face: Face?
    public var validator: Validator?
    /// Nil until the checker has answered.
    public var verdict: ValidationVerdict?
    public var models: [ModelDigest]

    public init(
        version: String, capturedAt: String, captureMode: CaptureMode, attempt: Int, isFinal: Bool,
        source: Source, photoWidth: Int, photoHeight: Int, metrics: FrameMetrics,
        guidance: [GuidanceCode], face: Face?, models: [ModelDigest],
        validator: Validator? = nil, verdict: ValidationVerdict? = nil
    ) {
        self.version = version
        self.capturedAt = capturedAt
        self.captureMode = captureMode
        self.attempt = attempt
        self.isFinal = isFinal
        self.source = source
        self.photoWidth = photoWidth
        self.photoHeight = photoHeight
        self.metrics = metrics
        self.guidance = guidance
        self.face = face
        self.models = models
        self.validator = validator
        self.verdict = verdict
    }

    /// The same report with a verdict recorded.
    public func with(verdict: ValidationVerdict, by validator: Validator) -> PhotoReport {
        var copy = self
        copy.verdict = verdict
        copy.validator = validator
        return copy
    }

    /// The report as one line of JSON (numbers rounded; landmarks to 0.1 px).
    public func json() -> String {
        typealias J = JSONText
        let source: String
        switch self.source {
        case .camera(let device, let width, let height, let frameRate, let pixelFormat):
            source = J.object([
                ("kind", J.string("camera")), ("device", J.string(device)),
                ("width", String(width)), ("height", String(height)),
                ("fps", J.number(frameRate, decimals: 3)),
                ("pixelFormat", pixelFormat.map(J.string) ?? "null"),
            ])
        case .clip(let path):
            source = J.object([("kind", J.string("clip")), ("path", J.string(path))])
        }
        var fields: [(String, String)] = [
            (
                "facecap",
                J.object([
                    ("version", J.string(version)),
                    ("models", J.object(models.map { ($0.file, J.string($0.sha256)) })),
                ])
            ),
            ("capturedAt", J.string(capturedAt)),
            (
                "capture",
                J.object([
                    ("mode", J.string(captureMode.rawValue)), ("attempt", String(attempt)), ("final", String(isFinal)),
                    ("source", source),
                ])
            ),
            (
                "photo",
                J.object([
                    ("width", String(photoWidth)), ("height", String(photoHeight)), ("mirrored", "false"),
                    ("format", J.string("jpeg")),
                ])
            ),
            ("metrics", AnalysisReport.metricsJSON(metrics, guidance: guidance)),
            ("guidance", J.array(guidance.map { J.string($0.rawValue) })),
            ("face", face.map(Self.faceJSON) ?? "null"),
        ]
        if let verdict {
            fields.append(
                (
                    "validation",
                    J.object([
                        ("validator", J.string((validator ?? .builtIn).rawValue)),
                        ("result", J.string(verdict.result.rawValue)),
                        ("reasons", J.array(verdict.reasons.map(J.string))),
                        ("message", verdict.message.map(J.string) ?? "null"),
                    ])
                ))
        }
        return J.object(fields)
    }

    /// `json()` as UTF-8 bytes with a final newline, as the file and the upload carry it.
    public func jsonBytes() -> [UInt8] { Array((json() + "\n").utf8) }

    static func faceJSON(_ face: Face) -> String {
        typealias J = JSONText
        let box = FaceMeasures.faceBox(face)
        func n(_ value: Float) -> String { J.number(Double(value), decimals: 1) }
        return J.object([
            ("score", J.number(Double(face.detection.score), decimals: 4)),
            ("box", J.array([n(box.x), n(box.y), n(box.width), n(box.height)])),
            ("keypoints", J.array(face.detection.keypoints.map { J.array([n($0.x), n($0.y)]) })),
            (
                "landmarks",
                face.landmarks.map { landmarks in
                    J.array(landmarks.points.map { J.array([n($0.x), n($0.y), n($0.z)]) })
                } ?? "null"
            ),
        ])
    }
}
