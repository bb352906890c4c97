extension Wizard {
    /// Where the flow is. All state that means something only in one place lives in that case's struct, so it
    /// cannot be read where it means nothing (swift-nio-http2's connection state machine does the same).
    public enum State: Sendable, Hashable {
        case notStarted
        case tutorial(Intro)
        case permissionContext(Intro)
        /// The person declined the context screen.
        case permissionDismissed
        /// Key d: the capture devices to choose from (or that there is no other one).
        case choosingCamera(CameraPicker)
        /// The camera waits for the pre-flight's answer (`serverChecked`).
        case checkingServer
        /// The pre-flight did not answer ready: what it found, retry, take the photo anyway (when that can
        /// help), quit.
        case serverCheckFailed(ServerCheckTrouble)
        /// The camera is being opened for capture (first time, or after Retry); `cameraOpened` or
        /// `cameraFailed` answers.
        case opening
        /// The camera cannot be opened: permission denied, no camera, busy.
        case cameraUnavailable(CameraLink)
        case capture(CaptureProgress)
        /// `takePhoto` was asked for.
        case taking(Taking)
        /// The kept photo is being checked (the Uploading screen).
        case validating(Check)
        /// The photo and its report are being written.
        case saving(Saving)
        case success(Ending)
        /// Validation asked for another photo.
        case retry(Retry)
        case finalError(Ending)
        /// The camera stopped delivering frames; reopened with backoff when `problem.recoverable`.
        case cameraLost(CameraLink)
        /// The server could not be reached; the same photo is re-sent (same attempt) at `nextTry`.
        case serverUnreachable(ServerTrouble)
        /// The server refused the photo for good (a 4xx other than 429); only the person can retry.
        case serverRefused(Refusal)
        /// The photo could not be written; it is kept in memory and written again on `r`.
        case saveFailed(SaveFailure)
        case finished(ExitCode)
    }

    /// The tutorial and the context screen. `until`: plain mode moves on by itself then.
    public struct Intro: Sendable, Hashable {
        public var until: Double?
    }

    /// A camera that cannot be used (not there, busy, refused) or was lost, and the retries.
    public struct CameraLink: Sendable, Hashable {
        public var problem: CameraProblem
        public var retryStep: Int
        /// The automatic retry, when there is one.
        public var nextTry: Double?
        /// An `openCamera` is outstanding: `cameraOpened`/`cameraFailed` answer it.
        public var awaitingAnswer = false
    }

    /// The live part of the capture screen.
    public struct CaptureProgress: Sendable, Hashable {
        /// Time of the first analysed frame (the analyzer's clock), for the manual-capture countdown.
        public var firstFrameTime: Double?
        public var latest: FrameGuidance?
        /// Set once manual capture is offered, with why auto capture did not finish.
        public var manualOffered: ManualFallbackReason?
        /// When the last frame was analysed (the flow's clock): the picture is stale some time after.
        public var lastFrameAt: Double?

        public init() {}
    }

    public struct Taking: Sendable, Hashable {
        public var mode: CaptureMode
        public var manualOffered: ManualFallbackReason?
    }

    public struct Check: Sendable, Hashable {
        public var request: ValidationRequest
        /// When the check began (the flow's clock): the screen counts the seconds from it.
        public var startedAt: Double
        /// 0...1.
        public var progress = 0.0
        /// An answer that came before the screen had been up `minimumCheckingDisplay`: acted on then.
        public var held: ValidationOutcome?
    }

    /// Where the flow goes once the photo is written.
    public enum AfterSave: Sendable, Hashable {
        case success
        case finalError
        case exit(ExitCode)
    }

    public struct Saving: Sendable, Hashable {
        public var verdict: ValidationVerdict?
        public var then: AfterSave
        /// Why the program ends after the save (the server's refusal), the first clause of the line on standard
        /// error, before where the photo went.
        public var why: ReportLine? = nil
    }

    /// Success and Final error: the photo written, the screen moving on by itself at `until`.
    public struct Ending: Sendable, Hashable {
        public var saved: SavedPhoto
        public var until: Double
    }

    public struct Retry: Sendable, Hashable {
        public var verdict: ValidationVerdict
        public var attemptsLeft: Int
        /// Plain mode goes back to capture by itself then.
        public var until: Double?
    }

    public struct ServerTrouble: Sendable, Hashable {
        public var reason: ConnectionFailure
        public var request: ValidationRequest
        public var retryStep: Int
        public var nextTry: Double
        /// The photo is being sent again now.
        public var sending = false
        public var progress = 0.0
    }

    public struct Refusal: Sendable, Hashable {
        public var status: Int
        public var message: String
        public var request: ValidationRequest
        public var sending = false
    }

    public struct SaveFailure: Sendable, Hashable {
        public var message: String
        public var verdict: ValidationVerdict?
        public var then: AfterSave
        /// The folder being typed (key o), nil when none is; every key but Enter, Esc and Backspace types.
        public var folder: String?
    }

    /// The verdicts since the last pass, kept together because a verdict sets both: a pass opens the gate and
    /// gives the attempts back, a refusal uses one and sets the gate for every capture until the next verdict.
    public struct Attempts: Sendable, Hashable {
        /// Validation verdicts received for photos since the last pass.
        public internal(set) var used = 0
        /// What the last refusal asks of every capture until the next verdict; open after a pass.
        public internal(set) var gate = CaptureGate()
    }

    /// The `?` help, open over a screen: it closes when the screen changes, and a capture it paused starts over.
    public struct HelpOverlay: Sendable, Hashable {
        public var over: ScreenName
    }

    /// The terminal's size in cells.
    public struct TerminalSize: Sendable, Hashable {
        public var columns: Int
        public var rows: Int
    }

    /// What the flow has said, so that each thing is said once: a screen or guidance again only when it changes,
    /// the line for standard error once on every way out.
    public struct Announced: Sendable, Hashable {
        /// The last screen announced with a `screen` event.
        public internal(set) var screen: ScreenName?
        /// The guidance last announced with a `guidance` event; nil while none was for this capture.
        var guidance: AnnouncedGuidance?
        /// A line for standard error was given (where the photo went, or what failed).
        var reported = false
    }

    /// The guidance last announced with a `guidance` event.
    struct AnnouncedGuidance: Sendable, Hashable {
        var primary: GuidanceCode
        var hints: [GuidanceCode]
        var slight: [GuidanceCode]
    }
}
