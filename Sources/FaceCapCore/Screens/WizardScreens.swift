extension Wizard {
    /// What the current state shows, at monotonic time `now` (countdowns count down to it).
    public func screen(at now: Double) -> ScreenModel {
        var model = baseScreen(at: now)
        if isTerminalTooSmall, let size = terminalSize {
            model = ScreenModel(
                name: .terminalTooSmall, title: Words.text(.tooSmallTitle), tone: .warning,
                lines: [Words.text(.tooSmallNeeds, ["minColumns": String(settings.minimumColumns),
                                                    "minRows": String(settings.minimumRows),
                                                    "columns": String(size.columns), "rows": String(size.rows)]),
                        Words.text(.tooSmallFix)],
                keys: [KeyHelp("q", Words.text(.keyQuit))])
        }
        if showsHelp {
            model.showsHelp = true
            model.helpLines = Messages.helpLines
        }
        return model
    }

    private func baseScreen(at now: Double) -> ScreenModel {
        let help = KeyHelp("?", Words.text(.keyHelp))
        switch phase {
        case .notStarted, .tutorial:
            return ScreenModel(name: .tutorial, title: Words.text(.tutorialTitle), picture: .tutorialIllustration,
                               lines: Messages.tutorialTips,
                               keys: [KeyHelp(Words.text(.keyEnter), Words.text(.keyStart)),
                                      KeyHelp("q", Words.text(.keyQuit)), help])
        case .permissionContext:
            let source: String
            switch settings.source {
            case .defaultCamera: source = Words.text(.contextTurnOnYourCamera)
            case .camera(let path): source = Words.text(.contextTurnOnCamera, ["path": path])
            case .clip(let path): source = Words.text(.contextReplayClip, ["path": path])
            }
            var lines = [source, Words.text(.contextStaysHere)]
            if let server = settings.serverURL {
                lines.append(Words.text(.contextKeptServer, ["directory": settings.outputDirectory, "server": server]))
            } else {
                lines.append(Words.text(.contextKeptLocal, ["directory": settings.outputDirectory]))
            }
            return ScreenModel(name: .permissionContext, title: Words.text(.contextTitle), lines: lines,
                               keys: [KeyHelp(Words.text(.keyEnter), Words.text(.keyTurnOnCamera)),
                                      KeyHelp("q", Words.text(.keyNoThanks)), help])
        case .permissionDismissed:
            var lines = [Words.text(.dismissedStaysOff), Words.text(.dismissedAskAgain)]
            if !settings.sourceIsClip { lines.append(Words.text(.dismissedOtherCamera)) }
            lines += [Words.text(.dismissedReplay), ShellCommand.replayClip, Words.text(.dismissedQuit)]
            return ScreenModel(name: .permissionDismissed, title: Words.text(.dismissedTitle), lines: lines,
                               keys: deviceKeys(retry: Words.text(.keyAskAgain)))
        case .opening:
            return ScreenModel(name: .capture, title: Words.text(.captureTitle),
                               picture: .livePreview(oval: .searching, stability: 0),
                               primary: Words.text(.captureStarting), keys: [KeyHelp("q", Words.text(.keyQuit)), help])
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
            return ScreenModel(name: screenName, title: Words.text(.savingTitle), picture: .photo,
                               progress: ScreenProgress(fraction: 1, label: Words.text(.progressSaving)))
        case .success(let saved, let until):
            return ScreenModel(name: .success, title: Words.text(.successTitle), tone: .good, picture: .photo,
                               lines: [Words.text(.successSavedTo, ["path": saved.photoPath]),
                                       Words.text(.successReport, ["path": saved.reportPath])],
                               countdown: Words.text(.countdownContinuing, Messages.secondsText(until - now)),
                               keys: [KeyHelp(Words.text(.keyEnter), Words.text(.keyContinue))])
        case .retry(let verdict, let left, let until):
            var lines = verdict.message.map { [$0] } ?? []
            lines += verdict.reasons.isEmpty ? [Words.text(.retryNotPassed)]
                : verdict.reasons.map(Messages.advice(forReason:))
            return ScreenModel(name: .retry, title: Words.text(.retryTitle), tone: .warning, picture: .photo,
                               primary: Words.text(.retryAttemptsLeft, count: left), lines: lines,
                               countdown: until.map { Words.text(.countdownBackToCamera, Messages.secondsText($0 - now)) },
                               keys: [KeyHelp(Words.text(.keyEnter), Words.text(.keyTryAgain)),
                                      KeyHelp("q", Words.text(.keyQuit)), help])
        case .finalError(let saved, let until):
            let lines = [Words.text(.finalNotPassed, count: settings.attempts), Words.text(.finalSubmitted),
                         Words.text(.successSavedTo, ["path": saved.photoPath])]
            return ScreenModel(name: .finalError, title: Words.text(.finalTitle), tone: .warning, picture: .photo,
                               lines: lines,
                               countdown: Words.text(.countdownContinuing, Messages.secondsText(until - now)),
                               keys: [KeyHelp(Words.text(.keyEnter), Words.text(.keyContinue))])
        case .cameraLost(let problem, _, let next):
            var lines = [problem.message] + problem.details
            let countdown: String?
            var keys = [KeyHelp("q", Words.text(.keyQuit))]
            if problem.recoverable {
                lines.append(Words.text(.lostKeepsLooking))
                countdown = next.map { Words.text(.countdownLookingAgain, Messages.secondsText($0 - now)) }
                    ?? Words.text(.countdownLookingForCamera)
                keys.insert(KeyHelp("r", Words.text(.keyLookNow)), at: 0)
            } else {
                countdown = nil
                keys.insert(KeyHelp("r", Words.text(settings.sourceIsClip ? .keyReplayClip : .keyTryAgain)), at: 0)
            }
            return ScreenModel(name: .connectionError,
                               title: Words.text(settings.sourceIsClip ? .lostTitleClip : .lostTitle),
                               tone: .error, lines: lines, countdown: countdown, keys: keys + [help])
        case .serverUnreachable(let reason, let request, _, let next, let sending, let fraction):
            return ScreenModel(
                name: .connectionError, title: Words.text(.unreachableTitle), tone: .error, picture: .photo,
                lines: [reason, Words.text(.unreachableKept, ["attempt": String(request.attempt)])],
                progress: sending ? ScreenProgress(fraction: fraction, label: Words.text(.progressSendingAgain)) : nil,
                countdown: sending ? Words.text(.countdownSendingAgainNow)
                    : Words.text(.countdownSendingAgainIn, Messages.secondsText(next - now)),
                keys: [KeyHelp("r", Words.text(.keySendNow)), KeyHelp("q", Words.text(.keyQuitPhotoSaved)), help])
        case .serverRefused(let status, let message, _, let sending):
            return ScreenModel(
                name: .connectionError, title: Words.text(.refusedTitle), tone: .error, picture: .photo,
                lines: [status > 0 ? Words.text(.refusedHTTP, ["status": String(status), "message": message]) : message,
                        Words.text(.refusedFix)],
                countdown: sending ? Words.text(.countdownSendingAgainNow) : nil,
                keys: [KeyHelp("r", Words.text(.keySendAgain)), KeyHelp("q", Words.text(.keyQuitPhotoSaved)), help])
        case .saveFailed(let message, _, _):
            return ScreenModel(name: .saveFailed, title: Words.text(.saveFailedTitle), tone: .error, picture: .photo,
                               lines: [message, Words.text(.saveFailedKept)],
                               keys: [KeyHelp("r", Words.text(.keySaveAgain)),
                                      KeyHelp("q", Words.text(.keyQuitWithoutSaving))])
        case .finished:
            return ScreenModel(name: announcedScreen ?? .tutorial, title: "")
        }
    }

    private func deviceKeys(retry: String) -> [KeyHelp] {
        var keys = [KeyHelp("r", retry)]
        if !settings.sourceIsClip { keys.append(KeyHelp("d", Words.text(.keyOtherCamera))) }
        return keys + [KeyHelp("q", Words.text(.keyQuit))]
    }

    private func unavailableScreen(_ problem: CameraProblem, next: Double?, now: Double) -> ScreenModel {
        let name: ScreenName
        let title: String
        switch problem.kind {
        case .permissionDenied:
            name = .permissionDenied
            title = Words.text(.deniedTitle)
        case .busy:
            name = .cameraBusy
            title = Words.text(.busyTitle)
        case .noCamera, .lost:
            name = .noCamera
            title = Words.text(.noCameraTitle)
        }
        let countdown: String?
        if awaitingCamera {
            countdown = Words.text(.countdownLookingForCamera)
        } else {
            countdown = next.map { Words.text(.countdownLookingAgain, Messages.secondsText($0 - now)) }
        }
        return ScreenModel(name: name, title: title, tone: .error,
                           lines: [problem.message] + problem.details, countdown: countdown,
                           keys: deviceKeys(retry: Words.text(.keyTryAgain)) + [KeyHelp("?", Words.text(.keyHelp))])
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
        var hints = (latest?.hints ?? []).map(Messages.guidance)
        let primary: String
        var lines: [String] = []
        var countdown: String?
        var keys = [KeyHelp("q", Words.text(.keyQuit)), KeyHelp("?", Words.text(.keyHelp))]
        if taking {
            primary = Words.text(.captureTaking)
        } else if let reason = progress.manualOffered {
            primary = Words.text(settings.plain ? .manualPromptPlain : .manualPrompt)
            if let latest { hints = [Messages.guidance(latest.primary)] + hints.prefix(1) }
            switch reason {
            case .timeout:
                // Why: the live guidance, first among the hints (not repeated here).
                lines.append(Words.text(.manualTimeout, Messages.secondsText(settings.manualAfter)))
            case .noConfidentFace:
                lines.append(Words.text(.manualNoConfidentFace))
            }
            if let stalled { countdown = Words.text(.countdownWaitingNoPicture, ["seconds": String(Int(stalled))]) }
            keys.insert(KeyHelp(Words.text(.keySpace), Words.text(.keyTakePhoto)), at: 0)
        } else if let stalled {
            primary = Words.text(.captureWaiting)
            countdown = Words.text(.countdownNoNewPicture, ["seconds": String(Int(stalled))])
        } else {
            primary = latest.map { Messages.guidance($0.primary) } ?? Words.text(.captureLooking)
            if let start = progress.firstFrameTime, let time = latest?.time {
                let remaining = settings.manualAfter - (time - start)
                if remaining > 0 { countdown = Words.text(.countdownManualIn, Messages.secondsText(remaining)) }
            }
        }
        let stabilityBar = stability > 0 ? ScreenProgress(fraction: stability, label: Words.text(.progressSteady)) : nil
        return ScreenModel(name: progress.manualOffered == nil ? .capture : .manualCapture,
                           title: Words.text(.captureTitle), tone: oval == .ready || taking ? .good : .neutral,
                           picture: .livePreview(oval: oval, stability: stability), primary: primary,
                           hints: Array(hints.prefix(2)), lines: lines, progress: stabilityBar, countdown: countdown,
                           keys: keys)
    }

    private func uploadingScreen(request: ValidationRequest, fraction: Double) -> ScreenModel {
        let title = Words.text(settings.usesServer ? .checkingTitleServer : .checkingTitleLocal)
        let primary = Words.text(settings.usesServer ? .checkingPrimaryServer : .checkingPrimaryLocal)
        let percent = Int((fraction * 100).rounded())
        var lines = [Words.text(.checkingAttempt, ["attempt": String(request.attempt),
                                                    "attempts": String(settings.attempts)])]
        if request.isFinal, settings.attempts > 1 { lines.append(Words.text(.checkingLastAttempt)) }
        return ScreenModel(name: .uploading, title: title, picture: .photo, primary: primary, lines: lines,
                           progress: ScreenProgress(fraction: fraction,
                                                    label: Words.text(.progressPercent, ["percent": String(percent)])))
    }
}

/// Commands a screen shows to be typed as they are (never translated); a body line that starts with "$ ".
enum ShellCommand {
    static let replayClip = "$ facecap --input clip.y4m"
}
