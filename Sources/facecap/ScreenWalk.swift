import FaceCapCore

/// The states the flow reaches: a breadth-first walk over its events (keys, camera answers, frames, validation
/// outcomes, saves, time passing, resizes) from the start, with the settings a person may run it with (a camera
/// and a server, a clip, a server checked first). The README's screen table is gathered from it; the walk itself
/// is Core's `FlowWalk`, which the tests' `WizardScenes` also runs, with the words a camera or a server would send.
enum ScreenWalk {
    /// What the events say: nothing (the table shows no camera's or server's words), in the places the types need.
    static var words: FlowWalk.SampleWords {
        FlowWalk.SampleWords(
            denied: CameraProblem(kind: .permissionDenied, message: "", exitCode: .permissionDenied),
            busy: CameraProblem(kind: .busy, message: "", exitCode: .noCamera),
            noCamera: CameraProblem(kind: .noCamera, message: "", exitCode: .noCamera),
            lost: CameraProblem(kind: .lost, message: "", exitCode: .failure),
            ended: CameraProblem(kind: .lost, message: "", exitCode: .failure, recoverable: false),
            saved: SavedPhoto(photoPath: "facecap-out/photo.jpg", reportPath: "facecap-out/photo.json"),
            saveFailure: "",
            cameras: [
                CameraChoice(path: "/dev/video0", description: "", isCurrent: true),
                CameraChoice(path: "/dev/video2", description: ""),
            ],
            unreachablePlace: "127.0.0.1:9", serverDown: "", badToken: "", retryReasons: ["tooDark"])
    }

    /// The events tried in every state, each with the seconds that pass before it: Core's one sample list
    /// (`FlowWalk.sampleEvents`) with this walk's keys, in the order the README's table lists them.
    static var events: [(WizardEvent, Double)] {
        FlowWalk.sampleEvents(keys: [.enter, .space, .escape] + "qrd?c2o".map { Key.character($0) }, words: words)
    }

    /// The settings walked: a camera and a server; a clip; a server checked before the camera opens. Each as deep
    /// as its last screen needs and two events more (the folder typed after a failed save is the deepest: 10 events;
    /// each event deeper multiplies the states: 14 takes five times as long as 12).
    static var settings: [(settings: WizardSettings, depth: Int)] {
        [(false, false, 12), (true, false, 8), (false, true, 5)].map { clip, check, depth in
            (FlowWalk.settings(clip: clip, checkServer: check), depth)
        }
    }

    /// Every state reached, one flow for each `FlowWalk.Signature` (the state without its times and counters, help,
    /// the attempts used, the terminal's width), by Core's walk (`FlowWalk`), as the tests' scenes key it.
    static func reachable() -> [Wizard] {
        settings.flatMap { settings, depth in
            FlowWalk.reachable(settings, events: events, depth: depth)
        }
    }
}
