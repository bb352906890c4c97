/// How a validation server's HTTP answer maps to a `ValidationOutcome` (SPEC §8, README "Validation
/// server contract"):
///
/// - `200` with `{"result": "pass|retry|manualReview", "reasons": ["code", …], "message": "text"}`
///   (`reasons` and `message` optional) → `.verdict`.
/// - `200` with anything else, `5xx`, `429`, any other status outside 3xx/4xx, or a reply over
///   `maxReplyBytes` → `.unreachable` (a server error: the photo is re-sent later, no attempt used),
///   carrying `Retry-After` when the server sent one.
/// - `3xx` and the other `4xx` → `.refused` with the server's message (or, without one, what to check).
///
/// Text from the server is sanitised before anyone shows it: control characters and whole terminal escape
/// sequences removed, whitespace collapsed, cut to `maxMessageLength` characters.
public enum ServerReply {
    /// Replies longer than this are a server error (the HTTP client stops reading there).
    public static let maxReplyBytes = 1 << 20
    /// Longest server message passed on, in characters.
    public static let maxMessageLength = 200
    /// Longest reason code passed on, and how many of them.
    public static let maxReasonLength = 64
    public static let maxReasons = 16

    /// The outcome of one HTTP exchange. `headers` are (name, value) pairs as received (names in any
    /// case); `now` (seconds since 1970) turns an HTTP-date `Retry-After` into seconds.
    public static func parse(
        status: Int, headers: [(String, String)], body: [UInt8],
        now: Double? = nil
    ) -> ValidationOutcome {
        guard body.count <= maxReplyBytes else {
            return .unreachable(reason: .replyTooLarge(limit: Words.megabytes(maxReplyBytes)), retryAfter: nil)
        }
        func header(_ name: String) -> String? {
            headers.last { $0.0.lowercased() == name }?.1.trimmingSpaces
        }
        let retryAfter = header("retry-after").flatMap { parseRetryAfter($0, now: now) }
        switch status {
        case 200:
            switch verdict(body) {
            case .success(let verdict): return .verdict(verdict)
            case .failure(let problem):
                return .unreachable(reason: .notContract(problem: problem.text), retryAfter: retryAfter)
            }
        case 429:
            return .unreachable(reason: .busy, retryAfter: retryAfter)
        case 500...599:
            return .unreachable(reason: .serverError(status: status, message: serverText(body)), retryAfter: retryAfter)
        case 300...399:
            let message =
                header("location").map {
                    Words.serverRedirectsTo(location: sanitise($0, limit: maxMessageLength))
                } ?? Words.text(.serverRedirects)
            return .refused(status: status, message: message)
        case 400...499:
            return .refused(status: status, message: serverText(body) ?? defaultMessage(status))
        default:
            return .unreachable(reason: .unexpectedStatus(status), retryAfter: retryAfter)
        }
    }

    /// What to check when a 4xx came without a message of the server's own.
    static func defaultMessage(_ status: Int) -> String {
        switch status {
        case 401, 403: return Words.serverRefusedToken(status: String(status))
        case 404, 405: return Words.serverNoEndpoint(status: String(status))
        case 413: return Words.text(.serverTooLarge)
        default: return Words.serverRefusedRequest(status: String(status))
        }
    }

    /// The verdict in a 200 reply, or what is wrong with it.
    static func verdict(_ body: [UInt8]) -> Result<ValidationVerdict, ReplyProblem> {
        guard let json = JSONValue.parse(body) else {
            return .failure(ReplyProblem(Words.text(body.isEmpty ? .replyEmpty : .replyNotJSON)))
        }
        guard case .object = json else { return .failure(ReplyProblem(Words.text(.replyNotObject))) }
        guard let resultText = json["result"]?.stringValue else {
            return .failure(ReplyProblem(Words.text(.replyNoResult)))
        }
        guard let result = ValidationResult(rawValue: resultText) else {
            return .failure(ReplyProblem(Words.replyBadResult(value: sanitise(resultText, limit: 32))))
        }
        var reasons: [String] = []
        switch json["reasons"] {
        case nil, .null?: break
        case .array(let items)?:
            for item in items {
                guard let text = item.stringValue else {
                    return .failure(ReplyProblem(Words.text(.replyReasonNotString)))
                }
                let code = sanitise(text, limit: maxReasonLength)
                if !code.isEmpty, reasons.count < maxReasons { reasons.append(code) }
            }
        default: return .failure(ReplyProblem(Words.text(.replyReasonsNotArray)))
        }
        var message: String?
        switch json["message"] {
        case nil, .null?: break
        case .string(let text)?:
            let clean = sanitise(text, limit: maxMessageLength)
            message = clean.isEmpty ? nil : clean
        default: return .failure(ReplyProblem(Words.text(.replyMessageNotString)))
        }
        return .success(ValidationVerdict(result: result, reasons: reasons, message: message))
    }

    /// Why a 200 reply was not usable (said in the connection error's reason).
    struct ReplyProblem: Error, Equatable {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// The server's own words in an error reply: a JSON `message` (or `error`), else a short plain-text body.
    static func serverText(_ body: [UInt8]) -> String? {
        if let json = JSONValue.parse(body) {
            for key in ["message", "error", "detail"] {
                if let text = json[key]?.stringValue {
                    let clean = sanitise(text, limit: maxMessageLength)
                    if hasWords(clean) { return clean }
                }
            }
            return nil
        }
        // HTML error pages say nothing a person can act on; plain text usually does.
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        guard !text.isEmpty, !text.contains("\u{FFFD}"), !text.contains("\0"),
            !text.lowercased().trimmingSpaces.hasPrefix("<")
        else { return nil }
        let clean = sanitise(text, limit: maxMessageLength)
        return hasWords(clean) ? clean : nil
    }

    /// Whether a server's text says anything: a letter or a digit ("." or "-" alone is no message, and would leave
    /// an empty clause in the line on standard error).
    static func hasWords(_ text: String) -> Bool {
        text.contains { $0.isLetter || $0.isNumber }
    }

    /// Control characters out, each terminal escape sequence as a whole (ESC [ … final byte; ESC ] / P / X /
    /// ^ / _ … up to BEL or ST; ESC and one character; their one-byte C1 forms), so a server's text can
    /// neither drive the terminal nor leave fragments such as "[31m"; runs of whitespace to one space, at
    /// most `limit` characters (an ellipsis marks a cut).
    public static func sanitise(_ text: String, limit: Int) -> String {
        var out = ""
        var pendingSpace = false
        var count = 0
        enum Escape { case none, started, control, string, stringEscape }
        var escape = Escape.none
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch escape {
            case .none:
                if v == 0x1B { escape = .started; continue }
                if v == 0x9B { escape = .control; continue }
                if v == 0x90 || v == 0x9D || v == 0x98 || v == 0x9E || v == 0x9F { escape = .string; continue }
            case .started:
                switch v {
                case 0x5B: escape = .control  // [
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: escape = .string  // ] P X ^ _
                default: escape = .none  // ESC and one character
                }
                continue
            case .control:
                if (0x40...0x7E).contains(v) || v < 0x20 && v != 0x1B { escape = .none }
                continue
            case .string:
                if v == 0x07 || v == 0x9C { escape = .none } else if v == 0x1B { escape = .stringEscape }
                continue
            case .stringEscape:
                escape = v == 0x5C ? .none : .string  // ESC \ is ST
                continue
            }
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            // C0, DEL, C1 controls and the bidirectional overrides that could reorder a line.
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            {
                continue
            }
            if pendingSpace {
                out.unicodeScalars.append(" ")
                count += 1
                pendingSpace = false
            }
            if count >= limit {
                out.unicodeScalars.append("…")
                return out
            }
            out.unicodeScalars.append(scalar)
            count += 1
        }
        return out
    }

    /// `Retry-After` as seconds: delta-seconds, or an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) when
    /// `now` is known. Capped at a day; nil when unreadable.
    public static func parseRetryAfter(_ text: String, now: Double?) -> Double? {
        let value = text.trimmingSpaces
        if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return min(Double(value) ?? 86_400, 86_400)
        }
        guard let now, let date = imfFixdate(value) else { return nil }
        return min(max(date - now, 0), 86_400)
    }

    /// Seconds since 1970 of an IMF-fixdate (RFC 9110 §5.6.7), nil for anything else.
    static func imfFixdate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let m = month + 1
        let y = m <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (Foundation's trimming, which this module avoids).
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
