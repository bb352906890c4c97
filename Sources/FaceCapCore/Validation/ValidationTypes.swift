/// The seam between the flow and whatever checks a photo (the built-in validator or a server).
///
/// The flow asks with a `ValidationRequest`; the checker answers, off the UI thread, with
/// `ValidationOutcome`s: any number of `.progress`, then exactly one of the others.

/// What the checker decided.
public enum ValidationResult: String, Sendable, Hashable, Codable {
    case pass
    case retry
    case manualReview
}

/// A checker's answer to one photo (README, "Validation server contract").
public struct ValidationVerdict: Sendable, Hashable {
    public var result: ValidationResult
    /// Reason codes: guidance codes (`tooDark`, `eyesClosed`, …) or the validator's own; the Retry screen
    /// turns each into advice.
    public var reasons: [String]
    /// Optional text from the checker, shown as it is.
    public var message: String?

    public init(result: ValidationResult, reasons: [String] = [], message: String? = nil) {
        self.result = result
        self.reasons = reasons
        self.message = message
    }
}

/// One validation of the kept photo.
public struct ValidationRequest: Sendable, Hashable {
    /// 1-based attempt number (a re-send after a connection error keeps its number).
    public var attempt: Int
    /// The last attempt: a failure now means manual review (`X-Facecap-Final: true`).
    public var isFinal: Bool

    public init(attempt: Int, isFinal: Bool) {
        self.attempt = attempt
        self.isFinal = isFinal
    }
}

/// What comes back from a checker.
public enum ValidationOutcome: Sendable, Hashable {
    /// 0...1 of the work done (bytes sent for HTTP, steps for the built-in validator).
    case progress(Double)
    /// A verdict: pass, retry or manual review.
    case verdict(ValidationVerdict)
    /// The server could not be reached or answered with a server error (refused, DNS, TLS, timeout,
    /// reset, 5xx, 429, an unreadable reply); no attempt is used and the photo is re-sent later.
    /// `retryAfter` is the server's `Retry-After` in seconds, when it gave one.
    case unreachable(reason: ConnectionFailure, retryAfter: Double?)
    /// The server refused the request for good (a 4xx other than 429), with its message.
    case refused(status: Int, message: String)
}
