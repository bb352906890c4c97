/// The server checked before the camera opens (README "Validation server contract"): the pre-flight is asked
/// for at the start, so that it runs while the tutorial is read; the camera opens only once it answered ready,
/// or once the person chose to take the photo anyway (a photo that cannot be sent yet is kept and re-sent).
extension Wizard {
    /// Where the pre-flight stands, beside the state (it runs while the tutorial is read): one value, so that an
    /// answer cannot be kept while a check is out, nor a check be out once the camera may open.
    public enum PreFlight: Sendable, Hashable {
        /// Nothing asked yet (or the settings ask for no pre-flight).
        case notAsked
        /// A `checkServer` is outstanding: its `serverChecked` is acted on, any other is not.
        case inFlight
        /// The answer when it was not ready (a ready one clears), kept for when the camera is asked for.
        case answered(ServerCheckProblem)
        /// The camera may open: the pre-flight answered ready, or the person chose to go on without it.
        case cleared
    }

    /// A pre-flight that did not answer ready, and its retries.
    public struct ServerCheckTrouble: Sendable, Hashable {
        public var check: ServerCheckProblem
        public var retryStep: Int
        /// The automatic re-check (a server that could not be reached may come back), when there is one.
        public var nextTry: Double?
        /// A re-check is in flight.
        public var checking = false
        /// Plain mode takes the photo anyway then (nothing waits for a key there).
        public var continueAt: Double?

        /// Waiting may help, and a photo taken anyway can be sent later: the server could not be reached or
        /// answered with a server error. A refusal (token, address) stays until facecap starts again.
        public var isTransient: Bool {
            if case .unreachable = check { return true }
            return false
        }
    }

    /// The start's pre-flight, when the settings ask for one.
    mutating func startServerCheck() -> [WizardEffect] {
        guard settings.checkServer, preFlight != .cleared else { return [] }
        preFlight = .inFlight
        return [.checkServer]
    }

    /// Nil when the camera may open now; else the state waits for the pre-flight or shows its failure.
    mutating func holdForServerCheck() -> [WizardEffect]? {
        guard settings.checkServer else { return nil }
        switch preFlight {
        case .cleared:
            return nil
        case .answered(let check):
            return serverCheckFailed(check, step: 0)
        case .inFlight:
            state = .checkingServer
            return []
        case .notAsked:
            state = .checkingServer
            return startServerCheck()
        }
    }

    mutating func serverChecked(_ check: ServerCheck) -> [WizardEffect] {
        guard preFlight == .inFlight else { return [] }
        preFlight = check.problem.map { .answered($0) } ?? .cleared
        switch state {
        case .checkingServer:
            return openForCapture()
        case .serverCheckFailed(let trouble) where trouble.checking:
            guard let problem = check.problem else { return openForCapture() }
            return serverCheckFailed(problem, step: trouble.retryStep + 1)
        default:
            // Answered while the tutorial is read: kept for when the camera is asked for.
            return []
        }
    }

    private mutating func serverCheckFailed(_ check: ServerCheckProblem, step: Int) -> [WizardEffect] {
        var trouble = ServerCheckTrouble(check: check, retryStep: step)
        if settings.plain {
            guard trouble.isTransient else {
                state = .serverCheckFailed(trouble)
                return [.report(.serverCheck(trouble.check))] + finish(.failure)
            }
            // A script goes on: the photo is sent once the server answers (the Connection error's backoff).
            trouble.continueAt = now
        } else if trouble.isTransient {
            trouble.nextTry = now + settings.backoff.delay(step: step)
        }
        state = .serverCheckFailed(trouble)
        return []
    }

    /// `r`, or the automatic re-check.
    mutating func checkServerAgain(_ trouble: ServerCheckTrouble) -> [WizardEffect] {
        var trouble = trouble
        trouble.checking = true
        trouble.nextTry = nil
        state = .serverCheckFailed(trouble)
        preFlight = .inFlight
        return [.checkServer]
    }

    /// `c` (or plain mode's own choice): the camera opens without a server that answered.
    mutating func continueWithoutServerCheck() -> [WizardEffect] {
        preFlight = .cleared
        return openForCapture()
    }

    /// q or a signal on the failure screen: one line on standard error says what was wrong; a server that
    /// could not be reached ends as SPEC's "server unreachable and the user quit" (75), a refusal as an error.
    mutating func quitServerCheck(_ trouble: ServerCheckTrouble, code: ExitCode? = nil) -> [WizardEffect] {
        [.report(.serverCheck(trouble.check))] + finish(code ?? (trouble.isTransient ? .serverUnreachable : .failure))
    }

    mutating func serverCheckDue(_ trouble: ServerCheckTrouble) -> [WizardEffect] {
        if let at = trouble.continueAt, now >= at { return continueWithoutServerCheck() }
        if let next = trouble.nextTry, now >= next, !trouble.checking { return checkServerAgain(trouble) }
        return []
    }
}
