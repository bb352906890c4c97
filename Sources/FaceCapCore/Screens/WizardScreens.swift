extension Wizard {
    /// What the current state shows, at monotonic time `now` (countdowns count down to it). Each screen is
    /// built in one place (IntroScreens, CameraScreens, CaptureScreen, CheckScreens, EndScreens) that gives its
    /// words; its name is `stateName`'s; its keys are the state's bindings (Wizard+Keys.swift), so it offers what
    /// it does.
    public func screen(at now: Double) -> ScreenModel {
        var model = isTerminalTooSmall ? tooSmallScreen() : stateScreen(at: now)
        model.keys = keyHelp
        if showsHelp {
            model.showsHelp = true
            model.helpLines = Messages.helpLines(keys: model.keys)
        }
        return model
    }

    private func stateScreen(at now: Double) -> ScreenModel {
        switch state {
        case .notStarted, .tutorial: return tutorialScreen()
        case .permissionContext: return contextScreen()
        case .permissionDismissed: return dismissedScreen()
        case .opening: return openingScreen()
        case .checkingServer: return checkingServerScreen()
        case .choosingCamera(let picker): return pickerScreen(picker)
        case .serverCheckFailed(let trouble): return serverCheckFailedScreen(trouble, now: now)
        case .cameraUnavailable(let link): return unavailableScreen(link, now: now)
        case .capture(let progress): return captureScreen(progress, taking: false, now: now)
        case .taking(let taking): return takingScreen(taking, now: now)
        case .validating(let check): return checkingScreen(check, now: now)
        case .saving: return savingScreen()
        case .success(let ending): return successScreen(ending, now: now)
        case .retry(let retry): return retryScreen(retry, now: now)
        case .finalError(let ending): return finalErrorScreen(ending, now: now)
        case .cameraLost(let link): return lostScreen(link, now: now)
        case .serverUnreachable(let trouble): return unreachableScreen(trouble, now: now)
        case .serverRefused(let refusal): return refusedScreen(refusal)
        case .saveFailed(let failure): return saveFailedScreen(failure)
        case .finished: return ScreenModel(name: stateName, title: "")
        }
    }

    /// The name of the screen the state shows (the `screen` events, the walks and the README's table go by it), in
    /// one exhaustive switch: a new state does not compile until it names its screen here, with a new `ScreenName`
    /// case when it is a new screen. Each builder takes its name from here.
    var stateName: ScreenName {
        switch state {
        case .notStarted, .tutorial: return .tutorial
        case .permissionContext: return .permissionContext
        case .permissionDismissed: return .permissionDismissed
        // Still the screen d was pressed on, as far as events go: choosing is a step of it.
        case .choosingCamera(let picker): return picker.from?.problem.kind.screenName ?? .permissionDismissed
        // The wait for the pre-flight's answer and the camera's opening are the capture screen's start.
        case .checkingServer, .opening: return .capture
        case .cameraUnavailable(let link): return link.problem.kind.screenName
        case .capture(let progress): return progress.manualOffered == nil ? .capture : .manualCapture
        case .taking(let taking): return taking.manualOffered == nil ? .capture : .manualCapture
        case .validating: return .uploading
        case .saving(let saving):
            // Saving on the way out after the server could not be reached or refused: still the Connection error;
            // after an interrupted upload: still Uploading.
            if case .exit(let code) = saving.then, code != .cancelled { return .connectionError }
            return .uploading
        case .serverCheckFailed, .cameraLost, .serverUnreachable, .serverRefused: return .connectionError
        case .success: return .success
        case .retry: return .retry
        case .finalError: return .finalError
        case .saveFailed: return .saveFailed
        case .finished: return announced.screen ?? .tutorial
        }
    }

    private func tooSmallScreen() -> ScreenModel {
        let size = terminalSize ?? TerminalSize(columns: 0, rows: 0)
        return ScreenModel(
            name: .terminalTooSmall, title: Words.text(.tooSmallTitle), tone: .warning,
            lines: [
                Words.tooSmallNeeds(
                    minColumns: String(settings.minimumColumns),
                    minRows: String(settings.minimumRows), columns: String(size.columns),
                    rows: String(size.rows)),
                Words.text(.tooSmallFix),
            ])
    }
}

extension Wizard {
    /// The key bar: the help of each advertised binding, worded.
    public var keyHelp: [KeyHelp] { bindings.compactMap(\.help) }
}

extension CameraProblem.Kind {
    /// The screen a camera that cannot be used shows (the MIPI camera keeps the No camera screen's name, its event,
    /// with a title of its own).
    var screenName: ScreenName {
        switch self {
        case .permissionDenied: return .permissionDenied
        case .busy: return .cameraBusy
        case .noCamera, .lost: return .noCamera
        }
    }
}

extension KeyBinding {
    /// The key bar's entry for this binding, worded; nil for one that is not advertised.
    public var help: KeyHelp? { hint?.worded }
}

extension KeyHint {
    /// The key's name and what it does, in the current language.
    var worded: KeyHelp {
        switch key {
        case .character(let character): return KeyHelp(character, Words.text(action))
        case .named(let name): return KeyHelp(Words.text(name), Words.text(action))
        }
    }
}

/// Commands a screen shows to be typed as they are (never translated); a body line that starts with "$ ".
enum ShellCommand {
    static let replayClip = "$ facecap --input clip.y4m"
}
