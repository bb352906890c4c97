/// Why a validation server could not be reached or gave no usable answer, as values: the screens word them
/// (Screens/ConnectionFailure+Words.swift) in the chosen language. No attempt is used up by any of them; the
/// photo is sent again later.
public enum ConnectionFailure: Sendable, Hashable {
    /// The transfer was stopped (the person quit, or a newer request replaced it).
    case cancelled
    /// The reply was larger than facecap reads (`limit` as shown, e.g. "1 MB").
    case replyTooLarge(limit: String)
    /// The server's name did not resolve.
    case dns(host: String)
    /// The proxy's name did not resolve.
    case proxyDNS(detail: String)
    /// ECONNREFUSED at `place` ("host:port").
    case refused(place: String)
    /// ENETUNREACH or EHOSTUNREACH.
    case noRoute(place: String)
    /// Another failure to connect; `detail` is the HTTP library's text.
    case cannotConnect(place: String, detail: String)
    /// No connection within the connect timeout.
    case connectTimeout(place: String, seconds: Double)
    /// Connected, but the whole exchange took longer than the total timeout.
    case timedOut(seconds: Double)
    /// The server's certificate could not be verified.
    case certificate(host: String, detail: String)
    /// The TLS handshake failed.
    case tls(host: String, detail: String)
    /// ECONNRESET.
    case reset(place: String)
    /// Another send or receive failure.
    case broke(place: String, detail: String)
    /// The server closed the connection without a reply.
    case noReply(place: String)
    /// The reply stopped before its end.
    case cutShort(place: String)
    /// Any other transfer failure, with the HTTP library's text.
    case failed(place: String, detail: String)
    /// A 200 whose body is not the contract's JSON; `problem` says what is wrong with it.
    case notContract(problem: String)
    /// HTTP 429.
    case busy
    /// HTTP 5xx, with the server's own short text when it sent one (shown as sent).
    case serverError(status: Int, message: String?)
    /// A status the contract does not use (1xx, 204, …).
    case unexpectedStatus(Int)
    /// The request body could not be made (no multipart boundary absent from the photo).
    case cannotBuildUpload
    /// The HTTP library could not start a transfer.
    case cannotStart
}
