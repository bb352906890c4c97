/// The screens of the capture flow. The raw values are the `screen` event's values (README, "Events"); the order
/// is the README's screen table's (`facecap generate screens`). The state says which one it shows
/// (`Wizard.stateName`, an exhaustive switch), and the README's table what each is for (`ScreenTable.row`, another).
public enum ScreenName: String, Sendable, Equatable, CaseIterable, Codable {
    case tutorial
    case permissionContext
    case permissionDismissed
    case permissionDenied
    case noCamera
    case cameraBusy
    case capture
    case manualCapture
    case uploading
    case success
    case retry
    case finalError
    case connectionError
    /// The photo could not be written (directory missing or read-only, disk full); it is kept in memory.
    case saveFailed
    case terminalTooSmall

    /// The capture screen, live or with manual capture offered: `--plain` says it without its title and a hint
    /// alone does not make a new line there, and the `?` help over it pauses the capture. Exhaustive, with no
    /// `default:`: a new screen says here whether it is one.
    public var isCapture: Bool {
        switch self {
        case .capture, .manualCapture:
            return true
        case .tutorial, .permissionContext, .permissionDismissed, .permissionDenied, .noCamera, .cameraBusy, .uploading,
            .success, .retry, .finalError, .connectionError, .saveFailed, .terminalTooSmall:
            return false
        }
    }
}

/// How the oval guide over the preview is coloured.
public enum OvalState: String, Sendable, Equatable {
    /// No usable face yet.
    case searching
    /// A face, with something to fix.
    case adjusting
    /// Everything is right; the stability window is filling.
    case ready
    /// The photo is being taken.
    case capturing
}

/// The overall feeling of a screen, for its title colour.
public enum ScreenTone: String, Sendable, Equatable {
    case neutral, good, warning, error
}

/// One key and what it does, for the key-help line ("SPACE take photo").
public struct KeyHelp: Equatable, Sendable {
    public var key: String
    public var action: String

    public init(_ key: String, _ action: String) {
        self.key = key
        self.action = action
    }
}

/// A progress bar: how far, and what it measures ("Uploading 120 of 340 kB", "Stability").
public struct ScreenProgress: Equatable, Sendable {
    /// 0...1.
    public var fraction: Double
    public var label: String

    public init(fraction: Double, label: String) {
        self.fraction = fraction
        self.label = label
    }
}

/// The picture a screen shows; the front end supplies the pixels (the latest frame, the photo taken).
public enum ScreenPicture: Equatable, Sendable {
    /// The live camera preview with the oval guide; `stability` (0...1) fills the progress indicator.
    case livePreview(oval: OvalState, stability: Double)
    /// A small preview of the photo that was taken.
    case photo
    /// The tutorial's drawing of a face in an oval, drawn by the front end.
    case tutorialIllustration
}

/// Everything one screen shows, as data. Both front ends (full-screen and `--plain`) render this, so
/// they cannot drift apart; the flow builds it from its state and never draws.
public struct ScreenModel: Equatable, Sendable {
    public var name: ScreenName
    /// One short line, e.g. "Selfie accepted".
    public var title: String
    public var tone: ScreenTone
    public var picture: ScreenPicture?
    /// The main message, large and central (the guidance on the capture screens).
    public var primary: String?
    /// Up to two further messages, smaller.
    public var hints: [String]
    /// Body text, one entry per line or paragraph (tips, what happened, what to do). An entry that starts
    /// with "$ " is a command to show verbatim.
    public var lines: [String]
    public var progress: ScreenProgress?
    /// A countdown line, e.g. "Manual capture in 12 s", "Continuing in 3 s", "Next try in 4 s".
    public var countdown: String?
    /// A sign of life before the countdown line while something is awaited (the Uploading screen waiting for
    /// the answer): the step of a spinner the front end draws, advancing with time; nil for none.
    public var spinner: Int?
    public var keys: [KeyHelp]
    /// The `?` help overlay is open: draw `helpLines` over the screen.
    public var showsHelp: Bool
    public var helpLines: [String]
    /// On the capture screen, the guidance code `primary` says (nil elsewhere): `--plain` speaks a word that
    /// stops or turns the person at once (`PlainAnnouncer`).
    public var guidance: GuidanceCode?

    public init(
        name: ScreenName, title: String, tone: ScreenTone = .neutral, picture: ScreenPicture? = nil,
        primary: String? = nil, hints: [String] = [], lines: [String] = [],
        progress: ScreenProgress? = nil, countdown: String? = nil, spinner: Int? = nil, keys: [KeyHelp] = [],
        showsHelp: Bool = false, helpLines: [String] = []
    ) {
        self.name = name
        self.title = title
        self.tone = tone
        self.picture = picture
        self.primary = primary
        self.hints = hints
        self.lines = lines
        self.progress = progress
        self.countdown = countdown
        self.spinner = spinner
        self.keys = keys
        self.showsHelp = showsHelp
        self.helpLines = helpLines
    }
}
