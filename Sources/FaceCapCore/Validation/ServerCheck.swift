/// What the pre-flight request found (README "Validation server contract": `OPTIONS URL` with the upload's
/// `Authorization` and `User-Agent`, sent before the camera opens), so that a wrong address or token is found
/// before the person takes a selfie.
public enum ServerCheck: Sendable, Hashable {
    /// The server answered as a validation endpoint does: reachable, TLS verified, the token not refused.
    case ready
    /// No usable answer: the server could not be reached (refused, DNS, TLS, time-out, reset) or it answered
    /// with a server error (5xx). Waiting may help; a photo taken anyway is kept and sent once it answers.
    case unreachable(ConnectionFailure)
    /// The server answered that an upload will not be accepted as it is: 401 or 403 (the token), 404 (the
    /// address), another 4xx, or a redirect; `message` is the server's own text, empty when it sent none (the
    /// screen then says the status and what to check, once).
    case refused(status: Int, message: String)
}

/// A pre-flight that did not answer ready: what is kept until the camera is asked for, and what the failure
/// screen names. `ready` is not one, so a kept answer cannot be a ready one (that clears the pre-flight).
public enum ServerCheckProblem: Sendable, Hashable {
    /// As `ServerCheck.unreachable`.
    case unreachable(ConnectionFailure)
    /// As `ServerCheck.refused`.
    case refused(status: Int, message: String)
}

extension ServerCheck {
    /// What was wrong, nil for `ready`.
    public var problem: ServerCheckProblem? {
        switch self {
        case .ready: return nil
        case .unreachable(let reason): return .unreachable(reason)
        case .refused(let status, let message): return .refused(status: status, message: message)
        }
    }
}

extension ServerReply {
    /// The pre-flight's answer. 2xx: ready. 405 and 501 (a server that answers only the contract's POST) and 429
    /// (busy now) also prove the endpoint is there, so they count as ready; the upload's own rules then apply.
    /// 5xx: a server error; 401/403/404, the other 4xx and 3xx: refused.
    public static func preflight(status: Int, body: [UInt8]) -> ServerCheck {
        switch status {
        case 200...299, 405, 429, 501:
            return .ready
        case 500...599:
            return .unreachable(.serverError(status: status, message: serverText(body)))
        case 300...399:
            return .refused(status: status, message: "")
        case 400...499:
            return .refused(status: status, message: serverText(body) ?? "")
        default:
            return .unreachable(.unexpectedStatus(status))
        }
    }
}
