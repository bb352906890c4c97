/// A capture device the person may switch to (key d), as `facecap devices` lists it.
public struct CameraChoice: Sendable, Hashable {
    public var path: String
    /// What it is ("Integrated Camera (uvcvideo, usb-0000:00:14.0-5)"), or why it cannot be used.
    public var description: String
    /// The device the wizard tried last.
    public var isCurrent: Bool

    public init(path: String, description: String, isCurrent: Bool = false) {
        self.path = path
        self.description = description
        self.isCurrent = isCurrent
    }
}

/// Key d: a picker over the capture devices, or a screen that says there is no other camera.
extension Wizard {
    public struct CameraPicker: Sendable, Hashable {
        /// Nil while the devices are listed (`listCameras` is outstanding).
        public var choices: [CameraChoice]?
        /// The screen d was pressed on: a camera that cannot be used, or nil for the declined camera question.
        public var from: CameraLink?

        /// At most nine, one digit each.
        public var numbered: [CameraChoice] { Array((choices ?? []).prefix(9)) }

        /// There is a device to switch to.
        public var hasOther: Bool { numbered.contains { !$0.isCurrent } }
    }

    mutating func openPicker(from link: CameraLink?) -> [WizardEffect] {
        var from = link
        from?.nextTry = nil
        from?.awaitingAnswer = false
        state = .choosingCamera(CameraPicker(choices: nil, from: from))
        return [.listCameras]
    }

    mutating func camerasListed(_ choices: [CameraChoice]) -> [WizardEffect] {
        guard case .choosingCamera(var picker) = state, picker.choices == nil else { return [] }
        picker.choices = choices
        state = .choosingCamera(picker)
        return []
    }

    /// r on the picker: list the devices again (one was plugged in).
    mutating func relistCameras(_ picker: CameraPicker) -> [WizardEffect] {
        var picker = picker
        picker.choices = nil
        state = .choosingCamera(picker)
        return [.listCameras]
    }

    mutating func pickCamera(_ number: Int, in picker: CameraPicker) -> [WizardEffect] {
        let choices = picker.numbered
        guard choices.indices.contains(number - 1) else { return [] }
        // Choosing a camera is the consent the declined question asked for.
        return [.chooseCamera(choices[number - 1].path)] + openForCapture()
    }

    /// Esc: back to the screen d was pressed on, its automatic retry started again.
    mutating func leavePicker(_ picker: CameraPicker) -> [WizardEffect] {
        guard var link = picker.from else {
            state = .permissionDismissed
            return []
        }
        let automatic = link.problem.kind != .permissionDenied && link.problem.recoverable && !settings.plain
        link.nextTry = automatic ? now + settings.backoff.delay(step: link.retryStep) : nil
        state = .cameraUnavailable(link)
        return []
    }

    /// q on the picker: as q on the screen it was opened from.
    mutating func quitPicker(_ picker: CameraPicker, code: ExitCode? = nil) -> [WizardEffect] {
        guard let link = picker.from else { return finish(code ?? .cancelled) }
        return [.report(.camera(link.problem, advice: false))] + finish(code ?? link.problem.exitCode)
    }
}
