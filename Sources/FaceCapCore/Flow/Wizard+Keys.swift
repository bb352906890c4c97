/// What a key does on a screen.
public enum KeyAction: Sendable, Equatable {
    /// Leave the tutorial for the camera question.
    case start
    /// Turn the camera on (the context screen's Enter).
    case turnOnCamera
    /// Decline the camera question.
    case decline
    /// Be asked again after declining.
    case askAgain
    /// Open the camera again now (Camera unavailable, Connection error, Retry).
    case tryAgain
    /// Show the capture devices to choose from.
    case otherCamera
    /// Open the camera with this number in the picker.
    case pickCamera(Int)
    /// Leave the picker for the screen it was opened from.
    case back
    /// List the capture devices again.
    case lookAgain
    /// Take the photo once manual capture is offered.
    case takePhoto
    /// Leave a screen that ends the run (Success, Final error).
    case finish
    /// Send the kept photo again (Cannot reach the server, The server refused the photo).
    case sendAgain
    /// Write the kept photo again (Could not save the photo).
    case saveAgain
    /// Type another folder to save the photo in (Could not save the photo).
    case chooseFolder
    /// End the run from this screen (what the end means depends on the screen: the photo may be saved first).
    case quit
    /// Open the camera without a server that answered the pre-flight (the photo is sent once it does).
    case continueWithoutServer
    /// Open or close the `?` help.
    case toggleHelp
    /// End as an interrupt would (q while the terminal is too small: the screen behind is not seen).
    case interrupt
}

/// A key as the key bar names it: the character itself ("q", "1–3"), or a key whose name is worded (Enter,
/// SPACE, Esc).
public enum KeyLabel: Sendable, Equatable {
    case character(String)
    case named(MessageID)
}

/// What a binding advertises, as ids: the screens word it (`KeyBinding.help`, Screens/WizardScreens.swift).
public struct KeyHint: Sendable, Equatable {
    public var key: KeyLabel
    public var action: MessageID

    /// A key named by its character.
    public init(_ key: String, _ action: MessageID) {
        self.key = .character(key)
        self.action = action
    }

    /// A key whose name is worded.
    public init(_ key: MessageID, _ action: MessageID) {
        self.key = .named(key)
        self.action = action
    }
}

/// One key binding: the keys, the hint a screen shows for them (none for an alias), and what they do. A
/// screen's key bar and its `?` help are made from its bindings, so what a screen offers is what it does
/// (bubbles' `key.Binding`).
public struct KeyBinding: Sendable, Equatable {
    public var keys: [Key]
    /// Shown in the key bar; nil for a binding that works but is not advertised (Esc for q, y and n).
    public var hint: KeyHint?
    public var action: KeyAction

    public init(_ keys: [Key], _ hint: KeyHint?, _ action: KeyAction) {
        self.keys = keys
        self.hint = hint
        self.action = action
    }
}

extension Wizard {
    /// The bindings of the current state, in key-bar order.
    public var bindings: [KeyBinding] {
        if isTerminalTooSmall {
            // The screen behind is hidden: no key may act on it (pass the camera question, take a photo).
            return [KeyBinding([.character("q"), .escape], KeyHint("q", .keyQuit), .interrupt)]
        }
        if case .saveFailed(let failure) = state, failure.folder != nil {
            // Typing: the keys are the field's (Wizard+SaveFolder.swift); these are only what the bar shows.
            return [
                KeyBinding([.enter], KeyHint(.keyEnter, .keySaveHere), .saveAgain),
                KeyBinding([.escape], KeyHint(.keyEscape, .keyBack), .saveAgain),
            ]
        }
        var list = stateBindings
        if !settings.plain, !list.isEmpty {
            list.append(KeyBinding([.character("?")], KeyHint("?", .keyHelp), .toggleHelp))
        }
        return list
    }

    /// The state's own bindings, before `?` (none while the photo is checked: Ctrl-C, a signal, still stops).
    /// A save failure with its folder field open never reaches here: `bindings` answers for it first.
    private var stateBindings: [KeyBinding] {
        switch state {
        case .notStarted, .finished, .saving, .validating:
            return []
        case .taking:
            // The photo is being encoded: nothing may cut it short.
            return []
        case .choosingCamera(let picker):
            return pickerBindings(picker)
        case .opening, .checkingServer:
            return [quitBinding(.keyQuit)]
        case .serverCheckFailed(let trouble):
            return serverCheckBindings(trouble)
        case .tutorial:
            return [KeyBinding([.enter, .space], KeyHint(.keyEnter, .keyStart), .start), quitBinding(.keyQuit)]
        case .permissionContext:
            return permissionBindings
        case .permissionDismissed:
            return [KeyBinding([.character("r"), .character("R"), .enter], KeyHint("r", .keyAskAgain), .askAgain)]
                + otherCameraBinding + [quitBinding(.keyQuit)]
        case .cameraUnavailable(let link):
            return unavailableBindings(link)
        case .cameraLost(let link):
            return lostBindings(link)
        case .capture(let progress):
            let take = KeyBinding([.space], KeyHint(.keySpace, .keyTakePhoto), .takePhoto)
            return (progress.manualOffered != nil ? [take] : []) + [quitBinding(.keyQuit)]
        case .success, .finalError:
            return [
                KeyBinding(
                    [.enter, .space, .character("q"), .escape], KeyHint(.keyEnter, .keyContinue),
                    .finish)
            ]
        case .retry:
            return [
                KeyBinding(
                    [.enter, .space, .character("r"), .character("R")], KeyHint(.keyEnter, .keyTryAgain),
                    .tryAgain),
                quitBinding(.keyQuit),
            ]
        case .serverUnreachable(let trouble):
            return sendingBindings(trouble.sending, send: .keySendNow)
        case .serverRefused(let refusal):
            return sendingBindings(refusal.sending, send: .keySendAgain)
        case .saveFailed:
            return saveFailedBindings
        }
    }

    /// A kept photo the server did not take: send it (`send` words r; not while it is on its way), or quit, the photo
    /// saved.
    private func sendingBindings(_ sending: Bool, send: MessageID) -> [KeyBinding] {
        (sending ? [] : [KeyBinding([.character("r"), .character("R")], KeyHint("r", send), .sendAgain)])
            + [quitBinding(.keyQuitPhotoSaved)]
    }

    /// The camera's question: turn it on (or play the clip), or decline.
    private var permissionBindings: [KeyBinding] {
        [
            KeyBinding(
                [.enter, .character("y")],
                KeyHint(.keyEnter, settings.sourceIsClip ? .keyPlayClip : .keyTurnOnCamera), .turnOnCamera),
            KeyBinding([.character("q"), .escape, .character("n")], KeyHint("q", .keyNoThanks), .decline),
        ]
    }

    /// A camera that could not be opened: try again (not while the system's answer is awaited), another, quit.
    private func unavailableBindings(_ link: CameraLink) -> [KeyBinding] {
        link.awaitingAnswer
            ? [quitBinding(.keyQuit)]
            : [KeyBinding([.character("r"), .character("R"), .enter], KeyHint("r", .keyTryAgain), .tryAgain)]
                + otherCameraBinding + [quitBinding(.keyQuit)]
    }

    /// A camera lost during capture: look now (a recoverable problem), replay the clip or try again; quit.
    private func lostBindings(_ link: CameraLink) -> [KeyBinding] {
        let look =
            link.problem.recoverable
            ? MessageID.keyLookNow
            : settings.sourceIsClip ? .keyReplayClip : .keyTryAgain
        return
            (link.awaitingAnswer
            ? []
            : [
                KeyBinding(
                    [.character("r"), .character("R")], KeyHint("r", look),
                    .tryAgain)
            ])
            + [quitBinding(.keyQuit)]
    }

    /// The camera picker's: a number per camera (shown as one range) and r once the cameras are listed, then back
    /// and quit.
    private func pickerBindings(_ picker: CameraPicker) -> [KeyBinding] {
        var list: [KeyBinding] = []
        if picker.choices != nil {
            let count = picker.numbered.count
            if picker.hasOther {
                // One binding a number; the key bar shows them as one range.
                let label = count == 1 ? "1" : "1–\(count)"
                for number in 1...count {
                    list.append(
                        KeyBinding(
                            [.character(Character(String(number)))],
                            number == 1 ? KeyHint(label, .keyChooseCamera) : nil,
                            .pickCamera(number)))
                }
            }
            list.append(
                KeyBinding(
                    [.character("r"), .character("R")], KeyHint("r", .keyLookAgain),
                    .lookAgain))
        }
        return list + [
            KeyBinding([.escape, .character("b")], KeyHint(.keyEscape, .keyBack), .back),
            KeyBinding([.character("q")], KeyHint("q", .keyQuit), .quit),
        ]
    }

    /// The server check's failure: quit only while checking again, else check again, take the photo anyway when
    /// the trouble may pass, and quit.
    private func serverCheckBindings(_ trouble: ServerCheckTrouble) -> [KeyBinding] {
        if trouble.checking { return [quitBinding(.keyQuit)] }
        return [KeyBinding([.character("r"), .character("R"), .enter], KeyHint("r", .keyCheckAgain), .tryAgain)]
            + (trouble.isTransient
                ? [
                    KeyBinding(
                        [.character("c"), .character("C")],
                        KeyHint("c", .keyTakePhotoAnyway), .continueWithoutServer)
                ] : [])
            + [quitBinding(.keyQuit)]
    }

    private var saveFailedBindings: [KeyBinding] {
        [
            KeyBinding([.character("r"), .character("R"), .enter], KeyHint("r", .keySaveAgain), .saveAgain),
            KeyBinding([.character("o"), .character("O")], KeyHint("o", .keySaveElsewhere), .chooseFolder),
            quitBinding(.keyQuitWithoutSaving),
        ]
    }

    private func quitBinding(_ words: MessageID) -> KeyBinding {
        KeyBinding([.character("q"), .escape], KeyHint("q", words), .quit)
    }

    private var otherCameraBinding: [KeyBinding] {
        settings.sourceIsClip
            ? []
            : [
                KeyBinding(
                    [.character("d")], KeyHint("d", .keyOtherCamera),
                    .otherCamera)
            ]
    }

    mutating func press(_ key: Key) -> [WizardEffect] {
        if case .saveFailed(let failure) = state, let folder = failure.folder, !isTerminalTooSmall {
            return typeFolder(key, into: folder, failure)
        }
        let binding = bindings.first { $0.keys.contains(key) }
        if let help = helpOverlay {
            // Any key closes the overlay; q still quits (from the capture nothing is resumed first).
            guard key == .character("q"), let binding else { return closeHelp() }
            helpOverlay = nil
            let effects = perform(binding.action)
            return effects + (isFinished ? [] : resume(after: help))
        }
        guard let binding else { return [] }
        return perform(binding.action)
    }

    /// Closes the `?` help; a capture it paused starts over.
    mutating func closeHelp() -> [WizardEffect] {
        guard let help = helpOverlay else { return [] }
        helpOverlay = nil
        return resume(after: help)
    }

    /// While the help is open over the capture, frames are shown but nothing acts on them (no auto capture, no
    /// countdown): the capture starts over once the person sees it again, as after a terminal too small.
    private mutating func resume(after help: HelpOverlay) -> [WizardEffect] {
        guard help.over.isCapture, case .capture(let progress) = state else { return [] }
        var fresh = CaptureProgress()
        fresh.manualOffered = progress.manualOffered
        state = .capture(fresh)
        return [.startAnalysis(captureGate)]
    }

    /// What `action` does in the current state (only actions the state binds arrive here).
    private mutating func perform(_ action: KeyAction) -> [WizardEffect] {
        switch (action, state) {
        case (.toggleHelp, _):
            // Only opens: with the help open, any key closes it (`press`).
            helpOverlay = HelpOverlay(over: screenName)
            return []
        case (.interrupt, _):
            return stop()
        case (.quit, .cameraUnavailable(let link)), (.quit, .cameraLost(let link)):
            // The screen is gone once the program ends: its one-line summary stays on standard error.
            return [.report(.camera(link.problem, advice: false))] + finish(link.problem.exitCode)
        case (.quit, .serverUnreachable(let trouble)):
            return saveAndExit(.serverUnreachable, cancelling: trouble.sending)
        case (.quit, .serverRefused(let refusal)):
            return saveAndExit(
                .failure, cancelling: refusal.sending, why: .refused(status: refusal.status, message: refusal.message))
        case (.quit, .saveFailed(let failure)):
            return quitWithoutSaving(failure)
        case (.quit, .serverCheckFailed(let trouble)):
            return quitServerCheck(trouble)
        case (.quit, .choosingCamera(let picker)):
            return quitPicker(picker)
        case (.quit, _):
            return finish(.cancelled)
        case (.start, _):
            state = .permissionContext(Intro(until: nil))
            return []
        case (.turnOnCamera, _):
            return openForCapture()
        case (.decline, _):
            state = .permissionDismissed
            return []
        case (.askAgain, _):
            // Asked again, as the screen says: the person reads what the camera is for before it turns on.
            state = .permissionContext(Intro(until: nil))
            return []
        case (.otherCamera, .cameraUnavailable(let link)):
            return openPicker(from: link)
        case (.otherCamera, _):
            return openPicker(from: nil)
        case (.pickCamera(let number), .choosingCamera(let picker)):
            return pickCamera(number, in: picker)
        case (.back, .choosingCamera(let picker)):
            return leavePicker(picker)
        case (.lookAgain, .choosingCamera(let picker)):
            return relistCameras(picker)
        case (.tryAgain, .cameraUnavailable(let link)), (.tryAgain, .cameraLost(let link)):
            return reopen(link)
        case (.tryAgain, .serverCheckFailed(let trouble)):
            return checkServerAgain(trouble)
        case (.continueWithoutServer, _):
            return continueWithoutServerCheck()
        case (.tryAgain, _):
            return openForCapture()
        case (.takePhoto, .capture(let progress)):
            return takeManualPhoto(progress)
        case (.finish, .success):
            return finish(.success)
        case (.finish, .finalError):
            return finish(.manualReview)
        case (.sendAgain, .serverUnreachable(var trouble)):
            trouble.nextTry = now
            return sendAgain(trouble)
        case (.sendAgain, .serverRefused(var refusal)):
            refusal.sending = true
            state = .serverRefused(refusal)
            return [.validate(refusal.request)]
        case (.saveAgain, .saveFailed(let failure)):
            return saveAgain(failure)
        case (.chooseFolder, .saveFailed(var failure)):
            failure.folder = ""
            state = .saveFailed(failure)
            helpOverlay = nil
            return []
        case (.takePhoto, _), (.finish, _), (.sendAgain, _), (.saveAgain, _), (.pickCamera, _), (.back, _),
            (.lookAgain, _), (.chooseFolder, _):
            // `bindings` offers these only in the states above: anything else is a bug in the key map.
            preconditionFailure()
        }
    }
}
