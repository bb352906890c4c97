import FaceCapCore

/// One model of every screen, with the longest texts each is likely to carry.
enum ScreenSamples {
    static func model(_ name: ScreenName, help: Bool = false) -> ScreenModel {
        let quit = KeyHelp("q", "quit"), helpKey = KeyHelp("?", "help")
        var model: ScreenModel
        switch name {
        case .tutorial:
            model = ScreenModel(
                name: name, title: "Take a selfie", picture: .tutorialIllustration,
                primary: "Let's take a photo of your face",
                lines: [
                    "• Face the camera", "• Keep a neutral expression", "• Find even light",
                    "• No hat or sunglasses",
                ], keys: [KeyHelp("Enter", "start"), quit])
        case .permissionContext:
            model = ScreenModel(
                name: name, title: "Camera access", primary: "facecap will turn on your camera",
                lines: [
                    "The camera is used only to take your selfie.",
                    "Frames stay on this machine; only the final photo is kept or sent.",
                ],
                keys: [KeyHelp("Enter", "allow"), KeyHelp("q", "decline")])
        case .permissionDenied:
            model = ScreenModel(
                name: name, title: "Camera permission denied", tone: .error,
                primary: "facecap may not open /dev/video0",
                lines: [
                    "/dev/video0 belongs to root:video (crw-rw----); you are in: alice sudo",
                    "Add yourself to the video group, then log out and back in:",
                    "$ sudo usermod -aG video $USER", "or, for this shell only:", "$ newgrp video",
                    "Over SSH or in a container: the seat's ACLs, or --device /dev/video0.",
                    "Check the camera's privacy switch or shutter too.",
                ],
                keys: [KeyHelp("r", "retry"), KeyHelp("d", "device"), quit])
        case .permissionDismissed:
            model = ScreenModel(
                name: name, title: "Camera not used", primary: "You declined the camera",
                lines: ["You can choose another device, replay a clip or quit."],
                keys: [KeyHelp("r", "ask again"), KeyHelp("d", "device"), quit])
        case .noCamera:
            model = ScreenModel(
                name: name, title: "No camera", tone: .warning, primary: "No camera found",
                lines: ["Plug in a camera; facecap looks again by itself.", "$ ls -l /dev/video*"],
                countdown: "Looking again in 2 s",
                keys: [KeyHelp("r", "retry"), KeyHelp("d", "device"), quit])
        case .cameraBusy:
            model = ScreenModel(
                name: name, title: "Camera busy", tone: .warning,
                primary: "Another program is using the camera",
                lines: [
                    "/dev/video0 is held by: firefox (pid 4242), obs (pid 4343)",
                    "Close it; facecap retries by itself.",
                ],
                keys: [KeyHelp("r", "retry"), KeyHelp("d", "device"), quit])
        case .capture:
            model = ScreenModel(
                name: name, title: "Auto capture", picture: .livePreview(oval: .ready, stability: 0.4),
                primary: "Perfect — hold still",
                hints: ["Light your face evenly", "Keep your eyes open"],
                countdown: "Manual capture in 21 s", keys: [quit, helpKey])
        case .manualCapture:
            model = ScreenModel(
                name: name, title: "Manual capture", tone: .warning,
                picture: .livePreview(oval: .adjusting, stability: 0),
                primary: "Press SPACE to take the photo",
                hints: ["Too dark — find more light", "Move closer"],
                lines: ["Auto capture could not finish: the light stayed too dim."],
                keys: [KeyHelp("SPACE", "take photo"), quit, helpKey])
        case .uploading:
            model = ScreenModel(
                name: name, title: "Checking your photo", picture: .photo,
                primary: "Checking the photo…",
                progress: ScreenProgress(fraction: 0.6, label: "Uploading 204 of 340 kB"))
        case .success:
            model = ScreenModel(
                name: name, title: "Done", tone: .good, picture: .photo, primary: "Selfie accepted",
                lines: ["Saved to facecap-out/facecap-20261129-223000.jpg"],
                countdown: "Continuing in 3 s", keys: [KeyHelp("Enter", "continue")])
        case .retry:
            model = ScreenModel(
                name: name, title: "Let's try again", tone: .warning, picture: .photo,
                primary: "The photo was not accepted",
                lines: ["Too dark — find more light", "Keep your eyes open", "2 attempts left"],
                keys: [KeyHelp("Enter", "retry"), quit])
        case .finalError:
            model = ScreenModel(
                name: name, title: "Sent for review", tone: .error,
                primary: "Your photo went to manual review",
                lines: ["A person will check it; you may continue."], countdown: "Continuing in 5 s",
                keys: [KeyHelp("Enter", "continue")])
        case .connectionError:
            model = ScreenModel(
                name: name, title: "Connection lost", tone: .error,
                primary: "Could not reach the validation server",
                lines: [
                    "https://id.example.com/v1/selfies: connection refused",
                    "Your photo is kept and will be sent again.",
                ],
                countdown: "Next try in 4 s", keys: [KeyHelp("r", "retry now"), quit])
        case .saveFailed:
            model = ScreenModel(
                name: name, title: "Could not save", tone: .error,
                primary: "The photo could not be written",
                lines: ["facecap-out: read-only file system", "The photo is kept in memory."],
                keys: [KeyHelp("r", "retry"), quit])
        case .terminalTooSmall:
            model = ScreenModel(
                name: name, title: "Terminal too small", tone: .warning,
                primary: "Make the window bigger", lines: ["facecap needs at least 60×20 cells."],
                keys: [quit])
        }
        if help {
            model.showsHelp = true
            model.helpLines = [
                "SPACE  take the photo (once offered)", "Enter  continue", "q      quit",
                "?      close this help",
            ]
        }
        return model
    }
}
