/// Checking the photo (built-in or server), saving it, and stopping on a signal.
extension Wizard {
    mutating func validation(_ outcome: ValidationOutcome) -> [WizardEffect] {
        let request: ValidationRequest
        switch state {
        case .validating(let check): request = check.request
        case .serverUnreachable(let trouble) where trouble.sending: request = trouble.request
        case .serverRefused(let refusal) where refusal.sending: request = refusal.request
        default: return []
        }
        if case .validating(var check) = state, check.held == nil, !Self.isProgress(outcome),
            now < check.startedAt + minimumCheckingDisplay
        {
            // Too soon to leave the Uploading screen: the answer waits for `heldAnswerDue` (a tick acts on it).
            check.held = outcome
            check.progress = 1
            state = .validating(check)
            return []
        }
        switch outcome {
        case .progress(let fraction):
            let clamped = min(max(fraction.isNaN ? 0 : fraction, 0), 1)
            switch state {
            case .validating(var check):
                check.progress = clamped
                state = .validating(check)
            case .serverUnreachable(var trouble):
                trouble.progress = clamped
                state = .serverUnreachable(trouble)
            default:
                break
            }
            return []
        case .verdict(let verdict):
            return verdictReceived(verdict, request: request)
        case .unreachable(let reason, let retryAfter):
            var step = 0
            if case .serverUnreachable(let previous) = state { step = previous.retryStep + 1 }
            let wait = max(settings.backoff.delay(step: step), min(retryAfter ?? 0, 3600))
            state = .serverUnreachable(
                ServerTrouble(
                    reason: reason, request: request, retryStep: step,
                    nextTry: now + wait))
            return []
        case .refused(let status, let message):
            state = .serverRefused(Refusal(status: status, message: message, request: request))
            if settings.plain {
                // One line at the end: the refusal, then where the photo went.
                state = .saving(
                    Saving(verdict: nil, then: .exit(.failure), why: .refused(status: status, message: message)))
                return [.save(nil)]
            }
            return []
        }
    }

    private static func isProgress(_ outcome: ValidationOutcome) -> Bool {
        if case .progress = outcome { return true }
        return false
    }

    /// How long the Uploading screen stays up at least (none in plain mode).
    var minimumCheckingDisplay: Double { settings.plain ? 0 : settings.minimumCheckingDisplay }

    /// When a held answer is acted on.
    func heldAnswerDue(_ check: Check) -> Double? {
        check.held == nil ? nil : check.startedAt + minimumCheckingDisplay
    }

    /// A tick once the Uploading screen has been up long enough: the answer it held is acted on.
    mutating func releaseHeldAnswer(_ check: Check) -> [WizardEffect] {
        guard let held = check.held, let due = heldAnswerDue(check), now >= due else { return [] }
        var released = check
        released.held = nil
        released.startedAt = -Double.infinity
        state = .validating(released)
        return validation(held)
    }

    /// `r` or the retry timer on Cannot reach the server: the same photo, the same attempt.
    mutating func sendAgain(_ trouble: ServerTrouble) -> [WizardEffect] {
        var trouble = trouble
        trouble.sending = true
        trouble.progress = 0
        state = .serverUnreachable(trouble)
        return [.validate(trouble.request)]
    }

    private mutating func verdictReceived(_ verdict: ValidationVerdict, request: ValidationRequest) -> [WizardEffect] {
        switch verdict.result {
        case .pass:
            attempts = Attempts()
            state = .saving(Saving(verdict: verdict, then: .success))
            return [
                .emit(.validation(result: .pass, reasons: verdict.reasons, attemptsLeft: settings.attempts)),
                .save(verdict),
            ]
        case .retry where !request.isFinal:
            attempts.used += 1
            attempts.gate = CaptureGate(refusedFor: verdict.reasons)
            state = .retry(
                Retry(
                    verdict: verdict, attemptsLeft: attemptsLeft,
                    until: settings.plain ? now + settings.plainRetryDelay : nil))
            return [
                .emit(.validation(result: .retry, reasons: verdict.reasons, attemptsLeft: attemptsLeft)),
                .discardPhoto,
            ]
        case .retry, .manualReview:
            // The last attempt failed (or the checker asked for a person to look): the photo goes to manual review.
            attempts.used += 1
            var final = verdict
            final.result = .manualReview
            state = .saving(Saving(verdict: final, then: .finalError))
            return [
                .emit(.validation(result: .manualReview, reasons: verdict.reasons, attemptsLeft: 0)),
                .save(final),
            ]
        }
    }

    /// The photo is written unvalidated before the program ends with `code` (the server never saw it, or
    /// refused it, or the person stopped the upload); `why` is the line's first clause (the refusal).
    mutating func saveAndExit(_ code: ExitCode, cancelling sending: Bool, why: ReportLine? = nil) -> [WizardEffect] {
        state = .saving(Saving(verdict: nil, then: .exit(code), why: why))
        return (sending ? [.cancelValidation] : []) + [.save(nil)]
    }

    mutating func photoSaved(_ saved: SavedPhoto) -> [WizardEffect] {
        guard case .saving(let saving) = state else { return [] }
        let effects: [WizardEffect] = [.emit(.saved(saved))]
        // Plain mode shows the ending and ends at once; the full screen lets the person read it first.
        switch saving.then {
        case .success:
            state = .success(Ending(saved: saved, until: now + (settings.plain ? 0 : settings.successDelay)))
            return effects + [.report(.saved(path: saved.photoPath))]
        case .finalError:
            state = .finalError(Ending(saved: saved, until: now + (settings.plain ? 0 : settings.finalErrorDelay)))
            return effects + [.report(.manualReview(path: saved.photoPath))]
        case .exit(let code):
            return effects + [.report(.notValidated(path: saved.photoPath, why: saving.why))] + finish(code)
        }
    }

    mutating func saveFailed(_ message: String) -> [WizardEffect] {
        guard case .saving(let saving) = state else { return [] }
        if case .exit(let code) = saving.then {
            // The person is already leaving: say what was lost and go.
            return [.report(.notSaved(reason: message, why: saving.why))] + finish(code)
        }
        if settings.plain {
            return [.report(.notSaved(reason: message, why: nil))] + finish(.failure)
        }
        state = .saveFailed(SaveFailure(message: message, verdict: saving.verdict, then: saving.then))
        return []
    }

    /// `r` on Could not save the photo.
    mutating func saveAgain(_ failure: SaveFailure) -> [WizardEffect] {
        state = .saving(Saving(verdict: failure.verdict, then: failure.then))
        return [.save(failure.verdict)]
    }

    /// `q` on Could not save the photo: the photo is lost, as the key says.
    mutating func quitWithoutSaving(_ failure: SaveFailure) -> [WizardEffect] {
        let code: ExitCode
        if case .exit(let wanted) = failure.then { code = wanted } else { code = .failure }
        return [.report(.notSavedQuit(reason: failure.message))] + finish(code)
    }

    /// A signal (or q while the terminal is too small). Exhaustive, with no `default:`: a new state says here
    /// what it keeps or says on the way out.
    mutating func stop() -> [WizardEffect] {
        if case .validating(var check) = state, let held = check.held {
            // The answer is in, only held for the screen's minimum display: it is acted on first, so the files
            // and events say what the checker said (a server may have counted a pass), then the stop.
            check.held = nil
            check.startedAt = -Double.infinity
            state = .validating(check)
            return validation(held) + stop()
        }
        switch state {
        case .serverUnreachable(let trouble):
            // Nothing is lost: the photo the server never saw is written before the program ends.
            return saveAndExit(.serverUnreachable, cancelling: trouble.sending)
        case .serverRefused(let refusal):
            // As q on that screen: the refused photo is kept on disk, as the screen promised.
            return saveAndExit(
                .failure, cancelling: refusal.sending,
                why: .refused(status: refusal.status, message: refusal.message))
        case .validating where settings.usesServer:
            // The upload is abandoned, not the photo: it is written unvalidated before the program ends.
            return saveAndExit(.cancelled, cancelling: true)
        case .validating:
            return [.cancelValidation] + finish(.cancelled)
        case .serverCheckFailed(let trouble):
            return quitServerCheck(trouble, code: .cancelled)
        case .cameraUnavailable(let link), .cameraLost(let link):
            return [.report(.camera(link.problem, advice: false))] + finish(.cancelled)
        case .choosingCamera(let picker):
            return quitPicker(picker, code: .cancelled)
        case .notStarted, .tutorial, .permissionContext, .permissionDismissed, .checkingServer, .opening, .capture,
            .taking, .saving, .success, .retry, .finalError, .saveFailed, .finished:
            // Nothing to keep or say on the way out (`handle` adds the cancelled line when none was given).
            return finish(.cancelled)
        }
    }
}
