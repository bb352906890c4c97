/// What the wizard opens, as the permission screen names it.
public enum SourceName: Sendable, Equatable {
    /// The camera facecap chooses by itself (`CameraRank`, or the one chosen last with key d).
    case defaultCamera
    case camera(String)
    case clip(String)
}

/// The wizard's settings, from the command line.
public struct WizardSettings: Sendable, Equatable {
    /// Validation attempts before the photo goes to manual review.
    public var attempts = 3
    /// Show the tutorial and the camera-permission context screen first.
    public var showTutorial = true
    /// `--plain`: nothing waits for Enter; screens that would wait move on by themselves or end the program.
    public var plain = false
    /// Seconds of capture before manual capture is offered (shown as a countdown; the analyzer decides).
    public var manualAfter = 30.0
    /// Success moves on by itself after this many seconds.
    public var successDelay = 3.0
    /// Final error moves on by itself after this many seconds.
    public var finalErrorDelay = 5.0
    /// In plain mode Retry returns to capture after this many seconds.
    public var plainRetryDelay = 2.0
    /// Smaller terminals get the "terminal too small" screen.
    public var minimumColumns = 60
    public var minimumRows = 20
    /// Waits between automatic retries (camera reopen, server re-send).
    public var backoff = Backoff()
    /// Seconds without a new analysed frame before the capture screen says it is waiting for the camera (the
    /// picture froze); the camera layer gives up after 5 s (a connection error).
    public var staleFrameAfter = 1.0
    /// Validation goes to a server (the Uploading screen counts bytes) rather than the built-in validator.
    public var usesServer = false
    /// The server's time-out for one photo, sent and answered (HTTPValidator's `totalTimeout`), in seconds: the
    /// Uploading screen says it while it waits for the answer.
    public var serverTimeout = 30.0
    /// The Uploading screen stays up at least this long, so that a check done in 30 ms does not flash by; an
    /// answer that comes sooner is acted on then. Plain mode waits for nobody.
    public var minimumCheckingDisplay = 1.0
    /// The source is a replayed clip: there is no other device to switch to.
    public var sourceIsClip = false
    /// For the screens' text: what is opened (the first camera, a named one, a clip), where photos go, and the
    /// server (nil: the built-in validator).
    public var source = SourceName.defaultCamera
    public var outputDirectory = "facecap-out"
    public var serverURL: String?
    /// Ask the server before the camera opens (`checkServer`); the command line sets it with `--server`.
    public var checkServer = false
    /// `FACECAP_TOKEN` is set: a 401 means the token was refused, not missing.
    public var sendsToken = false

    public init() {}
}
