/// The capture screen: frames analysed, the photo taken.
extension Wizard {
    mutating func frameAnalyzed(_ analysed: FrameGuidance) -> [WizardEffect] {
        guard case .capture(var progress) = state else { return [] }
        let guidance = analysed.said
        guard !isTerminalTooSmall, !showsHelp else {
            // Unseen (too small a terminal) or paused (the help is open), so nothing acts on it: no capture, no
            // countdown; but the camera is still sending (no "waiting" once it is seen). The capture starts over
            // when the screen is seen again.
            progress.lastFrameAt = now
            state = .capture(progress)
            return []
        }
        if progress.firstFrameTime == nil { progress.firstFrameTime = guidance.time }
        progress.latest = guidance
        progress.lastFrameAt = now
        var effects: [WizardEffect] = []
        let said = AnnouncedGuidance(primary: guidance.primary, hints: guidance.hints, slight: guidance.saidSlight)
        if announced.guidance != said {
            announced.guidance = said
            effects.append(.emit(.guidance(primary: guidance.primary, hints: guidance.hints, slight: said.slight)))
        }
        if progress.manualOffered == nil, let reason = guidance.manualFallback {
            progress.manualOffered = reason
        }
        if guidance.autoCapture {
            state = .taking(Taking(mode: .auto, manualOffered: progress.manualOffered))
            return effects + [.stopAnalysis, .takePhoto(.auto)]
        }
        state = .capture(progress)
        return effects
    }

    /// SPACE once manual capture is offered.
    mutating func takeManualPhoto(_ progress: CaptureProgress) -> [WizardEffect] {
        guard let offered = progress.manualOffered else { return [] }
        state = .taking(Taking(mode: .manual, manualOffered: offered))
        return [.stopAnalysis, .takePhoto(.manual)]
    }

    mutating func photoTaken(mode: CaptureMode, width: Int, height: Int) -> [WizardEffect] {
        guard case .taking = state else { return [] }
        let request = currentRequest
        state = .validating(Check(request: request, startedAt: now))
        announced.guidance = nil
        return [
            .closeCamera, .emit(.captured(mode: mode, attempt: attempt, width: width, height: height)),
            .validate(request),
        ]
    }

    /// Nothing to keep (no frame yet): back to capture, guidance goes on.
    mutating func photoFailed() -> [WizardEffect] {
        guard case .taking(let taking) = state else { return [] }
        var progress = CaptureProgress()
        progress.manualOffered = taking.manualOffered
        state = .capture(progress)
        return [.startAnalysis(captureGate)]
    }
}
