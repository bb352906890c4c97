/// facecap's exit codes: the contract scripts rely on (README, "Exit codes").
public enum ExitCode: Int32, Sendable, Error {
    /// The photo was accepted.
    case success = 0
    /// Any error not covered below.
    case failure = 1
    /// Validation failed on every attempt; the photo was submitted for manual review.
    case manualReview = 3
    /// A bad command line (sysexits EX_USAGE).
    case usage = 64
    /// An input file is missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// No camera (EX_UNAVAILABLE).
    case noCamera = 69
    /// The validation server could not be reached and the user quit (EX_TEMPFAIL).
    case serverUnreachable = 75
    /// The camera could not be opened for lack of permission (EX_NOPERM).
    case permissionDenied = 77
    /// The user cancelled (q, Ctrl-C).
    case cancelled = 130
}
