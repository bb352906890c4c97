/// The one line for standard error on the way out (`WizardEffect.report`), as a value: the flow says which line
/// and with what, the Screens layer words it in the current language (Screens/ReportLine+Words.swift).
public indirect enum ReportLine: Sendable, Hashable {
    /// Left before any photo was kept.
    case cancelled
    /// The photo passed and was written there.
    case saved(path: String)
    /// The last attempt failed (or the checker asked for a person): written there for manual review.
    case manualReview(path: String)
    /// Written unvalidated before the end; `why` first (the server's refusal), when there is one.
    case notValidated(path: String, why: ReportLine?)
    /// The photo could not be written, for `reason`; `why` first, when there is one.
    case notSaved(reason: String, why: ReportLine?)
    /// q on Could not save the photo: the photo is lost.
    case notSavedQuit(reason: String)
    /// The server refused the photo for good; `status` 0 when it was not an HTTP status.
    case refused(status: Int, message: String)
    /// The pre-flight did not answer ready.
    case serverCheck(ServerCheckProblem)
    /// The camera cannot be used or was lost: its one-line message; `advice`: with the fix a screen would have
    /// shown (plain mode shows none), for a camera that has one.
    case camera(CameraProblem, advice: Bool)
}
