extension Wizard {
    /// What the current state shows, at monotonic time `now` (countdowns count down to it).
    public func screen(at now: Double) -> ScreenModel {
        var model = baseScreen(at: now)
        if isTerminalTooSmall, let size = terminalSize {
            model = ScreenModel(
                name: .terminalTooSmall, title: "Terminal too small", tone: .warning,
                lines: ["facecap needs at least \(settings.minimumColumns)×\(settings.minimumRows) characters;"
                        + " this terminal is \(size.columns)×\(size.rows).",
                        "Make the window larger, or run facecap with --plain."],
                keys: [KeyHelp("q", "quit")])
        }
        if showsHelp {
            model.showsHelp = true
            model.helpLines = Messages.helpLines
        }
        return model
    }

    private func baseScreen(at now: Double) -> ScreenModel {
        let help = KeyHelp("?", "help")
        switch phase {
        case .notStarted, .tutorial:
            return ScreenModel(name: .tutorial, title: "Take your selfie", picture: .tutorialIllustration,
                               lines: Messages.tutorialTips,
                               keys: [KeyHelp("Enter", "start"), KeyHelp("q", "quit"), help])
        case .permissionContext:
            let verb = settings.sourceIsClip ? "replay" : "turn on"
            var lines = ["facecap will \(verb) \(settings.sourceDescription) to take one photo of your face.",
                         "The live picture stays on this machine: frames are analysed in memory, never saved or sent."]
            if let server = settings.serverURL {
                lines.append("Only the final photo is kept, in \(settings.outputDirectory), and sent to \(server)"
                             + " to be checked.")
            } else {
                lines.append("Only the final photo is kept, in \(settings.outputDirectory), and checked on this machine.")
            }
            return ScreenModel(name: .permissionContext, title: "facecap needs your camera", lines: lines,
                               keys: [KeyHelp("Enter", "turn on the camera"), KeyHelp("q", "no thanks"), help])
        case .permissionDismissed:
            var lines = ["The camera stays off. You can still:", "press r to be asked again"]
            if !settings.sourceIsClip { lines.append("press d to use another camera") }
            lines += ["replay a recorded clip instead:", "$ facecap --input clip.y4m", "press q to quit"]
            return ScreenModel(name: .permissionDismissed, title: "Camera not turned on", lines: lines,
                               keys: deviceKeys(retry: "ask again"))
        case .opening:
            return ScreenModel(name: .capture, title: "Taking your selfie",
                               picture: .livePreview(oval: .searching, stability: 0),
                               primary: "Starting the camera…", keys: [KeyHelp("q", "quit"), help])
        case .cameraUnavailable(let problem, _, let next):
            return unavailableScreen(problem, next: next, now: now)
        case .capture(let progress):
            return captureScreen(progress, taking: false, now: now)
        case .taking(_, let offered):
            var progress = CaptureProgress()
            progress.manualOffered = offered
            return captureScreen(progress, taking: true, now: now)
        case .validating(let request, let fraction):
            return uploadingScreen(request: request, fraction: fraction)
        case .saving:
            return ScreenModel(name: screenName, title: "Saving your photo", picture: .photo,
                               progress: ScreenProgress(fraction: 1, label: "Saving"))
        case .success(let saved, let until):
            return ScreenModel(name: .success, title: "Selfie accepted", tone: .good, picture: .photo,
                               lines: ["Saved to \(saved.photoPath)", "Report: \(saved.reportPath)"],
                               countdown: "Continuing in \(Messages.seconds(until - now)) s",
                               keys: [KeyHelp("Enter", "continue")])
        case .retry(let verdict, let left, let until):
            var lines = verdict.message.map { [$0] } ?? []
            lines += verdict.reasons.isEmpty ? ["The photo did not pass the check."]
                : verdict.reasons.map(Messages.advice(forReason:))
            return ScreenModel(name: .retry, title: "Let's take another photo", tone: .warning, picture: .photo,
                               primary: "\(Messages.attempts(left)) left", lines: lines,
                               countdown: until.map { "Back to the camera in \(Messages.seconds($0 - now)) s" },
                               keys: [KeyHelp("Enter", "try again"), KeyHelp("q", "quit"), help])
        case .finalError(let saved, let until):
            var lines = ["The photo did not pass the automatic check after \(Messages.attempts(settings.attempts)).",
                         "It was submitted for review by a person: you may continue."]
            lines.append("Saved to \(saved.photoPath)")
            return ScreenModel(name: .finalError, title: "Sent for manual review", tone: .warning, picture: .photo,
                               lines: lines,
                               countdown: "Continuing in \(Messages.seconds(until - now)) s",
                               keys: [KeyHelp("Enter", "continue")])
        case .cameraLost(let problem, _, let next):
            var lines = [problem.message] + problem.details
            let countdown: String?
            var keys = [KeyHelp("q", "quit")]
            if problem.recoverable {
                lines.append("facecap keeps looking for the camera and goes on by itself when it is back.")
                countdown = next.map { "Looking again in \(Messages.seconds($0 - now)) s" } ?? "Looking for the camera…"
                keys.insert(KeyHelp("r", "look now"), at: 0)
            } else {
                countdown = nil
                keys.insert(KeyHelp("r", settings.sourceIsClip ? "replay the clip" : "try again"), at: 0)
            }
            return ScreenModel(name: .connectionError,
                               title: settings.sourceIsClip ? "The clip ended" : "Camera connection lost",
                               tone: .error, lines: lines, countdown: countdown, keys: keys + [help])
        case .serverUnreachable(let reason, let request, _, let next, let sending, let fraction):
            return ScreenModel(
                name: .connectionError, title: "Cannot reach the server", tone: .error, picture: .photo,
                lines: [reason, "Your photo is kept and will be sent again as attempt \(request.attempt);"
                        + " no attempt is used up."],
                progress: sending ? ScreenProgress(fraction: fraction, label: "Sending again") : nil,
                countdown: sending ? "Sending again…" : "Sending again in \(Messages.seconds(next - now)) s",
                keys: [KeyHelp("r", "send now"), KeyHelp("q", "quit (the photo is saved here)"), help])
        case .serverRefused(let status, let message, _, let sending):
            return ScreenModel(
                name: .connectionError, title: "The server refused the photo", tone: .error, picture: .photo,
                lines: [status > 0 ? "HTTP \(status): \(message)" : message, "Your photo is kept. Fix the problem (e.g. FACECAP_TOKEN), then"
                        + " press r to send it again."],
                countdown: sending ? "Sending again…" : nil,
                keys: [KeyHelp("r", "send again"), KeyHelp("q", "quit (the photo is saved here)"), help])
        case .saveFailed(let message, _, _):
            return ScreenModel(name: .saveFailed, title: "Could not save the photo", tone: .error, picture: .photo,
                               lines: [message, "The photo is kept in memory: fix the problem, then press r to save"
                                       + " it again."],
                               keys: [KeyHelp("r", "save again"), KeyHelp("q", "quit without saving")])
        case .finished:
            return ScreenModel(name: announcedScreen ?? .tutorial, title: "")
        }
    }

    private func deviceKeys(retry: String) -> [KeyHelp] {
        var keys = [KeyHelp("r", retry)]
        if !settings.sourceIsClip { keys.append(KeyHelp("d", "other camera")) }
        return keys + [KeyHelp("q", "quit")]
    }

    private func unavailableScreen(_ problem: CameraProblem, next: Double?, now: Double) -> ScreenModel {
        let name: ScreenName
        let title: String
        switch problem.kind {
        case .permissionDenied:
            name = .permissionDenied
            title = "Camera access denied"
        case .busy:
            name = .cameraBusy
            title = "The camera is in use"
        case .noCamera, .lost:
            name = .noCamera
            title = "No camera found"
        }
        let countdown: String?
        if awaitingCamera {
            countdown = "Looking for the camera…"
        } else {
            countdown = next.map { "Looking again in \(Messages.seconds($0 - now)) s" }
        }
        return ScreenModel(name: name, title: title, tone: .error,
                           lines: [problem.message] + problem.details, countdown: countdown,
                           keys: deviceKeys(retry: "try again") + [KeyHelp("?", "help")])
    }

    private func captureScreen(_ progress: CaptureProgress, taking: Bool, now: Double) -> ScreenModel {
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
        var keys = [KeyHelp("q", "quit"), KeyHelp("?", "help")]
        if taking {
            primary = "Taking the photo…"
        } else if let reason = progress.manualOffered {
            primary = settings.plain ? "Press SPACE, or type capture and Enter, to take the photo"
                : "Press SPACE to take the photo"
            if let latest {
                hints = [Messages.guidance(latest.primary, slight: slight.contains(latest.primary))] + hints.prefix(1)
            }
            switch reason {
            case .timeout:
                // Why: the live guidance, first among the hints (not repeated here).
                lines.append("Auto capture did not finish in \(Messages.seconds(settings.manualAfter)) s.")
            case .noConfidentFace:
                lines.append("No face was found clearly enough for auto capture.")
            }
            if let stalled { countdown = "Waiting for the camera: no new picture for \(Int(stalled)) s" }
            keys.insert(KeyHelp("SPACE", "take photo"), at: 0)
        } else if let stalled {
            primary = "Waiting for the camera…"
            countdown = "No new picture for \(Int(stalled)) s"
        } else {
            primary = latest.map { Messages.guidance($0.primary, slight: slight.contains($0.primary)) }
                ?? "Looking for your face…"
            if let start = progress.firstFrameTime, let time = latest?.time {
                let remaining = settings.manualAfter - (time - start)
                if remaining > 0 { countdown = "Manual capture in \(Messages.seconds(remaining)) s" }
            }
        }
        let stabilityBar = stability > 0 ? ScreenProgress(fraction: stability, label: "Steady") : nil
        return ScreenModel(name: progress.manualOffered == nil ? .capture : .manualCapture,
                           title: "Taking your selfie", tone: oval == .ready || taking ? .good : .neutral,
                           picture: .livePreview(oval: oval, stability: stability), primary: primary,
                           hints: Array(hints.prefix(2)), lines: lines, progress: stabilityBar, countdown: countdown,
                           keys: keys)
    }

    private func uploadingScreen(request: ValidationRequest, fraction: Double) -> ScreenModel {
        let what = settings.usesServer ? "Sending your photo" : "Checking your photo"
        let percent = Int((fraction * 100).rounded())
        var lines = ["Attempt \(request.attempt) of \(settings.attempts)"]
        if request.isFinal, settings.attempts > 1 { lines.append("This is the last attempt.") }
        return ScreenModel(name: .uploading, title: what, picture: .photo, primary: what + "…", lines: lines,
                           progress: ScreenProgress(fraction: fraction, label: "\(percent) %"))
    }
}
