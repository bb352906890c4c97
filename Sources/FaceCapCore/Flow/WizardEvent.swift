/// How a photo was taken.
public enum CaptureMode: String, Sendable, Hashable, Codable {
    /// The analyzer's stability window completed.
    case auto
    /// The person pressed SPACE once manual capture was offered.
    case manual
}

/// Why the camera cannot be used, as the flow needs it: which screen, what to say, how to end.
///
/// Made from the camera layer's `CameraError` (Screens/CameraProblem+Camera.swift words it), so the flow stays
/// free of device calls.
public struct CameraProblem: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// EACCES/EPERM on open: the Permission denied screen.
        case permissionDenied
        /// No capture node, or the path is not one.
        case noCamera
        /// Another program streams from it.
        case busy
        /// It was streaming and stopped: unplugged, stalled, failing, or a replayed clip that ended.
        case lost
    }

    public var kind: Kind
    /// The camera layer's one-line message, which already names the fix.
    public var message: String
    /// Further lines for the screen (owner and group, your groups, commands to run, who holds the device).
    public var details: [String]
    /// The exit code when the person gives up on this screen.
    public var exitCode: ExitCode
    /// False when waiting cannot help (a replayed clip that ended): no automatic retry.
    public var recoverable: Bool
    /// The camera layer's error, when a camera (not a clip) failed.
    public var error: CameraError?

    public init(
        kind: Kind, message: String, details: [String] = [], exitCode: ExitCode, recoverable: Bool = true,
        error: CameraError? = nil
    ) {
        self.kind = kind
        self.message = message
        self.details = details
        self.exitCode = exitCode
        self.recoverable = recoverable
        self.error = error
    }
}

/// What the analyzer said about one frame, as far as the flow cares.
public struct FrameGuidance: Sendable, Hashable {
    /// Frame time in seconds (the analyzer's clock: camera timestamps or clip time).
    public var time: Double
    public var primary: GuidanceCode
    public var hints: [GuidanceCode]
    /// Codes only just past their limit, shown with their gentler words (`AnalyzerOutput.slight`).
    public var slight: Set<GuidanceCode>
    /// 0...1: how much of the stability window `ready` has held.
    public var stability: Double
    /// A face was found in this frame.
    public var hasFace: Bool
    /// The stability window completed on this frame: take the photo (the sharpest frame kept).
    public var autoCapture: Bool
    /// Set once manual capture should be offered.
    public var manualFallback: ManualFallbackReason?

    public init(
        time: Double, primary: GuidanceCode, hints: [GuidanceCode] = [], stability: Double = 0,
        hasFace: Bool = true, autoCapture: Bool = false, manualFallback: ManualFallbackReason? = nil,
        slight: Set<GuidanceCode> = []
    ) {
        self.time = time
        self.primary = primary
        self.hints = hints
        self.slight = slight
        self.stability = stability
        self.hasFace = hasFace
        self.autoCapture = autoCapture
        self.manualFallback = manualFallback
    }

    /// The flow's view of the analyzer's output for one frame.
    public init(_ output: AnalyzerOutput) {
        self.init(
            time: output.metrics.timestamp, primary: output.primary, hints: output.hints,
            stability: output.stability, hasFace: output.metrics.face != nil,
            autoCapture: output.capture != nil, manualFallback: output.manualFallback, slight: output.slight)
    }
}

/// Where a saved photo and its report went.
public struct SavedPhoto: Sendable, Hashable {
    public var photoPath: String
    public var reportPath: String

    public init(photoPath: String, reportPath: String) {
        self.photoPath = photoPath
        self.reportPath = reportPath
    }
}

/// Everything that can happen to the wizard. Time arrives with each event (`Wizard.handle(_:at:)`).
public enum WizardEvent: Sendable, Equatable {
    /// The program started.
    case start
    case key(Key)
    /// Time passed (the run loop sends this at least every few hundred milliseconds).
    case tick
    case resized(columns: Int, rows: Int)
    /// The camera (or clip) opened after `openCamera`.
    case cameraOpened
    /// `openCamera` failed.
    case cameraFailed(CameraProblem)
    /// A streaming camera stopped delivering frames, or a clip ended.
    case cameraLost(CameraProblem)
    case frameAnalyzed(FrameGuidance)
    /// The photo asked for by `takePhoto` is encoded and held in memory.
    case photoTaken(mode: CaptureMode, width: Int, height: Int)
    /// The photo could not be taken (no frame yet for a manual capture, or it would not encode): capture goes on.
    case photoFailed
    case validation(ValidationOutcome)
    case photoSaved(SavedPhoto)
    case saveFailed(message: String)
    /// A signal that ends the program (SIGINT, SIGTERM, SIGHUP, SIGQUIT; or nobody reads the output any more):
    /// each ends the same way, exit 130 after what the state keeps or says on the way out.
    case stop
    /// The capture devices `listCameras` found, as `facecap devices` lists them.
    case camerasListed([CameraChoice])
    /// The pre-flight asked for by `checkServer` answered.
    case serverChecked(ServerCheck)
}

/// What the wizard asks its run loop to do. The run loop answers with events.
public enum WizardEffect: Sendable, Equatable {
    /// Open the camera or clip; answer `cameraOpened` or `cameraFailed`.
    case openCamera
    /// List the capture devices (key d); answer `camerasListed`.
    case listCameras
    /// Use this device for the next `openCamera`.
    case chooseCamera(String)
    case closeCamera
    /// Start a fresh analysis: reset the analyzer and tracker, then send `frameAnalyzed` per frame. The gate
    /// is what the last refusal asks of the capture (`Analyzer.reset(mustClear:awaitChange:)`).
    case startAnalysis(CaptureGate)
    /// Stop sending frames (capture is over or paused).
    case stopAnalysis
    /// Encode the frame to keep (auto: the one the analyzer kept; manual: the latest) at full resolution;
    /// answer `photoTaken` or `photoFailed`.
    case takePhoto(CaptureMode)
    /// Check the kept photo; answer with `validation` events.
    case validate(ValidationRequest)
    /// Abandon a validation in flight.
    case cancelValidation
    /// Write the kept photo and its report (with the verdict, when there is one); answer `photoSaved` or
    /// `saveFailed`.
    case save(ValidationVerdict?)
    /// Write the kept photo and its report into `directory` (made 0700 if missing), there from now on; answer
    /// `photoSaved` or `saveFailed`.
    case saveIn(directory: String, verdict: ValidationVerdict?)
    /// Forget the kept photo (it failed validation; a new one will be taken).
    case discardPhoto
    /// Write an event record (JSON Lines) and, in plain mode, what it says.
    case emit(EventRecord)
    /// Print a line for people on standard error after the front end is closed (e.g. where the photo is); the
    /// Screens layer words it (`ReportLine.text`).
    case report(ReportLine)
    case exit(ExitCode)
    /// Ask the validation server whether an upload would get through (the pre-flight); answer `serverChecked`.
    case checkServer
}

/// One line of the `--events` stream (README, "Events"); `t` is added by the writer.
public enum EventRecord: Sendable, Equatable {
    case screen(ScreenName)
    /// `slight`: those of `primary` and `hints` said with their graded words ("A little to the left"), in the
    /// same order, so a script following the words knows a direction is nearly met.
    case guidance(primary: GuidanceCode, hints: [GuidanceCode], slight: [GuidanceCode] = [])
    case captured(mode: CaptureMode, attempt: Int, width: Int, height: Int)
    case validation(result: ValidationResult, reasons: [String], attemptsLeft: Int)
    case saved(SavedPhoto)
    case exit(ExitCode)

    /// The JSON object, with `t` (seconds since start) first.
    public func json(t: Double) -> String {
        var fields: [(String, String)] = [("t", JSONText.number(t, decimals: 3))]
        switch self {
        case .screen(let name):
            fields += [("event", JSONText.string("screen")), ("screen", JSONText.string(name.rawValue))]
        case .guidance(let primary, let hints, let slight):
            fields += [
                ("event", JSONText.string("guidance")), ("primary", JSONText.string(primary.rawValue)),
                ("hints", JSONText.array(hints.map { JSONText.string($0.rawValue) })),
                ("slight", JSONText.array(slight.map { JSONText.string($0.rawValue) })),
            ]
        case .captured(let mode, let attempt, let width, let height):
            fields += [
                ("event", JSONText.string("captured")), ("mode", JSONText.string(mode.rawValue)),
                ("attempt", String(attempt)), ("width", String(width)), ("height", String(height)),
            ]
        case .validation(let result, let reasons, let attemptsLeft):
            fields += [
                ("event", JSONText.string("validation")), ("result", JSONText.string(result.rawValue)),
                ("reasons", JSONText.array(reasons.map(JSONText.string))),
                ("attemptsLeft", String(attemptsLeft)),
            ]
        case .saved(let saved):
            fields += [
                ("event", JSONText.string("saved")), ("photo", JSONText.string(saved.photoPath)),
                ("report", JSONText.string(saved.reportPath)),
            ]
        case .exit(let code):
            fields += [("event", JSONText.string("exit")), ("code", String(code.rawValue))]
        }
        return JSONText.object(fields)
    }
}
