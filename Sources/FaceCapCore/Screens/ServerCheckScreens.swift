/// The pre-flight: waiting for its answer, and a failure named for what it is (the server could not be
/// reached, it answered with an error, it refused the token, there is no service at the address).
extension Wizard {
    func checkingServerScreen() -> ScreenModel {
        ScreenModel(
            name: stateName, title: Words.text(.serverCheckingTitle),
            primary: Words.serverCheckingPrimary(server: settings.serverURL ?? ""))
    }

    func serverCheckFailedScreen(_ trouble: ServerCheckTrouble, now: Double) -> ScreenModel {
        let countdown =
            trouble.checking
            ? Words.text(.countdownCheckingNow)
            : trouble.nextTry.map { Words.countdownCheckingAgainIn(seconds: Messages.secondsText($0 - now)) }
        return ScreenModel(
            name: stateName, title: serverCheckTitle(trouble.check), tone: .error,
            lines: [Self.serverCheckSaid(trouble.check), serverCheckFix(trouble.check)], countdown: countdown)
    }

    /// What the server (or the way to it) said, in one sentence.
    static func serverCheckSaid(_ check: ServerCheckProblem) -> String {
        switch check {
        case .unreachable(let reason): return reason.text
        case .refused(let status, let message):
            guard status > 0 else { return message }
            return message.isEmpty
                ? Words.serverCheckAnswered(status: String(status))
                : Words.refusedHTTP(status: String(status), message: message)
        }
    }

    private func serverCheckTitle(_ check: ServerCheckProblem) -> String {
        switch check {
        case .unreachable(let reason): return Words.text(reason.serverAnswered ? .serverErrorTitle : .unreachableTitle)
        case .refused(401, _): return Words.text(.serverCheckTitleToken)
        case .refused(403, _): return Words.text(.serverCheckTitleForbidden)
        case .refused(let status, _) where status == 404 || status == 405 || (300...399).contains(status):
            return Words.text(.serverCheckTitleAddress)
        case .refused: return Words.text(.serverCheckTitleRefused)
        }
    }

    private func serverCheckFix(_ check: ServerCheckProblem) -> String {
        switch check {
        case .unreachable(let reason) where reason.serverAnswered:
            return Words.text(settings.plain ? .serverCheckFixServerErrorPlain : .serverCheckFixServerError)
        case .unreachable:
            return Words.text(settings.plain ? .serverCheckFixUnreachablePlain : .serverCheckFixUnreachable)
        case .refused(let status, _) where (status == 401 || status == 403) && !settings.sendsToken:
            return Words.text(.serverCheckFixTokenMissing)
        case .refused(401, _): return Words.text(.serverCheckFixTokenRefused)
        case .refused(403, _): return Words.text(.serverCheckFixForbidden)
        case .refused(let status, _) where status == 404 || status == 405 || (300...399).contains(status):
            return Words.serverCheckFixAddress(server: settings.serverURL ?? "")
        case .refused: return Words.text(.serverCheckFixOther)
        }
    }
}

extension ConnectionFailure {
    /// The server itself answered (with an error, busy, or a reply that is not the contract's): the way to it
    /// works, so "cannot reach the server" would be wrong.
    public var serverAnswered: Bool {
        switch self {
        case .notContract, .busy, .serverError, .unexpectedStatus, .replyTooLarge: return true
        case .cancelled, .dns, .proxyDNS, .refused, .noRoute, .cannotConnect, .connectTimeout, .timedOut, .certificate,
            .tls, .reset, .broke, .noReply, .cutShort, .failed, .cannotBuildUpload, .cannotStart:
            return false
        }
    }
}
