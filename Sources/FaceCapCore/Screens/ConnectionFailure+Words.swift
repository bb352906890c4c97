extension ConnectionFailure {
    /// The sentence for a person, in the current language (the server's own `message` stays as sent).
    public var text: String {
        switch self {
        case .cancelled: return Words.text(.netCancelled)
        case .replyTooLarge(let limit): return Words.netReplyTooLarge(size: limit)
        case .dns(let host): return Words.netDNS(host: host)
        case .proxyDNS(let detail): return detailed(Words.text(.netProxyDNS), detail)
        case .refused(let place): return Words.netRefused(place: place)
        case .noRoute(let place): return Words.netNoRoute(place: place)
        case .cannotConnect(let place, let detail): return detailed(Words.netCannotConnect(place: place), detail)
        case .connectTimeout(let place, let seconds):
            return Words.netConnectTimeout(place: place, seconds: JSONText.fixed(seconds, decimals: 1))
        case .timedOut(let seconds): return Words.netTimedOut(seconds: JSONText.fixed(seconds, decimals: 1))
        case .certificate(let host, let detail): return detailed(Words.netCertificate(host: host), detail)
        case .tls(let host, let detail): return detailed(Words.netTLS(host: host), detail)
        case .reset(let place): return Words.netReset(place: place)
        case .broke(let place, let detail): return detailed(Words.netBroke(place: place), detail)
        case .noReply(let place): return Words.netNoReply(place: place)
        case .cutShort(let place): return Words.netCutShort(place: place)
        case .failed(let place, let detail): return Words.netFailed(place: place, detail: detail)
        case .notContract(let problem): return Words.serverNotContract(problem: problem)
        case .busy: return Words.text(.serverBusy)
        case .serverError(let status, let message?):
            return Words.serverFailedSaying(status: String(status), message: message)
        case .serverError(let status, nil): return Words.serverFailed(status: String(status))
        case .unexpectedStatus(let status): return Words.serverUnexpected(status: String(status))
        case .cannotBuildUpload: return Words.text(.netCannotBuild)
        case .cannotStart: return Words.text(.netCannotStart)
        }
    }

    private func detailed(_ text: String, _ detail: String) -> String {
        detail.isEmpty ? text : Words.netDetail(message: text, detail: detail)
    }
}
