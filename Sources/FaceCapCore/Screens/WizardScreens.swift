extension Wizard {
    /// What the current state shows, at monotonic time `now` (countdowns count down to it). Each screen is
    /// built in one place (IntroScreens, CameraScreens, CaptureScreen, CheckScreens, EndScreens) that gives its
    /// name and words; its keys are the state's bindings (Wizard+Keys.swift), so it offers what it does.
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
        case .saving(let saving): return savingScreen(saving)
        case .success(let ending): return successScreen(ending, now: now)
        case .retry(let retry): return retryScreen(retry, now: now)
        case .finalError(let ending): return finalErrorScreen(ending, now: now)
        case .cameraLost(let link): return lostScreen(link, now: now)
        case .serverUnreachable(let trouble): return unreachableScreen(trouble, now: now)
        case .serverRefused(let refusal): return refusedScreen(refusal)
        case .saveFailed(let failure): return saveFailedScreen(failure)
        case .finished: return ScreenModel(name: announced.screen ?? .tutorial, title: "")
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
