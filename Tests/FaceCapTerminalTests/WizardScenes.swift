import FaceCapCore
import Foundation

/// The screens the flow really produces: every state a breadth-first walk over the flow's events reaches from
/// the start (keys, camera answers, frames, validation outcomes, saves, time passing, resizes), by Core's walk
/// (`FlowWalk`, which `facecap generate screens` also runs). Layout and reachability tests use these, not hand-made
/// samples.
enum WizardScenes {
    /// The words inside the events, in English, as a camera or a server would send them (they come from the layers
    /// below the flow).
    static var words: FlowWalk.SampleWords {
        FlowWalk.SampleWords(
            denied: CameraProblem(
                kind: .permissionDenied, message: "cannot open /dev/video0: permission denied",
                details: ["Device: /dev/video0", "$ sudo usermod -aG video $USER"],
                exitCode: .permissionDenied),
            busy: CameraProblem(
                kind: .busy, message: "/dev/video0 is busy: in use by cheese (pid 4242)",
                details: ["In use by cheese (pid 4242)"], exitCode: .noCamera),
            noCamera: CameraProblem(
                kind: .noCamera, message: "no camera found: no video-capture device in /dev",
                details: ["$ facecap devices"], exitCode: .noCamera),
            lost: CameraProblem(
                kind: .lost, message: "camera disconnected: /dev/video0 stopped answering",
                exitCode: .failure),
            ended: CameraProblem(
                kind: .lost, message: "clip.y4m: the clip ended after 90 frames",
                exitCode: .failure, recoverable: false),
            saved: SavedPhoto(
                photoPath: "facecap-out/facecap-20261201-120000.jpg",
                reportPath: "facecap-out/facecap-20261201-120000.json"),
            saveFailure: "facecap-out: the disk is full (or over quota); free some space and try again",
            cameras: [
                CameraChoice(
                    path: "/dev/video0", description: "Integrated Camera (uvcvideo, usb-0000:00:14.0-5)",
                    isCurrent: true),
                CameraChoice(path: "/dev/video2", description: "USB Camera (uvcvideo, usb-0000:00:14.0-2)"),
            ],
            unreachablePlace: "127.0.0.1:9", serverDown: "down for maintenance", badToken: "bad token",
            retryReasons: ["tooDark", "somethingNew"])  // a reason the screens do not know among them
    }

    /// The events tried in every state: Core's one sample list (`FlowWalk.sampleEvents`), with the keys together,
    /// first, and the words above.
    static var events: [(WizardEvent, Double)] {
        let keys: [Key] =
            [.enter, .space] + "qrd?".map { Key.character($0) } + [.escape] + "c2".map { Key.character($0) }
        return FlowWalk.sampleEvents(keys: keys, words: words)
    }

    static func settings(clip: Bool = false, checkServer: Bool = false) -> WizardSettings {
        FlowWalk.settings(clip: clip, checkServer: checkServer)
    }

    /// The states reached (one flow per distinct state, times and counters aside), at most `depth` events deep:
    /// Core's walk (`FlowWalk`) over these events.
    static func reachable(_ settings: WizardSettings = settings(), depth: Int = 14) -> [Wizard] {
        FlowWalk.reachable(settings, events: events, depth: depth)
    }

    /// One flow per screen the walk reaches, with and without the help open, for the layout tests: the screen
    /// name, the state's kind and whether help is open make a scene distinct.
    static var scenes: [Wizard] {
        var seen: Set<String> = []
        var result: [Wizard] = []
        for wizard in reachable() + reachable(settings(clip: true), depth: 8)
            + reachable(settings(checkServer: true), depth: 5) where !wizard.isFinished
        {
            let kind = String(String(describing: wizard.state).prefix { $0 != "(" })
            let key = "\(wizard.screenName) \(kind) \(wizard.showsHelp) \(wizard.settings.sourceIsClip)"
            guard !seen.contains(key) else { continue }
            seen.insert(key)
            result.append(wizard)
        }
        return result
    }
}
