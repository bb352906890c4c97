// swift-format-ignore-file
// Generated from MessageID+Guidance.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+Guidance.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// photo saved: {path}
    public static func reportSaved(path: String) -> String { Self.text(.reportSaved, ["path": path]) }

    /// photo submitted for manual review, saved: {path}
    public static func reportManualReview(path: String) -> String { Self.text(.reportManualReview, ["path": path]) }

    /// the photo was not validated and is saved in {path}
    public static func reportNotValidated(path: String) -> String { Self.text(.reportNotValidated, ["path": path]) }

    /// the photo could not be saved: {reason}
    public static func reportNotSaved(reason: String) -> String { Self.text(.reportNotSaved, ["reason": reason]) }

    /// the photo was not saved: {reason}
    public static func reportNotSavedQuit(reason: String) -> String {
        Self.text(.reportNotSavedQuit, ["reason": reason])
    }

    /// the server refused the photo: {message}
    public static func reportRefused(message: String) -> String { Self.text(.reportRefused, ["message": message]) }

    /// the server refused the photo (HTTP {status}): {message}
    public static func reportRefusedHTTP(status: String, message: String) -> String {
        Self.text(.reportRefusedHTTP, ["status": status, "message": message])
    }

    /// warning: {message}
    public static func warningPrefix(message: String) -> String { Self.text(.warningPrefix, ["message": message]) }
}
