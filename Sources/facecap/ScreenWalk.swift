import FaceCapCore

/// The states the flow reaches: a breadth-first walk over its events (keys, camera answers, frames, validation
/// outcomes, saves, time passing, resizes) from the start, with the settings a person may run it with (a camera
/// and a server, a clip, a server checked first). The README's screen table is gathered from it; the walk itself
/// is Core's `FlowWalk`, which the tests' `WizardScenes` also runs, with the words a camera or a server would send.
enum ScreenWalk {
    static let denied = CameraProblem(kind: .permissionDenied, message: "", exitCode: .permissionDenied)
    static let busy = CameraProblem(kind: .busy, message: "", exitCode: .noCamera)
    static let none = CameraProblem(kind: .noCamera, message: "", exitCode: .noCamera)
    static let lost = CameraProblem(kind: .lost, message: "", exitCode: .failure)
    static let ended = CameraProblem(kind: .lost, message: "", exitCode: .failure, recoverable: false)

    /// The events tried in every state, each with the seconds that pass before it, by kind (`FlowWalk.events`: a
    /// new kind of event does not compile until it is listed here).
    static var events: [(WizardEvent, Double)] {
        FlowWalk.events { kind -> [(WizardEvent, Double)] in
            switch kind {
            case .key:
                let keys: [Key] = [.enter, .space, .escape] + "qrd?c2o".map { Key.character($0) }
                return keys.map { (WizardEvent.key($0), 0.1) }
            case .start: return [(.start, 0.1)]
            case .tick: return [(.tick, 40)]
            case .resized: return [(.resized(columns: 50, rows: 15), 0.1), (.resized(columns: 80, rows: 24), 0.1)]
            case .cameraOpened: return [(.cameraOpened, 0.1)]
            case .cameraFailed:
                return [(.cameraFailed(denied), 0.1), (.cameraFailed(busy), 0.1), (.cameraFailed(none), 0.1)]
            case .cameraLost: return [(.cameraLost(lost), 0.1), (.cameraLost(ended), 0.1)]
            case .frameAnalyzed:
                return [
                    (.frameAnalyzed(FrameGuidance(time: 1, primary: .moveCloser, hints: [.tooDark])), 0.1),
                    (.frameAnalyzed(FrameGuidance(time: 2, primary: .ready, stability: 0.5)), 0.1),
                    (.frameAnalyzed(FrameGuidance(time: 3, primary: .ready, stability: 1, autoCapture: true)), 0.1),
                    (.frameAnalyzed(FrameGuidance(time: 31, primary: .lookStraight, manualFallback: .timeout)), 0.1),
                ]
            case .photoTaken: return [(.photoTaken(mode: .auto, width: 640, height: 480), 0.1)]
            case .photoFailed: return [(.photoFailed, 0.1)]
            case .validation:
                return [
                    (.validation(.progress(0.4)), 0.1),
                    (.validation(.verdict(ValidationVerdict(result: .pass))), 0.1),
                    (.validation(.verdict(ValidationVerdict(result: .retry, reasons: ["tooDark"]))), 0.1),
                    (.validation(.verdict(ValidationVerdict(result: .manualReview, reasons: ["blurry"]))), 0.1),
                    (.validation(.unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)), 0.1),
                    (.validation(.refused(status: 401, message: "")), 0.1),
                ]
            case .photoSaved:
                return [
                    (
                        .photoSaved(
                            SavedPhoto(photoPath: "facecap-out/photo.jpg", reportPath: "facecap-out/photo.json")), 0.1
                    )
                ]
            case .saveFailed: return [(.saveFailed(message: ""), 0.1)]
            // A signal ends the program the same way from every state: nothing to find behind it.
            case .stop: return []
            case .camerasListed:
                return [
                    (
                        .camerasListed([
                            CameraChoice(path: "/dev/video0", description: "", isCurrent: true),
                            CameraChoice(path: "/dev/video2", description: ""),
                        ]), 0.1
                    )
                ]
            case .serverChecked:
                return [
                    (.serverChecked(.ready), 0.1),
                    (.serverChecked(.unreachable(.serverError(status: 503, message: ""))), 0.1),
                    (.serverChecked(.refused(status: 401, message: "")), 0.1),
                ]
            }
        }
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
