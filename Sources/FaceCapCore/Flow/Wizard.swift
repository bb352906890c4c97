/// The capture flow as a value: `(state, event) → (state, [effect])`.
///
/// No I/O, no clock and no randomness inside: time arrives with each event, the run loop performs the
/// effects and answers with events, and `screen(at:)` (Screens/) says what to draw. Tests drive it with
/// tables of events and check the effects and screens.
///
/// The state is one enum of per-screen structs (Wizard+State.swift); keys are bindings that say the key, its
/// help and its action together (Wizard+Keys.swift); the transitions are split by concern: the camera
/// (Wizard+Camera.swift), capture (Wizard+Capture.swift), checking and saving (Wizard+Checking.swift).
public struct Wizard: Sendable, Equatable {
    public let settings: WizardSettings
    public internal(set) var state: State = .notStarted
    /// The verdicts since the last pass: the attempts they used and the gate the last refusal set.
    public internal(set) var attempts = Attempts()
    /// The `?` help overlay, while it is open.
    public internal(set) var helpOverlay: HelpOverlay?
    /// The terminal's size, once the front end said it (plain mode never does).
    public internal(set) var terminalSize: TerminalSize?
    /// What the flow has said so far: the screen and guidance announced, the line on standard error.
    public internal(set) var announced = Announced()
    /// Where the server's pre-flight stands (Wizard+ServerCheck.swift).
    public internal(set) var preFlight: PreFlight = .notAsked
    /// The time of the last event handled.
    public internal(set) var now = 0.0

    public init(settings: WizardSettings) {
        self.settings = settings
    }

    /// The `?` help overlay is open.
    public var showsHelp: Bool { helpOverlay != nil }

    /// The terminal is below the minimum size: the "terminal too small" screen replaces every other.
    public var isTerminalTooSmall: Bool {
        guard let size = terminalSize else { return false }
        return size.columns < settings.minimumColumns || size.rows < settings.minimumRows
    }

    /// True once the flow has ended (an `exit` effect was given).
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Validation verdicts received for photos since the last pass.
    public var attemptsUsed: Int { attempts.used }

    /// What the last refusal asks of every capture until the next verdict; open after a pass.
    public var captureGate: CaptureGate { attempts.gate }

    /// The current attempt (1-based): the one the kept or next photo is validated as.
    public var attempt: Int { attemptsUsed + 1 }

    /// The check the kept or next photo gets: its attempt, and whether it is the last (decided here once; the
    /// session writes the same into the photo's report).
    public var currentRequest: ValidationRequest {
        ValidationRequest(attempt: attempt, isFinal: attempt >= settings.attempts)
    }

    /// Attempts left after the current one fails.
    public var attemptsLeft: Int { max(0, settings.attempts - attemptsUsed) }

    /// Handles one event at monotonic time `now` (seconds since start) and returns what to do.
    public mutating func handle(_ event: WizardEvent, at now: Double) -> [WizardEffect] {
        guard !isFinished else { return [] }
        self.now = max(self.now, now)
        var effects: [WizardEffect] = []
        switch event {
        case .start: effects = start()
        case .key(let key): effects = press(key)
        case .tick: effects = tick()
        case .resized(let columns, let rows): effects = resized(columns: columns, rows: rows)
        case .cameraOpened: effects = cameraOpened()
        case .cameraFailed(let problem): effects = cameraFailed(problem)
        case .cameraLost(let problem): effects = cameraLost(problem)
        case .frameAnalyzed(let guidance): effects = frameAnalyzed(guidance)
        case .photoTaken(let mode, let width, let height):
            effects = photoTaken(mode: mode, width: width, height: height)
        case .photoFailed: effects = photoFailed()
        case .validation(let outcome): effects = validation(outcome)
        case .photoSaved(let saved): effects = photoSaved(saved)
        case .saveFailed(let message): effects = saveFailed(message)
        case .stop: effects = stop()
        case .serverChecked(let check): effects = serverChecked(check)
        case .camerasListed(let choices): effects = camerasListed(choices)
        }
        if let help = helpOverlay, !isFinished, screenName != help.over {
            // The help was about the screen it was opened over (Success must not appear under it).
            effects += closeHelp()
        }
        if effects.contains(where: { if case .report = $0 { true } else { false } }) { announced.reported = true }
        if !announced.reported, effects.contains(where: { if case .exit(.cancelled) = $0 { true } else { false } }) {
            // Every way out leaves its one line on standard error: leaving before any photo was kept says so.
            effects.insert(.report(.cancelled), at: 0)
            announced.reported = true
        }
        return effects + announce()
    }

    private mutating func start() -> [WizardEffect] {
        guard case .notStarted = state else { return [] }
        let check = startServerCheck()
        guard settings.showTutorial else { return check + openForCapture() }
        // Plain mode waits for nobody: the tutorial and the context are printed and pass at once (running
        // --plain is the consent).
        state = .tutorial(Intro(until: settings.plain ? now : nil))
        return check
    }

    private mutating func resized(columns: Int, rows: Int) -> [WizardEffect] {
        let wasTooSmall = isTerminalTooSmall
        terminalSize = TerminalSize(columns: columns, rows: rows)
        if wasTooSmall, !isTerminalTooSmall, case .capture = state {
            // The person could not see the preview: start the capture over rather than take a photo unseen.
            state = .capture(CaptureProgress())
            return [.startAnalysis(captureGate)]
        }
        return []
    }

    /// What time does to each state. Exhaustive, with no `default:`: a new state says here whether a timer moves
    /// it, and `nextDeadline` says when.
    private mutating func tick() -> [WizardEffect] {
        switch state {
        case .tutorial(let intro):
            guard isDue(intro.until) else { return [] }
            state = .permissionContext(Intro(until: now))
            return []
        case .permissionContext(let intro):
            return isDue(intro.until) ? openForCapture() : []
        case .success(let ending):
            return isDue(ending.until) ? finish(.success) : []
        case .finalError(let ending):
            return isDue(ending.until) ? finish(.manualReview) : []
        case .retry(let retry):
            return isDue(retry.until) ? openForCapture() : []
        case .cameraUnavailable, .cameraLost:
            return cameraRetryDue()
        case .serverUnreachable(let trouble):
            return !trouble.sending && isDue(trouble.nextTry) ? sendAgain(trouble) : []
        case .validating(let check):
            return releaseHeldAnswer(check)
        case .serverCheckFailed(let trouble):
            return serverCheckDue(trouble)
        case .notStarted, .permissionDismissed, .choosingCamera, .checkingServer, .opening, .capture, .taking,
            .saving, .serverRefused, .saveFailed, .finished:
            // Only events move these.
            return []
        }
    }

    /// True once `deadline` has come; never without one.
    private func isDue(_ deadline: Double?) -> Bool {
        deadline.map { now >= $0 } ?? false
    }

    /// Ends the flow with `code`.
    mutating func finish(_ code: ExitCode) -> [WizardEffect] {
        state = .finished(code)
        return [.stopAnalysis, .closeCamera, .emit(.exit(code)), .exit(code)]
    }

    /// A `screen` event whenever the screen's name changes.
    mutating func announce() -> [WizardEffect] {
        if isFinished { return [] }
        if case .notStarted = state { return [] }
        let name = screenName
        guard name != announced.screen else { return [] }
        announced.screen = name
        return [.emit(.screen(name))]
    }

    /// The earliest time the flow needs a `tick` to move on by itself (a timer, a countdown's end, a retry),
    /// or nil when only events can move it. Exhaustive, as `tick` is: the two name the same states.
    public var nextDeadline: Double? {
        switch state {
        case .tutorial(let intro), .permissionContext(let intro): return intro.until
        case .success(let ending), .finalError(let ending): return ending.until
        case .retry(let retry): return retry.until
        case .cameraUnavailable(let link), .cameraLost(let link): return link.awaitingAnswer ? nil : link.nextTry
        case .serverUnreachable(let trouble): return trouble.sending ? nil : trouble.nextTry
        case .validating(let check): return heldAnswerDue(check)
        case .serverCheckFailed(let trouble):
            return trouble.checking ? nil : [trouble.continueAt, trouble.nextTry].compactMap { $0 }.min()
        case .notStarted, .permissionDismissed, .choosingCamera, .checkingServer, .opening, .capture, .taking,
            .saving, .serverRefused, .saveFailed, .finished:
            return nil
        }
    }

    /// The name of the screen the current state shows, decided in one place (`stateName`, Screens/), the terminal
    /// too small for it aside.
    public var screenName: ScreenName { isTerminalTooSmall ? .terminalTooSmall : stateName }
}
