/// Checking and sending the photo, saving it, and what can go wrong on the way.
extension Wizard {
    func checkingScreen(_ check: Check, now: Double) -> ScreenModel {
        let server = settings.usesServer
        let title = Words.text(server ? .checkingTitleServer : .checkingTitleLocal)
        let primary = Words.text(server ? .checkingPrimaryServer : .checkingPrimaryLocal)
        var lines = [Words.checkingAttempt(attempt: String(check.request.attempt), attempts: String(settings.attempts))]
        if check.request.isFinal, settings.attempts > 1 { lines.append(Words.text(.checkingLastAttempt)) }
        // Ctrl-C is a signal, not a key the flow binds: said here, not in the key bar.
        lines.append(Words.text(server ? .checkingCancelServer : .checkingCancelLocal))
        // The bar counts what is sent (or the checker's steps) and says its percentage once, after it. Once all is
        // sent, nothing moves but the time: a spinner, the seconds waited and when the server gives up. An answer
        // already in (held so the screen does not flash) is not waited for.
        var countdown: String?
        var spinner: Int?
        if check.held == nil, !server || check.progress >= 1 {
            let seconds = String(Int(max(0, now - check.startedAt)))
            countdown =
                server
                ? Words.checkingWaitServer(seconds: seconds, timeout: String(Int(settings.serverTimeout)))
                : Words.checkingWaitLocal(seconds: seconds)
            spinner = Int(max(0, now - check.startedAt) * Self.spinnerSteps)
        }
        return ScreenModel(
            name: stateName, title: title, picture: .photo, primary: primary, lines: lines,
            progress: ScreenProgress(
                fraction: check.progress,
                label: Words.text(server ? .progressSending : .progressChecking)),
            countdown: countdown, spinner: spinner)
    }

    /// Spinner steps a second: the run loop ticks four times a second.
    static let spinnerSteps = 4.0

    func savingScreen() -> ScreenModel {
        ScreenModel(
            name: stateName, title: Words.text(.savingTitle), picture: .photo,
            progress: ScreenProgress(fraction: 1, label: Words.text(.progressSaving)))
    }

    func unreachableScreen(_ trouble: ServerTrouble, now: Double) -> ScreenModel {
        ScreenModel(
            name: stateName,
            title: Words.text(trouble.reason.serverAnswered ? .serverErrorTitle : .unreachableTitle),
            tone: .error, picture: .photo,
            lines: [trouble.reason.text, Words.unreachableKept(attempt: String(trouble.request.attempt))],
            progress: trouble.sending
                ? ScreenProgress(fraction: trouble.progress, label: Words.text(.progressSendingAgain))
                : nil,
            countdown: trouble.sending
                ? Words.text(.countdownSendingAgainNow)
                : Words.countdownSendingAgainIn(seconds: Messages.secondsText(trouble.nextTry - now)))
    }

    func refusedScreen(_ refusal: Refusal) -> ScreenModel {
        let said =
            refusal.status > 0
            ? Words.refusedHTTP(status: String(refusal.status), message: refusal.message) : refusal.message
        return ScreenModel(
            name: stateName, title: Words.text(.refusedTitle), tone: .error, picture: .photo,
            lines: [said, Words.text(Self.refusedFix(refusal.status))],
            countdown: refusal.sending ? Words.text(.countdownSendingAgainNow) : nil)
    }

    /// What to fix before sending again: the token for 401/403, the address for 404/405 and redirects.
    static func refusedFix(_ status: Int) -> MessageID {
        switch status {
        case 401, 403: return .refusedFix
        case 404, 405, 300...399: return .refusedFixAddress
        default: return .refusedFixOther
        }
    }

    func saveFailedScreen(_ failure: SaveFailure) -> ScreenModel {
        var lines = [failure.message, Words.text(.saveFailedKept)]
        if let folder = failure.folder {
            // The field, with a cursor after what is typed.
            lines += [Words.text(.saveFolderPrompt), "> " + folder + "_"]
        } else {
            lines.append(Words.text(.saveFolderOffer))
        }
        return ScreenModel(
            name: stateName, title: Words.text(.saveFailedTitle), tone: .error, picture: .photo,
            lines: lines)
    }
}
