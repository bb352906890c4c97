extension CameraProblem {
    /// The flow's view of a camera error: which screen, the camera layer's sentence, and the lines a screen
    /// shows under it (who owns the device, who holds it, the commands that fix it), in the current language;
    /// the error itself is kept.
    public init(_ error: CameraError) {
        switch error {
        case .permissionDenied(let path, let access):
            let group = access.fixGroup
            var details = [Words.text(.cameraDevice, ["path": path])]
            if let owner = access.owner, let deviceGroup = access.group, let mode = access.mode {
                details.append(Words.text(.cameraOwner, ["owner": owner, "group": deviceGroup, "mode": mode]))
            }
            let groups = access.userGroups.isEmpty ? Words.text(.cameraGroupsNone) : access.userGroups.joined(separator: ", ")
            details.append(Words.text(.cameraYourGroups, ["groups": groups]))
            if access.membershipPending {
                details += [Words.text(.cameraAddedAfterLogin, ["group": group]), "$ newgrp \(group)"]
            } else {
                details += [Words.text(.cameraFixGroup, ["group": group]), "$ sudo usermod -aG \(group) $USER",
                            Words.text(.cameraThisTerminalOnly), "$ newgrp \(group)"]
            }
            details += [Words.text(.cameraPassThrough, ["path": path]), Words.text(.cameraShutter)]
            self.init(kind: .permissionDenied, message: error.message, details: details, exitCode: error.exitCode, error: error)
        case .busy(_, let holders):
            let details = holders.isEmpty ? [Words.text(.cameraNoHolderVisible), "$ sudo fuser -v /dev/video*"]
                : holders.map { Words.text(.cameraInUseBy, ["command": $0.command, "pid": String($0.pid)]) }
                    + [Words.text(.cameraCloseIt)]
            self.init(kind: .busy, message: error.message, details: details, exitCode: error.exitCode, error: error)
        case .noCamera, .noSuchDevice, .notCaptureDevice, .unsupportedFormat:
            // Only the wizard can do without a camera, so only its message offers a clip (once: not again below).
            self.init(kind: .noCamera, message: Words.text(.cameraNoneReplayClip, ["message": error.message]),
                      details: [Words.text(.cameraConnectWebcam), "$ facecap devices"],
                      exitCode: error.exitCode, error: error)
        case .disconnected, .stalled, .ioError, .noBandwidth, .system, .closed:
            self.init(kind: .lost, message: error.message, exitCode: error.exitCode, error: error)
        }
    }
}
