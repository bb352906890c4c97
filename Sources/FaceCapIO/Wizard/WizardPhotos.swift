import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// What happens to a photo the wizard took: its report, validation on the worker thread (built-in validator
/// or server), and saving. The photo stays in memory (`CapturedPhoto`) until it is saved; nothing else of
/// the face is written anywhere.
public final class WizardPhotos {
    private let worker: ValidationWorker
    private let validator: PhotoReport.Validator
    private var store: PhotoStore
    private let version: String
    private let models: [PhotoReport.ModelDigest]
    /// The pre-flight, for a checker that can be asked before a photo exists (a server).
    private let serverCheck: ServerCheckWorker?

    /// `validator` says which kind `checker` is, for the report.
    public init(
        checker: any PhotoChecker, validator: PhotoReport.Validator, store: PhotoStore, version: String,
        models: [PhotoReport.ModelDigest]
    ) throws(ValidationWorkerError) {
        worker = try ValidationWorker(checker: checker)
        serverCheck = try (checker as? any ServerProbe).map { probe throws(ValidationWorkerError) in
            try ServerCheckWorker(probe: probe)
        }
        self.validator = validator
        self.store = store
        self.version = version
        self.models = models
    }

    deinit {
        worker.shutdown()
        serverCheck?.shutdown()
    }

    /// Starts the pre-flight; false when the checker cannot be asked before a photo exists (the built-in
    /// validator), which has nothing to check.
    public func startServerCheck() -> Bool {
        guard let serverCheck else { return false }
        serverCheck.start()
        return true
    }

    /// Readable when the pre-flight answered; nil without one.
    public var serverCheckDescriptor: Int32? { serverCheck?.descriptor }

    /// The pre-flight's answers that arrived, without blocking.
    public func serverCheckAnswers() -> [ServerCheck] { serverCheck?.drain() ?? [] }

    /// Readable when validation outcomes are waiting.
    public var descriptor: Int32 { worker.descriptor }

    /// Encodes `frame` (full resolution, unmirrored) and writes its pre-verdict report.
    public func take(
        _ frame: Frame, analysis: AnalyzerOutput, faces: [Face], mode: CaptureMode, attempt: Int,
        isFinal: Bool, source: FrameSource?
    ) throws(JPEGEncodingError) -> CapturedPhoto {
        let metrics = analysis.metrics
        let face = metrics.face.flatMap { measured in
            faces.indices.contains(measured.index) ? faces[measured.index] : nil
        }
        let report = PhotoReport(
            version: version, capturedAt: PhotoStore.timestamp(time: Int(time(nil))),
            captureMode: mode, attempt: attempt, isFinal: isFinal,
            source: Self.describe(source), photoWidth: frame.width, photoHeight: frame.height,
            metrics: metrics, guidance: analysis.active, face: face, models: models)
        return try CapturedPhoto(frame: frame, report: report)
    }

    public func startValidation(of photo: CapturedPhoto, request: ValidationRequest) {
        worker.start(photo: photo, request: request)
    }

    public func cancelValidation() { worker.cancel() }

    /// The outcomes that arrived, without blocking.
    public func outcomes() -> [ValidationOutcome] { worker.drain() }

    /// Writes the photo and its report, with the verdict when there is one.
    public func save(_ photo: CapturedPhoto, verdict: ValidationVerdict?) throws(OutputFileError) -> SavedPhoto {
        let report = verdict.map { photo.report.with(verdict: $0, by: validator) } ?? photo.report
        return try store.save(jpeg: photo.jpeg, report: report.jsonBytes())
    }

    /// Writes them into `directory` instead (made 0700 when missing), and every later photo too: the folder the
    /// person typed after the first could not be written.
    public func save(
        _ photo: CapturedPhoto, verdict: ValidationVerdict?,
        in directory: String
    ) throws(OutputFileError) -> SavedPhoto {
        let other = PhotoStore(directory: directory)
        try other.prepare()
        store = other
        return try save(photo, verdict: verdict)
    }

    public func shutdown() {
        worker.shutdown()
        serverCheck?.shutdown()
    }

    private static func describe(_ source: FrameSource?) -> PhotoReport.Source {
        if let clip = source as? ClipSource { return .clip(path: clip.path) }
        if let camera = source as? Camera {
            return .camera(
                device: camera.path, width: camera.width, height: camera.height,
                frameRate: camera.frameRate, pixelFormat: camera.format.rawValue)
        }
        return .camera(
            device: source?.label ?? "", width: source?.width ?? 0, height: source?.height ?? 0,
            frameRate: source?.frameRate, pixelFormat: source?.format.rawValue)
    }
}
