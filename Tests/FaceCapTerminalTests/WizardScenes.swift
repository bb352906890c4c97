import FaceCapCore
import Foundation

/// The screens the flow really produces: every state a breadth-first walk over the flow's events reaches from
/// the start (keys, camera answers, frames, validation outcomes, saves, time passing, resizes), by Core's walk
/// (`FlowWalk`, which `facecap generate screens` also runs). Layout and reachability tests use these, not hand-made
/// samples.
enum WizardScenes {
    static let denied = CameraProblem(
        kind: .permissionDenied, message: "cannot open /dev/video0: permission denied",
        details: ["Device: /dev/video0", "$ sudo usermod -aG video $USER"],
        exitCode: .permissionDenied)
    static let busy = CameraProblem(
        kind: .busy, message: "/dev/video0 is busy: in use by cheese (pid 4242)",
        details: ["In use by cheese (pid 4242)"], exitCode: .noCamera)
    static let none = CameraProblem(
        kind: .noCamera, message: "no camera found: no video-capture device in /dev",
        details: ["$ facecap devices"], exitCode: .noCamera)
    static let lost = CameraProblem(
        kind: .lost, message: "camera disconnected: /dev/video0 stopped answering",
        exitCode: .failure)
    static let ended = CameraProblem(
        kind: .lost, message: "clip.y4m: the clip ended after 90 frames",
        exitCode: .failure, recoverable: false)

    /// The events tried in every state, by kind (`FlowWalk.events`: a new kind of event does not compile until it is
    /// listed here). Words inside them (camera messages, a server's reason) come from the layers below and are given
    /// in English here, as a camera or a server would send them.
    static var events: [(WizardEvent, Double)] {
        FlowWalk.events { kind -> [(WizardEvent, Double)] in
            switch kind {
            case .key:
                let keys: [Key] =
                    [.enter, .space] + "qrd?".map { Key.character($0) } + [.escape]
                    + "c2".map { Key.character($0) }
                return keys.map { (WizardEvent.key($0), 0.1) }
            case .start: return [(.start, 0.1)]
            case .tick: return [(.tick, 40)]
            case .resized: return [(.resized(columns: 50, rows: 15), 0.1), (.resized(columns: 80, rows: 24), 0.1)]
            case .cameraOpened: return [(.cameraOpened, 0.1)]
            case .cameraFailed:
                return [(.cameraFailed(denied), 0.1), (.cameraFailed(busy), 0.1), (.cameraFailed(none), 0.1)]
            case .cameraLost: return [(.cameraLost(lost), 0.1), (.cameraLost(ended), 0.1)]
            case .frameAnalyzed: return guidance
            case .photoTaken: return [(.photoTaken(mode: .auto, width: 640, height: 480), 0.1)]
            case .photoFailed: return [(.photoFailed, 0.1)]
            case .validation: return verdicts
            case .photoSaved:
                return [
                    (
                        .photoSaved(
                            SavedPhoto(
                                photoPath: "facecap-out/facecap-20261201-120000.jpg",
                                reportPath: "facecap-out/facecap-20261201-120000.json")), 0.1
                    )
                ]
            case .saveFailed:
                return [
                    (
                        .saveFailed(
                            message: "facecap-out: the disk is full (or over quota); free some space and try again"),
                        0.1
                    )
                ]
            // A signal ends the program the same way from every state: nothing to find behind it.
            case .stop: return []
            case .camerasListed:
                return [
                    (
                        .camerasListed([
                            CameraChoice(
                                path: "/dev/video0", description: "Integrated Camera (uvcvideo, usb-0000:00:14.0-5)",
                                isCurrent: true),
                            CameraChoice(path: "/dev/video2", description: "USB Camera (uvcvideo, usb-0000:00:14.0-2)"),
                        ]), 0.1
                    )
                ]
            case .serverChecked:
                return [
                    (.serverChecked(.ready), 0.1),
                    (.serverChecked(.unreachable(.serverError(status: 503, message: "down for maintenance"))), 0.1),
                    (.serverChecked(.refused(status: 401, message: "bad token")), 0.1),
                ]
            }
        }
    }

    /// The analysed frames tried in every state: a problem with hints, ready and still, auto capture, and the
    /// manual fallback after a timeout.
    static let guidance: [(WizardEvent, Double)] = [
        (
            .frameAnalyzed(
                FrameGuidance(time: 1, primary: .moveCloser, hints: [.tooDark, .keepHeadLevel])), 0.1
        ),
        (.frameAnalyzed(FrameGuidance(time: 2, primary: .ready, stability: 0.5)), 0.1),
        (.frameAnalyzed(FrameGuidance(time: 3, primary: .ready, stability: 1, autoCapture: true)), 0.1),
        (
            .frameAnalyzed(
                FrameGuidance(
                    time: 31, primary: .lookStraight, hints: [.holdStill], manualFallback: .timeout)),
            0.1
        ),
    ]

    /// The server's answers tried in every state (a reason it does not know among them).
    static let verdicts: [(WizardEvent, Double)] = [
        (.validation(.progress(0.4)), 0.1),
        (.validation(.verdict(ValidationVerdict(result: .pass))), 0.1),
        (
            .validation(.verdict(ValidationVerdict(result: .retry, reasons: ["tooDark", "somethingNew"]))),
            0.1
        ),
        (.validation(.verdict(ValidationVerdict(result: .manualReview, reasons: ["blurry"]))), 0.1),
        (.validation(.unreachable(reason: .refused(place: "127.0.0.1:9"), retryAfter: nil)), 0.1),
        (.validation(.refused(status: 401, message: "bad token")), 0.1),
    ]

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
