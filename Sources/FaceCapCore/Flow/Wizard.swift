/// What the wizard opens, as the permission screen names it.
public enum SourceName: Sendable, Equatable {
    /// The first video-capture node.
    case defaultCamera
    case camera(String)
    case clip(String)
}

/// The wizard's settings, from the command line.
public struct WizardSettings: Sendable, Equatable {
    /// Validation attempts before the photo goes to manual review.
    public var attempts = 3
    /// Show the tutorial and the camera-permission context screen first.
    public var showTutorial = true
    /// `--plain`: nothing waits for Enter; screens that would wait move on by themselves or end the program.
    public var plain = false
    /// Seconds of capture before manual capture is offered (shown as a countdown; the analyzer decides).
    public var manualAfter = 30.0
    /// Success moves on by itself after this many seconds.
    public var successDelay = 3.0
    /// Final error moves on by itself after this many seconds.
    public var finalErrorDelay = 5.0
    /// In plain mode Retry returns to capture after this many seconds.
    public var plainRetryDelay = 2.0
    /// Smaller terminals get the "terminal too small" screen.
    public var minimumColumns = 60
    public var minimumRows = 20
    /// Waits between automatic retries (camera reopen, server re-send).
    public var backoff = Backoff()
    /// Seconds without a new analysed frame before the capture screen says it is waiting for the camera (the
    /// picture froze); the camera layer gives up after 5 s (a connection error).
    public var staleFrameAfter = 1.0
    /// Validation goes to a server (the Uploading screen counts bytes) rather than the built-in validator.
    public var usesServer = false
    /// The source is a replayed clip: there is no other device to switch to.
    public var sourceIsClip = false
    /// For the screens' text: what is opened (the first camera, a named one, a clip), where photos go, and the
    /// server (nil: the built-in validator).
    public var source = SourceName.defaultCamera
    public var outputDirectory = "facecap-out"
    public var serverURL: String?

    public init() {}
}

/// The capture flow as a value: `(state, event) → (state, [effect])`.
///
/// No I/O, no clock and no randomness inside: time arrives with each event, the run loop performs the
/// effects and answers with events, and `screen(at:)` (Screens/) says what to draw. Tests drive it with
/// tables of events and check the effects and screens.
public struct Wizard: Sendable, Equatable {
    /// Where the flow is.
    public enum Phase: Sendable, Equatable {
        case notStarted
        /// `until`: plain mode moves on by itself then (it prints the screen and waits for nobody).
        case tutorial(until: Double?)
        case permissionContext(until: Double?)
        /// The person declined the context screen.
        case permissionDismissed
        /// The camera is being opened for capture (first time, or after Retry).
        case opening
        /// The camera cannot be opened: permission denied, no camera, busy. `nextTry` is the automatic retry.
        case cameraUnavailable(CameraProblem, retryStep: Int, nextTry: Double?)
        case capture(CaptureProgress)
        /// `takePhoto` was asked for.
        case taking(CaptureMode, manualOffered: ManualFallbackReason?)
        /// The kept photo is being checked (the Uploading screen).
        case validating(ValidationRequest, progress: Double)
        /// The photo and its report are being written; `then` says where the flow goes next.
        case saving(ValidationVerdict?, then: AfterSave)
        case success(SavedPhoto, until: Double)
        /// Validation asked for another photo. `until`: plain mode goes back to capture by itself then.
        case retry(ValidationVerdict, attemptsLeft: Int, until: Double?)
        case finalError(SavedPhoto, until: Double)
        /// The camera stopped delivering frames; reopened with backoff when `problem.recoverable`.
        case cameraLost(CameraProblem, retryStep: Int, nextTry: Double?)
        /// The server could not be reached; the same photo is re-sent (same attempt) at `nextTry`.
        case serverUnreachable(reason: String, request: ValidationRequest, retryStep: Int, nextTry: Double,
                               sending: Bool, progress: Double)
        /// The server refused the photo for good (a 4xx other than 429); only the person can retry.
        case serverRefused(status: Int, message: String, request: ValidationRequest, sending: Bool)
        /// The photo could not be written; it is kept in memory and written again on `r`.
        case saveFailed(message: String, verdict: ValidationVerdict?, then: AfterSave)
        case finished(ExitCode)
    }

    /// Where the flow goes once the photo is written.
    public enum AfterSave: Sendable, Equatable {
        case success
        case finalError
        case exit(ExitCode)
    }

    /// The live part of the capture screen.
    public struct CaptureProgress: Sendable, Equatable {
        /// Time of the first analysed frame (the analyzer's clock), for the manual-capture countdown.
        public var firstFrameTime: Double?
        public var latest: FrameGuidance?
        /// Set once manual capture is offered, with why auto capture did not finish.
        public var manualOffered: ManualFallbackReason?
        /// When the last frame was analysed (the flow's clock): the picture is stale some time after.
        public var lastFrameAt: Double?

        public init() {}
    }

    public let settings: WizardSettings
    public private(set) var phase: Phase = .notStarted
    /// Validation verdicts received for photos since the last pass.
    public private(set) var attemptsUsed = 0
    /// The `?` help overlay is open.
    public private(set) var showsHelp = false
    /// The terminal's size, once the front end said it (plain mode never does).
    public private(set) var terminalSize: (columns: Int, rows: Int)?
    /// An `openCamera` is outstanding: `cameraOpened`/`cameraFailed` answer it.
    public private(set) var awaitingCamera = false
    /// The last screen announced with a `screen` event.
    public private(set) var announcedScreen: ScreenName?
    /// The guidance last announced with a `guidance` event.
    private var announcedGuidance: (primary: GuidanceCode, hints: [GuidanceCode])?
    /// The time of the last event handled.
    public private(set) var now = 0.0

    public init(settings: WizardSettings) {
        self.settings = settings
    }

    public static func == (lhs: Wizard, rhs: Wizard) -> Bool {
        lhs.settings == rhs.settings && lhs.phase == rhs.phase && lhs.attemptsUsed == rhs.attemptsUsed
            && lhs.showsHelp == rhs.showsHelp && lhs.awaitingCamera == rhs.awaitingCamera
            && lhs.terminalSize?.columns == rhs.terminalSize?.columns && lhs.terminalSize?.rows == rhs.terminalSize?.rows
            && lhs.announcedScreen == rhs.announcedScreen && lhs.now == rhs.now
            && lhs.announcedGuidance?.primary == rhs.announcedGuidance?.primary
            && lhs.announcedGuidance?.hints == rhs.announcedGuidance?.hints
    }

    /// The terminal is below the minimum size: the "terminal too small" screen replaces every other.
    public var isTerminalTooSmall: Bool {
        guard let size = terminalSize else { return false }
        return size.columns < settings.minimumColumns || size.rows < settings.minimumRows
    }

    /// True once the flow has ended (an `exit` effect was given).
    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// The current attempt (1-based): the one the kept or next photo is validated as.
    public var attempt: Int { attemptsUsed + 1 }

    /// Attempts left after the current one fails.
    public var attemptsLeft: Int { max(0, settings.attempts - attemptsUsed) }

    /// Handles one event at monotonic time `now` (seconds since start) and returns what to do.
    public mutating func handle(_ event: WizardEvent, at now: Double) -> [WizardEffect] {
        guard !isFinished else { return [] }
        self.now = max(self.now, now)
        var effects: [WizardEffect] = []
        let wasTooSmall = isTerminalTooSmall
        switch event {
        case .start:
            effects += start()
        case .key(let key):
            effects += press(key)
        case .tick:
            effects += tick()
        case .resized(let columns, let rows):
            terminalSize = (columns, rows)
            if wasTooSmall, !isTerminalTooSmall, case .capture = phase {
                // The person could not see the preview: start the capture over rather than take a photo unseen.
                phase = .capture(CaptureProgress())
                effects.append(.startAnalysis)
            }
        case .cameraOpened:
            effects += cameraOpened()
        case .cameraFailed(let problem):
            effects += cameraFailed(problem)
        case .cameraLost(let problem):
            effects += cameraLost(problem)
        case .frameAnalyzed(let guidance):
            effects += frameAnalyzed(guidance)
        case .photoTaken(let mode, let width, let height):
            effects += photoTaken(mode: mode, width: width, height: height)
        case .photoFailed:
            // Nothing to keep (no frame yet): back to capture, guidance goes on.
            if case .taking(_, let offered) = phase {
                var progress = CaptureProgress()
                progress.manualOffered = offered
                phase = .capture(progress)
                effects.append(.startAnalysis)
            }
        case .validation(let outcome):
            effects += validation(outcome)
        case .photoSaved(let saved):
            effects += photoSaved(saved)
        case .saveFailed(let message):
            effects += saveFailed(message)
        case .stop(let request):
            effects += stop(request)
        }
        return effects + announce()
    }

    // MARK: - Transitions

    private mutating func start() -> [WizardEffect] {
        guard case .notStarted = phase else { return [] }
        guard settings.showTutorial else { return openForCapture() }
        // Plain mode waits for nobody: the tutorial and the context are printed and pass at once (running
        // --plain is the consent).
        phase = .tutorial(until: settings.plain ? now : nil)
        return []
    }

    private mutating func openForCapture() -> [WizardEffect] {
        phase = .opening
        awaitingCamera = true
        return [.openCamera]
    }

    private mutating func press(_ key: Key) -> [WizardEffect] {
        if isTerminalTooSmall {
            // The screen behind is hidden: no key may act on it (pass the camera question, take a photo).
            return key == .character("q") || key == .escape ? stop(.interrupt) : []
        }
        if key == .character("?"), !settings.plain {
            showsHelp.toggle()
            return []
        }
        if showsHelp {
            // Any key closes the overlay; q still quits.
            showsHelp = false
            if key != .character("q") { return [] }
        }
        let quit = key == .character("q") || key == .escape
        let retry = key == .character("r") || key == .character("R")
        let confirm = key == .enter || key == .space
        switch phase {
        case .notStarted, .finished, .opening, .taking, .saving:
            return quit && !isBusy ? finish(.cancelled) : []
        case .validating:
            // Input is ignored while the photo is checked; Ctrl-C (a signal) still stops.
            return []
        case .tutorial:
            if confirm {
                phase = .permissionContext(until: nil)
                return []
            }
            return quit ? finish(.cancelled) : []
        case .permissionContext:
            if key == .enter || key == .character("y") { return openForCapture() }
            if quit || key == .character("n") {
                phase = .permissionDismissed
            }
            return []
        case .permissionDismissed:
            if retry || key == .enter {
                // Asked again, as the screen says: the person reads what the camera is for before it turns on.
                phase = .permissionContext(until: nil)
                return []
            }
            if key == .character("d"), !settings.sourceIsClip { return [.nextDevice] + openForCapture() }
            return quit ? finish(.cancelled) : []
        case .cameraUnavailable(let problem, let step, _):
            if quit { return finish(problem.exitCode) }
            if awaitingCamera { return [] }
            if retry || key == .enter {
                phase = .cameraUnavailable(problem, retryStep: step, nextTry: nil)
                awaitingCamera = true
                return [.openCamera]
            }
            if key == .character("d"), !settings.sourceIsClip {
                phase = .cameraUnavailable(problem, retryStep: 0, nextTry: nil)
                awaitingCamera = true
                return [.nextDevice, .openCamera]
            }
            return []
        case .capture(let progress):
            if quit { return finish(.cancelled) }
            if key == .space, let offered = progress.manualOffered {
                phase = .taking(.manual, manualOffered: offered)
                return [.stopAnalysis, .takePhoto(.manual)]
            }
            return []
        case .success:
            if confirm || quit { return finish(.success) }
            return []
        case .finalError:
            if confirm || quit { return finish(.manualReview) }
            return []
        case .retry:
            if confirm || retry { return openForCapture() }
            return quit ? finish(.cancelled) : []
        case .cameraLost(let problem, let step, _):
            if quit { return finish(problem.exitCode) }
            if retry, !awaitingCamera {
                phase = .cameraLost(problem, retryStep: step, nextTry: nil)
                awaitingCamera = true
                return [.openCamera]
            }
            return []
        case .serverUnreachable(let reason, let request, let step, _, let sending, _):
            if quit {
                phase = .saving(nil, then: .exit(.serverUnreachable))
                return (sending ? [.cancelValidation] : []) + [.save(nil)]
            }
            if retry, !sending {
                phase = .serverUnreachable(reason: reason, request: request, retryStep: step, nextTry: now,
                                           sending: true, progress: 0)
                return [.validate(request)]
            }
            return []
        case .serverRefused(let status, let message, let request, let sending):
            if quit {
                phase = .saving(nil, then: .exit(.failure))
                return (sending ? [.cancelValidation] : []) + [.save(nil)]
            }
            if retry, !sending {
                phase = .serverRefused(status: status, message: message, request: request, sending: true)
                return [.validate(request)]
            }
            return []
        case .saveFailed(let message, let verdict, let then):
            if quit {
                let code: ExitCode
                if case .exit(let wanted) = then { code = wanted } else { code = .failure }
                return [.report(Words.text(.reportNotSavedQuit, ["reason": message]))] + finish(code)
            }
            if retry || key == .enter {
                phase = .saving(verdict, then: then)
                return [.save(verdict)]
            }
            return []
        }
    }

    /// Waiting for the run loop to finish something that must not be cut short.
    private var isBusy: Bool {
        switch phase {
        case .taking, .saving: return true
        default: return false
        }
    }

    private mutating func tick() -> [WizardEffect] {
        switch phase {
        case .tutorial(let until?) where now >= until:
            phase = .permissionContext(until: now)
            return []
        case .permissionContext(let until?) where now >= until:
            return openForCapture()
        case .success(_, let until) where now >= until:
            return finish(.success)
        case .finalError(_, let until) where now >= until:
            return finish(.manualReview)
        case .retry(_, _, let until?) where now >= until:
            return openForCapture()
        case .cameraUnavailable(let problem, let step, let next?) where now >= next && !awaitingCamera:
            phase = .cameraUnavailable(problem, retryStep: step, nextTry: nil)
            awaitingCamera = true
            return [.openCamera]
        case .cameraLost(let problem, let step, let next?) where now >= next && !awaitingCamera:
            phase = .cameraLost(problem, retryStep: step, nextTry: nil)
            awaitingCamera = true
            return [.openCamera]
        case .serverUnreachable(let reason, let request, let step, let next, false, _) where now >= next:
            phase = .serverUnreachable(reason: reason, request: request, retryStep: step, nextTry: next,
                                       sending: true, progress: 0)
            return [.validate(request)]
        default:
            return []
        }
    }

    private mutating func cameraOpened() -> [WizardEffect] {
        guard awaitingCamera else { return [] }
        awaitingCamera = false
        phase = .capture(CaptureProgress())
        // A new capture announces its guidance afresh, even when it is what it was before the camera was lost.
        announcedGuidance = nil
        return [.startAnalysis]
    }

    private mutating func cameraFailed(_ problem: CameraProblem) -> [WizardEffect] {
        guard awaitingCamera else { return [] }
        awaitingCamera = false
        switch phase {
        case .cameraLost(_, let step, _):
            // Still gone: wait longer before the next look.
            let next = problem.recoverable ? now + settings.backoff.delay(step: step + 1) : nil
            phase = .cameraLost(lostProblem(problem), retryStep: step + 1, nextTry: next)
            return settings.plain && !problem.recoverable ? finish(problem.exitCode) : []
        default:
            let step: Int
            if case .cameraUnavailable(_, let previous, _) = phase { step = previous + 1 } else { step = 0 }
            if settings.plain {
                // A script wants the answer now, not a screen that waits for a camera to appear.
                phase = .cameraUnavailable(problem, retryStep: step, nextTry: nil)
                return [.report(problem.message)] + finish(problem.exitCode)
            }
            // No camera and busy are retried by themselves (hotplug, the other program quits); permission is not.
            let automatic = problem.kind != .permissionDenied && problem.recoverable
            phase = .cameraUnavailable(problem, retryStep: step,
                                       nextTry: automatic ? now + settings.backoff.delay(step: step) : nil)
            return []
        }
    }

    /// A reopen that fails while the camera is lost keeps the loss's kind (the screen stays Connection error).
    private func lostProblem(_ problem: CameraProblem) -> CameraProblem {
        var lost = problem
        if lost.kind != .lost {
            lost.kind = .lost
        }
        return lost
    }

    private mutating func cameraLost(_ problem: CameraProblem) -> [WizardEffect] {
        switch phase {
        case .capture, .opening, .taking:
            awaitingCamera = false
            if settings.plain && !problem.recoverable {
                announcedScreen = .connectionError
                return [.emit(.screen(.connectionError)), .report(problem.message)] + finish(problem.exitCode)
            }
            phase = .cameraLost(problem, retryStep: 0,
                                nextTry: problem.recoverable ? now + settings.backoff.delay(step: 0) : nil)
            return [.stopAnalysis, .closeCamera]
        default:
            return []
        }
    }

    private mutating func frameAnalyzed(_ guidance: FrameGuidance) -> [WizardEffect] {
        guard case .capture(var progress) = phase else { return [] }
        guard !isTerminalTooSmall else {
            // Unseen, so nothing acts on it; but the camera is still sending (no "waiting" once it is seen).
            progress.lastFrameAt = now
            phase = .capture(progress)
            return []
        }
        if progress.firstFrameTime == nil { progress.firstFrameTime = guidance.time }
        progress.latest = guidance
        progress.lastFrameAt = now
        var effects: [WizardEffect] = []
        if announcedGuidance?.primary != guidance.primary || announcedGuidance?.hints != guidance.hints {
            announcedGuidance = (guidance.primary, guidance.hints)
            effects.append(.emit(.guidance(primary: guidance.primary, hints: guidance.hints)))
        }
        if progress.manualOffered == nil, let reason = guidance.manualFallback {
            progress.manualOffered = reason
        }
        if guidance.autoCapture {
            phase = .taking(.auto, manualOffered: progress.manualOffered)
            return effects + [.stopAnalysis, .takePhoto(.auto)]
        }
        phase = .capture(progress)
        return effects
    }

    private mutating func photoTaken(mode: CaptureMode, width: Int, height: Int) -> [WizardEffect] {
        guard case .taking = phase else { return [] }
        let request = ValidationRequest(attempt: attempt, isFinal: attempt >= settings.attempts)
        phase = .validating(request, progress: 0)
        announcedGuidance = nil
        return [.closeCamera, .emit(.captured(mode: mode, attempt: attempt, width: width, height: height)),
                .validate(request)]
    }

    private mutating func validation(_ outcome: ValidationOutcome) -> [WizardEffect] {
        let request: ValidationRequest
        switch phase {
        case .validating(let current, _):
            request = current
        case .serverUnreachable(_, let current, _, _, true, _), .serverRefused(_, _, let current, true):
            request = current
        default:
            return []
        }
        switch outcome {
        case .progress(let fraction):
            let clamped = min(max(fraction.isNaN ? 0 : fraction, 0), 1)
            switch phase {
            case .validating:
                phase = .validating(request, progress: clamped)
            case .serverUnreachable(let reason, _, let step, let next, _, _):
                phase = .serverUnreachable(reason: reason, request: request, retryStep: step, nextTry: next,
                                           sending: true, progress: clamped)
            default:
                break
            }
            return []
        case .verdict(let verdict):
            return verdictReceived(verdict, request: request)
        case .unreachable(let reason, let retryAfter):
            var step = 0
            if case .serverUnreachable(_, _, let previous, _, _, _) = phase { step = previous + 1 }
            let wait = max(settings.backoff.delay(step: step), min(retryAfter ?? 0, 3600))
            phase = .serverUnreachable(reason: reason, request: request, retryStep: step, nextTry: now + wait,
                                       sending: false, progress: 0)
            return []
        case .refused(let status, let message):
            phase = .serverRefused(status: status, message: message, request: request, sending: false)
            if settings.plain {
                phase = .saving(nil, then: .exit(.failure))
                let report = status > 0
                    ? Words.text(.reportRefusedHTTP, ["status": String(status), "message": message])
                    : Words.text(.reportRefused, ["message": message])
                return [.report(report), .save(nil)]
            }
            return []
        }
    }

    private mutating func verdictReceived(_ verdict: ValidationVerdict, request: ValidationRequest) -> [WizardEffect] {
        switch verdict.result {
        case .pass:
            attemptsUsed = 0
            phase = .saving(verdict, then: .success)
            return [.emit(.validation(result: .pass, reasons: verdict.reasons, attemptsLeft: settings.attempts)),
                    .save(verdict)]
        case .retry where !request.isFinal:
            attemptsUsed += 1
            phase = .retry(verdict, attemptsLeft: attemptsLeft,
                           until: settings.plain ? now + settings.plainRetryDelay : nil)
            return [.emit(.validation(result: .retry, reasons: verdict.reasons, attemptsLeft: attemptsLeft)),
                    .discardPhoto]
        case .retry, .manualReview:
            // The last attempt failed (or the checker asked for a person to look): the photo goes to manual review.
            attemptsUsed += 1
            var final = verdict
            final.result = .manualReview
            phase = .saving(final, then: .finalError)
            return [.emit(.validation(result: .manualReview, reasons: verdict.reasons, attemptsLeft: 0)),
                    .save(final)]
        }
    }

    private mutating func photoSaved(_ saved: SavedPhoto) -> [WizardEffect] {
        guard case .saving(_, let then) = phase else { return [] }
        let effects: [WizardEffect] = [.emit(.saved(saved))]
        // Plain mode shows the ending and ends at once; the full screen lets the person read it first.
        switch then {
        case .success:
            phase = .success(saved, until: now + (settings.plain ? 0 : settings.successDelay))
            return effects + [.report(Words.text(.reportSaved, ["path": saved.photoPath]))]
        case .finalError:
            phase = .finalError(saved, until: now + (settings.plain ? 0 : settings.finalErrorDelay))
            return effects + [.report(Words.text(.reportManualReview, ["path": saved.photoPath]))]
        case .exit(let code):
            return effects + [.report(Words.text(.reportNotValidated, ["path": saved.photoPath]))] + finish(code)
        }
    }

    private mutating func saveFailed(_ message: String) -> [WizardEffect] {
        guard case .saving(let verdict, let then) = phase else { return [] }
        if case .exit(let code) = then {
            // The person is already leaving: say what was lost and go.
            return [.report(Words.text(.reportNotSaved, ["reason": message]))] + finish(code)
        }
        if settings.plain {
            return [.report(Words.text(.reportNotSaved, ["reason": message]))] + finish(.failure)
        }
        phase = .saveFailed(message: message, verdict: verdict, then: then)
        return []
    }

    private mutating func stop(_ request: StopRequest) -> [WizardEffect] {
        _ = request
        switch phase {
        case .serverUnreachable(_, _, _, _, let sending, _):
            // Nothing is lost: the photo the server never saw is written before the program ends.
            phase = .saving(nil, then: .exit(.serverUnreachable))
            return (sending ? [.cancelValidation] : []) + [.save(nil)]
        case .serverRefused(_, _, _, let sending):
            // As q on that screen: the refused photo is kept on disk, as the screen promised.
            phase = .saving(nil, then: .exit(.failure))
            return (sending ? [.cancelValidation] : []) + [.save(nil)]
        case .validating where settings.usesServer:
            // The upload is abandoned, not the photo: it is written unvalidated before the program ends.
            phase = .saving(nil, then: .exit(.cancelled))
            return [.cancelValidation, .save(nil)]
        case .validating:
            return [.cancelValidation] + finish(.cancelled)
        default:
            return finish(.cancelled)
        }
    }

    private mutating func finish(_ code: ExitCode) -> [WizardEffect] {
        phase = .finished(code)
        awaitingCamera = false
        return [.stopAnalysis, .closeCamera, .emit(.exit(code)), .exit(code)]
    }

    /// A `screen` event whenever the screen's name changes.
    private mutating func announce() -> [WizardEffect] {
        if isFinished { return [] }
        if case .notStarted = phase { return [] }
        let name = screenName
        guard name != announcedScreen else { return [] }
        announcedScreen = name
        return [.emit(.screen(name))]
    }

    /// The earliest time the flow needs a `tick` to move on by itself (a timer, a countdown's end, a retry),
    /// or nil when only events can move it.
    public var nextDeadline: Double? {
        switch phase {
        case .tutorial(let until), .permissionContext(let until): return until
        case .success(_, let until), .finalError(_, let until): return until
        case .retry(_, _, let until): return until
        case .cameraUnavailable(_, _, let next), .cameraLost(_, _, let next): return awaitingCamera ? nil : next
        case .serverUnreachable(_, _, _, let next, let sending, _): return sending ? nil : next
        default: return nil
        }
    }

    /// The name of the screen the current state shows.
    public var screenName: ScreenName {
        if isTerminalTooSmall { return .terminalTooSmall }
        switch phase {
        case .notStarted, .tutorial: return .tutorial
        case .permissionContext: return .permissionContext
        case .permissionDismissed: return .permissionDismissed
        case .opening: return .capture
        case .cameraUnavailable(let problem, _, _):
            switch problem.kind {
            case .permissionDenied: return .permissionDenied
            case .busy: return .cameraBusy
            case .noCamera, .lost: return .noCamera
            }
        case .capture(let progress): return progress.manualOffered == nil ? .capture : .manualCapture
        case .taking(_, let offered): return offered == nil ? .capture : .manualCapture
        case .validating: return .uploading
        case .saving(_, let then):
            // Saving on the way out after the server could not be reached or refused: still the Connection
            // error; after an interrupted upload: still Uploading.
            if case .exit(let code) = then, code != .cancelled { return .connectionError }
            return .uploading
        case .success: return .success
        case .retry: return .retry
        case .finalError: return .finalError
        case .cameraLost, .serverUnreachable, .serverRefused: return .connectionError
        case .saveFailed: return .saveFailed
        case .finished: return announcedScreen ?? .tutorial
        }
    }
}
