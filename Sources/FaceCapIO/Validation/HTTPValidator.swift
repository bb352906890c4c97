internal import CCurl
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Validation by a server (`--server URL`, README "Validation server contract"): one multipart POST per
/// check, its reply mapped by `ServerReply`.
///
/// Why libcurl directly rather than FoundationNetworking's URLSession (itself built on libcurl on Linux):
/// libcurl gives separate connect and total timeouts (URLSession has only an idle timeout and a resource
/// timeout, no connect timeout), upload progress and cancellation from one synchronous callback on the
/// calling thread (URLSession's delegate queues would have to be bridged back for Swift 6 concurrency
/// checking), the reply size capped while it arrives, and an error code plus the OS errno per failure,
/// so refused / DNS / TLS / timeout / reset can each be named. It also keeps Foundation out of the
/// binary. Debian's libcurl4-openssl verifies HTTPS against the system CA store
/// (/etc/ssl/certs/ca-certificates.crt).
public final class HTTPValidator: PhotoChecker, ServerProbe {
    /// Where and how to upload.
    public struct Configuration: Sendable {
        /// The endpoint (`--server`), already checked: http(s), plain http only to loopback unless allowed.
        public var url: String { didSet { server = try? ServerURL(url) } }
        /// `url` taken apart once (nil when it is not an http(s) URL with a host and a valid port): the host and
        /// place failures name, and whether plain http stays on this machine.
        public private(set) var server: ServerURL?
        /// Sent as `Authorization: Bearer …` when set (from `FACECAP_TOKEN`, never the command line).
        public var token: BearerToken?
        /// facecap's version, for `User-Agent: facecap/VERSION`.
        public var version: String
        /// Seconds to establish the connection (TCP and TLS).
        public var connectTimeout: Double
        /// Seconds for the whole request, upload and reply included.
        public var totalTimeout: Double
        /// Replies longer than this are cut off and treated as a server error.
        public var maxReplyBytes: Int
        /// A CA bundle to trust instead of the system store (tests with their own certificate authority).
        public var caBundlePath: String?
        /// `--insecure-http`: plain http to a host that is not this machine.
        public var allowInsecureHTTP: Bool

        public init(
            url: String, token: BearerToken?, version: String, connectTimeout: Double = 10,
            totalTimeout: Double = 30, maxReplyBytes: Int = ServerReply.maxReplyBytes,
            caBundlePath: String? = nil, allowInsecureHTTP: Bool = false
        ) {
            self.url = url
            server = try? ServerURL(url)
            self.token = token
            self.version = version
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxReplyBytes = maxReplyBytes
            self.caBundlePath = caBundlePath
            self.allowInsecureHTTP = allowInsecureHTTP
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Uploads `photo` with the contract's headers and maps the reply; connection faults come back as
    /// `.unreachable` with a reason a person can read ("connection refused by 127.0.0.1:8080").
    public func check(
        _ photo: CapturedPhoto, request: ValidationRequest, cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> ValidationOutcome {
        if let refusal = clearTextRefusal() { return .refused(status: 0, message: refusal) }
        // A boundary that happens to occur inside the photo would split it: draw again (bounded).
        var body: MultipartBody?
        for _ in 0..<8 where body == nil {
            let boundary = "facecap-" + UUIDv4.randomBytes(16).map { String($0, radix: 16) }.joined()
            body = MultipartBody.photoAndReport(jpeg: photo.jpeg, report: photo.reportJSON, boundary: boundary)
        }
        guard let body else {
            return .unreachable(reason: .cannotBuildUpload, retryAfter: nil)
        }
        var headers = [
            "Content-Type: \(body.contentType)",
            "Accept: application/json",
            "X-Facecap-Attempt: \(request.attempt)",
            "Idempotency-Key: \(photo.idempotencyKey)",
            // An empty Expect stops libcurl's "Expect: 100-continue", which waits up to a second for a
            // server that never sends the interim reply.
            "Expect:",
        ]
        if request.isFinal { headers.append("X-Facecap-Final: true") }
        if let token = configuration.token { headers.append("Authorization: Bearer \(token.value)") }
        switch exchange(body.bytes, headers: headers, cancellation: cancellation, progress: progress) {
        case .failed(let outcome):
            return outcome
        case .answered(let status, let replyHeaders, let reply):
            return ServerReply.parse(status: status, headers: replyHeaders, body: reply, now: Double(time(nil)))
        }
    }

    /// The pre-flight (README "Validation server contract"): `OPTIONS URL` with the upload's `Authorization`
    /// and `User-Agent` and no body, so that the address, the TLS certificate and the token are tried before
    /// the camera opens. A server that knows only the contract's POST answers 405, which proves as much as the
    /// address and TLS can; one that checks the token first answers 401/403 for a wrong one.
    public func preflight(cancellation: Cancellation) -> ServerCheck {
        if let refusal = clearTextRefusal() { return .refused(status: 0, message: refusal) }
        var headers = ["Accept: application/json"]
        if let token = configuration.token { headers.append("Authorization: Bearer \(token.value)") }
        switch exchange(nil, headers: headers, cancellation: cancellation, progress: { _ in }) {
        case .failed(.unreachable(let reason, _)):
            return .unreachable(reason)
        case .failed(.refused(let status, let message)):
            return .refused(status: status, message: message)
        case .failed:
            return .unreachable(.cannotStart)
        case .answered(let status, _, let reply):
            return ServerReply.preflight(status: status, body: reply)
        }
    }

    /// The command line refuses this at start-up; checked again here so that no caller can send the photo and
    /// the token in clear text across a network by mistake. Nil when the request may go.
    private func clearTextRefusal() -> String? {
        guard ServerURL.isPlainHTTP(configuration.url) else { return nil }
        // A URL the command line would refuse (a port of 99999) is no loopback address either.
        let server = configuration.server
        if server?.isLoopback == true { return nil }
        let host = server?.host ?? configuration.url
        if !configuration.allowInsecureHTTP { return Words.netPlainHTTP(host: host) }
        // --insecure-http lets the photo travel in clear text, never the token.
        if configuration.token != nil { return TokenInClearError(host: host).message }
        return nil
    }

    /// What one HTTP exchange gave: a reply, or a failure already mapped to an outcome.
    private enum Exchange {
        case answered(status: Int, headers: [(String, String)], body: [UInt8])
        case failed(ValidationOutcome)
    }

    /// One POST of `body` with `headers`, or an OPTIONS request when `body` is nil.
    private func exchange(
        _ body: [UInt8]?, headers: [String], cancellation: Cancellation,
        progress: (Double) -> Void
    ) -> Exchange {
        guard ccurl_global_init_once() == CURLE_OK, let handle = curl_easy_init() else {
            return .failed(.unreachable(reason: .cannotStart, retryAfter: nil))
        }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }

        return withoutActuallyEscaping(progress) { progress in
            let transfer = Transfer(limit: configuration.maxReplyBytes, cancellation: cancellation, progress: progress)
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            let code = (body ?? []).withUnsafeBufferPointer { bytes -> CURLcode in
                errorBuffer.withUnsafeMutableBufferPointer { errors -> CURLcode in
                    configure(
                        handle, list: list, body: body == nil ? nil : bytes, errors: errors.baseAddress!,
                        context: context)
                    return curl_easy_perform(handle)
                }
            }
            withExtendedLifetime(transfer) {}
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard code == CURLE_OK else {
                return .failed(failure(code, handle: handle, transfer: transfer, detail: detail))
            }
            var status = 0
            ccurlGetLong(handle, CURLINFO_RESPONSE_CODE, &status)
            progress(1)
            return .answered(status: status, headers: transfer.headers, body: transfer.body)
        }
    }

    /// `body` nil: an OPTIONS request without a body (the pre-flight).
    private func configure(
        _ handle: UnsafeMutableRawPointer, list: UnsafeMutablePointer<curl_slist>?,
        body: UnsafeBufferPointer<UInt8>?, errors: UnsafeMutablePointer<CChar>,
        context: UnsafeMutableRawPointer
    ) {
        let c = configuration
        ccurl_setopt_pointer(handle, CURLOPT_URL, c.url)
        // Only http(s), and never a redirect: a redirected POST could carry the token somewhere else.
        if ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK {
            // libcurl before 7.85 (Ubuntu 22.04 has 7.81) knows only the older bit mask, CURLOPT_PROTOCOLS (181,
            // deprecated by name in newer headers, hence its number): http (1) and https (2). (Only Debian's 7.88
            // and later are built against here, so this line is not run by the tests. Both are a second guard:
            // the URL's scheme is checked when the command line is read, and redirects are never followed.)
            ccurl_setopt_long(handle, CURLoption(rawValue: 181), 3)
        }
        ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        // libcurl's DNS timeouts use SIGALRM unless told not to; signals would hit the wizard's threads.
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        if let body {
            ccurl_setopt_long(handle, CURLOPT_POST, 1)
            ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress)
            ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        } else {
            ccurl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, "OPTIONS")
        }
        ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
        ccurl_setopt_pointer(handle, CURLOPT_USERAGENT, "facecap/\(c.version)")
        ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(c.connectTimeout))
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(c.totalTimeout))
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let bundle = c.caBundlePath { ccurl_setopt_pointer(handle, CURLOPT_CAINFO, bundle) }
        // A proxy from http_proxy/https_proxy is honoured, but never for this machine itself.
        ccurl_setopt_pointer(handle, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1")
        // A reply announcing more than the limit fails before its body is read (the write callback
        // stops one that does not announce its length).
        ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(c.maxReplyBytes))
        ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors)
        ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().receive(data, size * count)
        }
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().header(data, size * count)
        }
        ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        // Called at least once a second, also while connecting or stalled: where a cancel takes effect.
        ccurl_setopt_xferinfo(handle) { context, _, _, uploadTotal, uploadNow in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().tick(sent: uploadNow, of: uploadTotal)
        }
        ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
    }

    /// A failed transfer, named for a person: what failed, with which host, and for how long.
    private func failure(
        _ code: CURLcode, handle: UnsafeMutableRawPointer, transfer: Transfer,
        detail: String
    ) -> ValidationOutcome {
        let c = configuration
        let server = c.server
        let host = server?.host ?? c.url
        let place = server?.place ?? c.url
        var osError = 0
        ccurlGetLong(handle, CURLINFO_OS_ERRNO, &osError)
        func unreachable(_ failure: ConnectionFailure) -> ValidationOutcome {
            .unreachable(reason: failure, retryAfter: nil)
        }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return unreachable(.cancelled)
        case CURLE_WRITE_ERROR where transfer.oversize, CURLE_FILESIZE_EXCEEDED:
            return unreachable(.replyTooLarge(limit: Self.size(c.maxReplyBytes)))
        case CURLE_COULDNT_RESOLVE_HOST:
            return unreachable(.dns(host: host))
        case CURLE_COULDNT_RESOLVE_PROXY:
            return unreachable(.proxyDNS(detail: detail))
        case CURLE_COULDNT_CONNECT:
            switch Int32(osError) {
            case ECONNREFUSED: return unreachable(.refused(place: place))
            case ENETUNREACH, EHOSTUNREACH: return unreachable(.noRoute(place: place))
            default: return unreachable(.cannotConnect(place: place, detail: detail))
            }
        case CURLE_OPERATION_TIMEDOUT:
            var connected: curl_off_t = 0
            _ = ccurl_getinfo_off(handle, CURLINFO_CONNECT_TIME_T, &connected)
            if connected == 0 { return unreachable(.connectTimeout(place: place, seconds: c.connectTimeout)) }
            return unreachable(.timedOut(seconds: c.totalTimeout))
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return unreachable(.certificate(host: host, detail: detail))
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return unreachable(.tls(host: host, detail: detail))
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
            if Int32(osError) == ECONNRESET || detail.contains("reset") {
                return unreachable(.reset(place: place))
            }
            return unreachable(.broke(place: place, detail: detail))
        case CURLE_GOT_NOTHING:
            return unreachable(.noReply(place: place))
        case CURLE_PARTIAL_FILE:
            return unreachable(.cutShort(place: place))
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            // Not a connection problem: retrying the same address cannot help.
            return .refused(status: 0, message: Words.text(.netBadAddress))
        default:
            let name = String(cString: curl_easy_strerror(code))
            return unreachable(.failed(place: place, detail: detail.isEmpty ? name : detail))
        }
    }

    /// localhost, ::1 or a numeric 127.x.y.z (a name such as "127.example.org" is not loopback).
    static func isLoopback(_ host: String) -> Bool { isLoopbackHost(host) }

    private func milliseconds(_ seconds: Double) -> Int {
        Int(max(1, min(seconds * 1000, Double(Int32.max))).rounded())
    }

    static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? Words.megabytes(bytes) : Words.unitBytes(count: bytes)
    }
}

/// What one transfer collects; lives on the calling thread for the length of `curl_easy_perform`.
private final class Transfer {
    let limit: Int
    let cancellation: Cancellation
    let progress: (Double) -> Void
    var body: [UInt8] = []
    var headers: [(String, String)] = []
    var oversize = false
    var reported = -1.0

    init(limit: Int, cancellation: Cancellation, progress: @escaping (Double) -> Void) {
        self.limit = limit
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Body bytes; returning fewer than given makes libcurl stop with CURLE_WRITE_ERROR.
    func receive(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data, count > 0 else { return count }
        guard body.count + count <= limit else {
            oversize = true
            return 0
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    /// One header line; a new status line (after a 100 Continue, say) starts the set over.
    func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data, count > 0 else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
        } else if let colon = line.firstIndex(of: ":"), headers.count < 200 {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(" \t\r\n")
            headers.append((name, value))
        }
        return count
    }

    /// Progress (bytes sent of the body) and the cancel check: non-zero aborts the transfer.
    func tick(sent: curl_off_t, of total: curl_off_t) -> Int32 {
        if cancellation.isCancelled { return 1 }
        if total > 0 {
            let fraction = min(1, Double(sent) / Double(total))
            // Whole percents are enough for a bar and keep the pipe to the run loop quiet.
            if fraction - reported >= 0.01 || (fraction == 1 && reported < 1) {
                reported = fraction
                progress(fraction)
            }
        }
        return 0
    }
}

/// A bearer token from `FACECAP_TOKEN`. Its value reaches only the `Authorization` header: printing,
/// interpolating or dumping the value shows `<token>`, so it cannot slip into a log, event or report.
public struct BearerToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    fileprivate let value: String

    /// Nil for an empty token; a control character (a line break would inject headers) is refused.
    public init?(_ value: String) throws(TokenError) {
        guard !value.isEmpty else { return nil }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw TokenError()
        }
        self.value = value
    }

    /// The token in `environment["FACECAP_TOKEN"]`, nil when unset or empty.
    public static func from(environment: [String: String]) throws(TokenError) -> BearerToken? {
        guard let text = environment["FACECAP_TOKEN"] else { return nil }
        return try BearerToken(text)
    }

    /// `FACECAP_TOKEN` of this process.
    public static func fromProcessEnvironment() throws(TokenError) -> BearerToken? {
        guard let text = getenv("FACECAP_TOKEN") else { return nil }
        return try BearerToken(String(cString: text))
    }

    public var description: String { "<token>" }
    public var debugDescription: String { "<token>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// `FACECAP_TOKEN` holds a character no HTTP header can carry. Says so without repeating the token.
public struct TokenError: UserFacingError, Equatable {
    public var message: String { Words.text(.usageTokenControl) }
    public var exitCode: ExitCode { .usage }
}

/// `FACECAP_TOKEN` is set and `--server` is plain `http://` to another machine (allowed by `--insecure-http`):
/// the token would cross the network in clear text, so facecap refuses before the camera opens.
public struct TokenInClearError: UserFacingError, Equatable {
    public let host: String

    /// The check, for the command line: throws when `token` would go over plain http to a host that is not
    /// this machine.
    public static func check(url: String, token: BearerToken?) throws(TokenInClearError) {
        guard token != nil, ServerURL.isPlainHTTP(url) else { return }
        let server = try? ServerURL(url)
        if server?.isLoopback != true { throw TokenInClearError(host: server?.host ?? url) }
    }

    public var message: String { Words.usageTokenInClear(host: host) }
    public var exitCode: ExitCode { .usage }
}

/// curl_easy_getinfo for a long, into an Int.
private func ccurlGetLong(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO, _ value: inout Int) {
    var long = 0
    if ccurl_getinfo_long(handle, info, &long) == CURLE_OK { value = long }
}

extension Substring {
    fileprivate func trimmingCharacters(_ set: String) -> String {
        let drop = Set(set)
        return String(self.drop { drop.contains($0) }.reversed().drop { drop.contains($0) }.reversed())
    }
}
