import FaceCapCore

extension CameraProblem {
    /// The flow's view of a camera error: which screen, the camera layer's sentence, and the lines a screen
    /// shows under it (who owns the device, who holds it, the commands that fix it).
    public init(_ error: CameraError) {
        switch error {
        case .permissionDenied(let path, let access):
            let group = access.group.flatMap { $0 == "root" ? nil : $0 } ?? "video"
            var details = ["Device: \(path)"]
            if let owner = access.owner, let deviceGroup = access.group, let mode = access.mode {
                details.append("Owner \(owner), group \(deviceGroup), mode \(mode)")
            }
            details.append("Your groups: " + (access.userGroups.isEmpty ? "none" : access.userGroups.joined(separator: ", ")))
            if access.membershipPending {
                details += ["You were added to '\(group)' after this login: log out and back in, or run", "$ newgrp \(group)"]
            } else {
                details += ["Fix: add yourself to the '\(group)' group, then log out and back in:",
                            "$ sudo usermod -aG \(group) $USER", "or, for this terminal only:", "$ newgrp \(group)"]
            }
            details += ["Over SSH or in a container the camera must be passed through (e.g. docker run --device \(path)).",
                        "Also check the camera's privacy switch or shutter."]
            self.init(kind: .permissionDenied, message: error.message, details: details, exitCode: error.exitCode)
        case .busy(_, let holders):
            let details = holders.isEmpty ? ["No process visible to you holds it; this may show who does:",
                                             "$ sudo fuser -v /dev/video*"]
                : holders.map { "In use by \($0.command) (pid \($0.pid))" } + ["Close it; facecap tries again by itself."]
            self.init(kind: .busy, message: error.message, details: details, exitCode: error.exitCode)
        case .noCamera, .noSuchDevice, .notCaptureDevice, .unsupportedFormat:
            // Only the wizard can do without a camera, so only its message offers a clip.
            self.init(kind: .noCamera, message: error.message + "; without a camera, replay a clip: facecap --input FILE.y4m",
                      details: ["Connect a webcam; facecap looks again by itself. To list cameras:", "$ facecap devices",
                                "Without a camera, replay a recorded clip:", "$ facecap --input clip.y4m"],
                      exitCode: error.exitCode)
        case .disconnected, .stalled, .ioError, .noBandwidth, .system, .closed:
            self.init(kind: .lost, message: error.message, exitCode: error.exitCode)
        }
    }
}
