/// The live preview: starting the camera, guidance, manual capture, taking the photo.
extension Wizard {
    func openingScreen() -> ScreenModel {
        ScreenModel(
            name: stateName, title: Words.text(.captureTitle), picture: .livePreview(oval: .searching, stability: 0),
            primary: Words.text(.captureStarting))
    }

    func takingScreen(_ taking: Taking, now: Double) -> ScreenModel {
        var progress = CaptureProgress()
        progress.manualOffered = taking.manualOffered
        return captureScreen(progress, taking: true, now: now)
    }

    func captureScreen(_ progress: CaptureProgress, taking: Bool, now: Double) -> ScreenModel {
        // The camera stopped sending for a moment: the frozen picture's guidance is not the person's any more.
        let stalled = progress.lastFrameAt.map { now - $0 }.flatMap { $0 >= settings.staleFrameAfter ? $0 : nil }
        let latest = stalled == nil ? progress.latest : nil
        let oval: OvalState
        if taking {
            oval = .capturing
        } else if let latest, latest.hasFace, latest.primary != .noFace {
            oval = latest.primary == .ready ? .ready : .adjusting
        } else {
            oval = .searching
        }
        let stability = taking ? 1 : (latest?.stability ?? 0)
        let slight = latest?.slight ?? []
        var hints = (latest?.hints ?? []).map { Messages.guidance($0, slight: slight.contains($0)) }
        let primary: String
        var lines: [String] = []
        var countdown: String?
        if taking {
            primary = Words.text(.captureTaking)
        } else if let reason = progress.manualOffered {
            primary = Words.text(settings.plain ? .manualPromptPlain : .manualPrompt)
            if let latest {
                hints = [Messages.guidance(latest.primary, slight: slight.contains(latest.primary))] + hints.prefix(1)
            }
            switch reason {
            case .timeout:
                // Why: the live guidance, first among the hints (not repeated here).
                lines.append(Words.manualTimeout(seconds: Messages.secondsText(settings.manualAfter)))
            case .noConfidentFace:
                lines.append(Words.text(.manualNoConfidentFace))
            }
            if let stalled { countdown = Words.countdownWaitingNoPicture(seconds: String(Int(stalled))) }
        } else if let stalled {
            primary = Words.text(.captureWaiting)
            countdown = Words.countdownNoNewPicture(seconds: String(Int(stalled)))
        } else {
            primary =
                latest.map { Messages.guidance($0.primary, slight: slight.contains($0.primary)) }
                ?? Words.text(.captureLooking)
            if let start = progress.firstFrameTime, let time = latest?.time {
                let remaining = settings.manualAfter - (time - start)
                if remaining > 0 { countdown = Words.countdownManualIn(seconds: Messages.secondsText(remaining)) }
            }
        }
        let stabilityBar = stability > 0 ? ScreenProgress(fraction: stability, label: Words.text(.progressSteady)) : nil
        var model = ScreenModel(
            name: stateName,
            title: Words.text(.captureTitle), tone: oval == .ready || taking ? .good : .neutral,
            picture: .livePreview(oval: oval, stability: stability), primary: primary,
            hints: Array(hints.prefix(2)), lines: lines, progress: stabilityBar, countdown: countdown)
        if !taking, progress.manualOffered == nil, stalled == nil { model.guidance = latest?.primary }
        return model
    }
}
