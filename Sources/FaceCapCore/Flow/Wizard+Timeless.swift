// What the reachability walk (`FlowWalk`) tells states apart by: the state itself (Hashable), with its times
// and counters set to zero, which would otherwise make every path distinct. A new case or field must be placed
// here: the switches are exhaustive.

extension Wizard.State {
    /// The state with every time, counter and fraction in it set to zero (a time that is not set stays unset).
    public var timeless: Wizard.State {
        switch self {
        case .notStarted, .permissionDismissed, .checkingServer, .opening, .finished: return self
        case .tutorial(var intro): intro.until = intro.until.zeroed; return .tutorial(intro)
        case .permissionContext(var intro): intro.until = intro.until.zeroed; return .permissionContext(intro)
        case .choosingCamera(var picker): picker.from = picker.from?.timeless; return .choosingCamera(picker)
        case .serverCheckFailed(var trouble):
            trouble.retryStep = 0
            trouble.nextTry = trouble.nextTry.zeroed
            trouble.continueAt = trouble.continueAt.zeroed
            return .serverCheckFailed(trouble)
        case .cameraUnavailable(let link): return .cameraUnavailable(link.timeless)
        case .cameraLost(let link): return .cameraLost(link.timeless)
        case .capture(var progress):
            progress.firstFrameTime = progress.firstFrameTime.zeroed
            progress.lastFrameAt = progress.lastFrameAt.zeroed
            progress.latest = progress.latest?.timeless
            return .capture(progress)
        case .taking: return self
        case .validating(var check):
            check.request.attempt = 0
            check.startedAt = 0
            check.progress = 0
            check.held = check.held?.timeless
            return .validating(check)
        case .saving: return self
        case .success(var ending): ending.until = 0; return .success(ending)
        case .finalError(var ending): ending.until = 0; return .finalError(ending)
        case .retry(var retry):
            retry.attemptsLeft = 0
            retry.until = retry.until.zeroed
            return .retry(retry)
        case .serverUnreachable(var trouble):
            trouble.request.attempt = 0
            trouble.retryStep = 0
            trouble.nextTry = 0
            trouble.progress = 0
            return .serverUnreachable(trouble)
        case .serverRefused(var refusal): refusal.request.attempt = 0; return .serverRefused(refusal)
        case .saveFailed: return self
        }
    }
}

extension Wizard.CameraLink {
    var timeless: Wizard.CameraLink {
        var link = self
        link.retryStep = 0
        link.nextTry = nextTry.zeroed
        return link
    }
}

extension FrameGuidance {
    var timeless: FrameGuidance {
        var guidance = self
        guidance.time = 0
        guidance.stability = 0
        return guidance
    }
}

extension ValidationOutcome {
    var timeless: ValidationOutcome {
        switch self {
        case .progress: return .progress(0)
        case .unreachable(let reason, let retryAfter):
            return .unreachable(reason: reason, retryAfter: retryAfter.zeroed)
        case .verdict, .refused: return self
        }
    }
}

extension Double? {
    /// Zero when set.
    fileprivate var zeroed: Double? { map { _ in 0 } }
}
