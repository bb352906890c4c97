/// Opening the camera, and what happens when it cannot be opened or stops.
extension Wizard {
    mutating func openForCapture() -> [WizardEffect] {
        if let held = holdForServerCheck() { return held }
        state = .opening
        return [.openCamera]
    }

    /// Asks for the camera again from a Camera unavailable or Connection error screen.
    mutating func reopen(_ link: CameraLink, resetSteps: Bool = false) -> [WizardEffect] {
        var link = link
        link.nextTry = nil
        link.awaitingAnswer = true
        if resetSteps { link.retryStep = 0 }
        switch state {
        case .cameraLost: state = .cameraLost(link)
        default: state = .cameraUnavailable(link)
        }
        return [.openCamera]
    }

    /// The automatic retry of an unavailable or lost camera, when its time has come.
    mutating func cameraRetryDue() -> [WizardEffect] {
        switch state {
        case .cameraUnavailable(let link), .cameraLost(let link):
            guard let next = link.nextTry, now >= next, !link.awaitingAnswer else { return [] }
            return reopen(link)
        default:
            return []
        }
    }

    /// The camera link whose `openCamera` is outstanding, if any.
    var awaitedLink: CameraLink? {
        switch state {
        case .cameraUnavailable(let link), .cameraLost(let link): return link.awaitingAnswer ? link : nil
        default: return nil
        }
    }

    mutating func cameraOpened() -> [WizardEffect] {
        if case .opening = state {} else if awaitedLink == nil { return [] }
        state = .capture(CaptureProgress())
        // A new capture announces its guidance afresh, even when it is what it was before the camera was lost.
        announced.guidance = nil
        return [.startAnalysis(captureGate)]
    }

    mutating func cameraFailed(_ problem: CameraProblem) -> [WizardEffect] {
        switch state {
        case .cameraLost(let link) where link.awaitingAnswer:
            // Still gone: wait longer before the next look. The loss keeps its kind (the screen stays
            // Connection error).
            let step = link.retryStep + 1
            var lost = problem
            lost.kind = .lost
            state = .cameraLost(
                CameraLink(
                    problem: lost, retryStep: step,
                    nextTry: problem.recoverable ? now + settings.backoff.delay(step: step) : nil))
            guard settings.plain && !problem.recoverable else { return [] }
            return [.report(.camera(problem, advice: false))] + finish(problem.exitCode)
        case .opening:
            return cameraCannotOpen(problem, step: 0)
        case .cameraUnavailable(let link) where link.awaitingAnswer:
            return cameraCannotOpen(problem, step: link.retryStep + 1)
        default:
            return []
        }
    }

    private mutating func cameraCannotOpen(_ problem: CameraProblem, step: Int) -> [WizardEffect] {
        if settings.plain {
            // A script wants the answer now, not a screen that waits for a camera to appear.
            state = .cameraUnavailable(CameraLink(problem: problem, retryStep: step, nextTry: nil))
            // No screen follows: the fix its screen would show goes in the line.
            return [.report(.camera(problem, advice: true))] + finish(problem.exitCode)
        }
        // No camera and busy are retried by themselves (hotplug, the other program quits); permission is not.
        let automatic = problem.kind != .permissionDenied && problem.recoverable
        state = .cameraUnavailable(
            CameraLink(
                problem: problem, retryStep: step,
                nextTry: automatic ? now + settings.backoff.delay(step: step) : nil))
        return []
    }

    mutating func cameraLost(_ problem: CameraProblem) -> [WizardEffect] {
        switch state {
        case .capture, .opening, .taking:
            state = .cameraLost(
                CameraLink(
                    problem: problem, retryStep: 0,
                    nextTry: problem.recoverable ? now + settings.backoff.delay(step: 0) : nil))
            if settings.plain && !problem.recoverable {
                // Nothing will bring it back and nobody waits at a screen: the Connection error the state shows is
                // announced (so the events say where the flow ended), then its line, then the end.
                return announce() + [.report(.camera(problem, advice: false))] + finish(problem.exitCode)
            }
            return [.stopAnalysis, .closeCamera]
        default:
            return []
        }
    }
}
