// swift-format-ignore-file
// Generated from MessageID+Screens.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+Screens.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// Continuing in {seconds} s
    public static func countdownContinuing(seconds: String) -> String {
        Self.text(.countdownContinuing, ["seconds": seconds])
    }

    /// Back to the camera in {seconds} s
    public static func countdownBackToCamera(seconds: String) -> String {
        Self.text(.countdownBackToCamera, ["seconds": seconds])
    }

    /// Looking again in {seconds} s
    public static func countdownLookingAgain(seconds: String) -> String {
        Self.text(.countdownLookingAgain, ["seconds": seconds])
    }

    /// Sending again in {seconds} s
    public static func countdownSendingAgainIn(seconds: String) -> String {
        Self.text(.countdownSendingAgainIn, ["seconds": seconds])
    }

    /// Manual capture in {seconds} s
    public static func countdownManualIn(seconds: String) -> String {
        Self.text(.countdownManualIn, ["seconds": seconds])
    }

    /// No new picture for {seconds} s
    public static func countdownNoNewPicture(seconds: String) -> String {
        Self.text(.countdownNoNewPicture, ["seconds": seconds])
    }

    /// Waiting for the camera: no new picture for {seconds} s
    public static func countdownWaitingNoPicture(seconds: String) -> String {
        Self.text(.countdownWaitingNoPicture, ["seconds": seconds])
    }

    /// {percent} %
    public static func progressPercent(percent: String) -> String { Self.text(.progressPercent, ["percent": percent]) }

    /// facecap needs at least {minColumns}×{minRows} characters; this terminal is {columns}×{rows}.
    public static func tooSmallNeeds(minColumns: String, minRows: String, columns: String, rows: String) -> String {
        Self.text(.tooSmallNeeds, ["minColumns": minColumns, "minRows": minRows, "columns": columns, "rows": rows])
    }

    /// facecap will turn on the camera {path} to take one photo of your face.
    public static func contextTurnOnCamera(path: String) -> String { Self.text(.contextTurnOnCamera, ["path": path]) }

    /// facecap will replay the clip {path} to take one photo of your face.
    public static func contextReplayClip(path: String) -> String { Self.text(.contextReplayClip, ["path": path]) }

    /// Only the final photo is kept, in {directory}, and sent to {server} to be checked.
    public static func contextKeptServer(directory: String, server: String) -> String {
        Self.text(.contextKeptServer, ["directory": directory, "server": server])
    }

    /// Only the final photo is kept, in {directory}, and checked on this machine.
    public static func contextKeptLocal(directory: String) -> String {
        Self.text(.contextKeptLocal, ["directory": directory])
    }

    /// Auto capture did not finish in {seconds} s.
    public static func manualTimeout(seconds: String) -> String { Self.text(.manualTimeout, ["seconds": seconds]) }

    /// Attempt {attempt} of {attempts}
    public static func checkingAttempt(attempt: String, attempts: String) -> String {
        Self.text(.checkingAttempt, ["attempt": attempt, "attempts": attempts])
    }

    /// Waiting for the answer: {seconds} s (time-out {timeout} s)
    public static func checkingWaitServer(seconds: String, timeout: String) -> String {
        Self.text(.checkingWaitServer, ["seconds": seconds, "timeout": timeout])
    }

    /// Checking on this machine: {seconds} s
    public static func checkingWaitLocal(seconds: String) -> String {
        Self.text(.checkingWaitLocal, ["seconds": seconds])
    }

    /// Saved to {path}
    public static func successSavedTo(path: String) -> String { Self.text(.successSavedTo, ["path": path]) }

    /// Report: {path}
    public static func successReport(path: String) -> String { Self.text(.successReport, ["path": path]) }

    /// {count} attempt left
    public static func retryAttemptsLeft(count: Int) -> String { Self.text(.retryAttemptsLeft, count: count) }

    /// The photo did not pass the automatic check after {count} attempt.
    public static func finalNotPassed(count: Int) -> String { Self.text(.finalNotPassed, count: count) }

    /// Your photo is kept and will be sent again as attempt {attempt}; no attempt is used up.
    public static func unreachableKept(attempt: String) -> String { Self.text(.unreachableKept, ["attempt": attempt]) }

    /// HTTP {status}: {message}
    public static func refusedHTTP(status: String, message: String) -> String {
        Self.text(.refusedHTTP, ["status": status, "message": message])
    }

    /// Directions are your own, as in a mirror: "{moveLeft}" means to your left.
    public static func helpMirror(moveLeft: String) -> String { Self.text(.helpMirror, ["moveLeft": moveLeft]) }

    /// (also: {hints})
    public static func plainAlso(hints: String) -> String { Self.text(.plainAlso, ["hints": hints]) }
}
