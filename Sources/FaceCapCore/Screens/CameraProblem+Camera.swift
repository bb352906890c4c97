extension CameraProblem {
    /// The flow's view of a camera error: which screen, the camera layer's sentence (the one line standard
    /// error gets), and the lines the screen shows instead of it, each fact once (who owns the device, who
    /// holds it, the commands that fix it), in the current language; the error itself is kept.
    public init(_ error: CameraError) {
        switch error {
        case .permissionDenied(let path, let access):
            let group = access.fixGroup
            var details: [String]
            if let owner = access.owner, let deviceGroup = access.group, let mode = access.mode {
                details = [Words.cameraDeviceOwned(path: path, owner: owner, group: deviceGroup, mode: mode)]
            } else {
                details = [Words.cameraDevice(path: path)]
            }
            let groups = access.userGroups.isEmpty ? Words.text(.cameraGroupsNone) : Words.list(access.userGroups)
            details.append(Words.cameraYourGroups(groups: groups))
            if access.membershipPending {
                details += [Words.cameraAddedAfterLogin(group: group), "$ newgrp \(group)"]
            } else {
                details += [
                    Words.cameraFixGroup(group: group), "$ sudo usermod -aG \(group) $USER",
                    Words.text(.cameraThisTerminalOnly), "$ newgrp \(group)",
                ]
            }
            details.append(Words.cameraElsewhere(path: path))
            self.init(
                kind: .permissionDenied, message: error.message, details: details, exitCode: error.exitCode,
                error: error)
        case .busy(_, let holders):
            let details =
                holders.isEmpty
                ? [Words.text(.cameraNoHolderVisible), "$ sudo fuser -v /dev/video*"]
                : holders.map { Words.cameraInUseBy(command: $0.command, pid: String($0.pid)) }
                    + [Words.text(.cameraCloseIt)]
            self.init(kind: .busy, message: error.message, details: details, exitCode: error.exitCode, error: error)
        case .noCamera, .noSuchDevice, .notCaptureDevice, .unsupportedFormat:
            // Only the wizard can do without a camera, so only its message offers a clip.
            var fact = error.message
            if case .noCamera(let directory) = error { fact = Words.cameraNoneDetail(directory: directory) }
            self.init(
                kind: .noCamera, message: Words.cameraNoneReplayClip(message: error.message),
                details: [
                    fact, Words.text(.cameraLooksAgain),
                    Words.text(.cameraReplayRecorded), "$ facecap --input clip.y4m",
                ],
                exitCode: error.exitCode, error: error)
        case .rawBayerOnly(let camera):
            // A USB webcam plugged in, or Intel's relay started, is found by the automatic retry, which the countdown
            // says; the lines are the camera's and the fixes, short enough for 60×20.
            self.init(
                kind: .noCamera, message: error.message, details: camera.advice, exitCode: error.exitCode,
                error: error)
        case .disconnected, .stalled, .ioError, .noBandwidth, .system, .closed:
            self.init(kind: .lost, message: error.message, exitCode: error.exitCode, error: error)
        }
    }
}
