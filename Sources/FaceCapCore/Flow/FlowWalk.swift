/// The states the flow reaches: a breadth-first walk over its events (keys, camera answers, frames, validation
/// outcomes, saves, time passing, resizes) from the start. One walk serves `facecap generate screens` (the README's
/// screen table) and the tests' scenes (`WizardScenes`); each gives its own events, the settings it runs with and
/// how deep to go.
public enum FlowWalk {
    /// A state without its times and counters (which make every path distinct; `Wizard.State.timeless`), with the
    /// attempts used, whether help is open and the terminal's width.
    public struct Signature: Hashable {
        public var state: Wizard.State
        public var showsHelp: Bool
        public var attemptsUsed: Int
        public var columns: Int?

        public init(_ wizard: Wizard) {
            state = wizard.state.timeless
            showsHelp = wizard.showsHelp
            attemptsUsed = wizard.attemptsUsed
            columns = wizard.terminalSize?.columns
        }
    }

    /// The settings walked: a camera and a server (two attempts), a clip instead of the camera, or the server
    /// checked before the camera opens.
    public static func settings(clip: Bool = false, checkServer: Bool = false) -> WizardSettings {
        var settings = WizardSettings()
        settings.checkServer = checkServer
        settings.attempts = 2
        settings.usesServer = true
        settings.serverURL = "https://id.example.org/selfie"
        settings.sourceIsClip = clip
        if clip { settings.source = .clip("clip.y4m") }
        return settings
    }

    /// Every state reached from the start with `settings`, at most `depth` events deep: one flow for each
    /// distinct `key` (by default its `Signature`), in the order the walk first meets them. `events` are tried in
    /// every state, each with the seconds that pass before it.
    public static func reachable<Key: Hashable>(
        _ settings: WizardSettings, events: [(WizardEvent, Double)], depth: Int,
        key: (Wizard) -> Key
    ) -> [Wizard] {
        var seen: Set<Key> = []
        var found: [Wizard] = []
        var frontier = [Wizard(settings: settings)]
        for _ in 0..<depth {
            var next: [Wizard] = []
            for wizard in frontier {
                for (event, delay) in events {
                    var moved = wizard
                    _ = moved.handle(event, at: moved.now + delay)
                    guard seen.insert(key(moved)).inserted else { continue }
                    found.append(moved)
                    if !moved.isFinished { next.append(moved) }
                }
            }
            frontier = next
        }
        return found
    }

    /// The events a walk tries in every state, each with the seconds that pass before it: `samples` gives them for
    /// each kind of event, in `WizardEvent.Kind`'s order. Written as a switch over the kind, it is exhaustive: a new
    /// event does not compile until each walk says what it tries of it (nothing, for an event it leaves out).
    public static func events(_ samples: (WizardEvent.Kind) -> [(WizardEvent, Double)]) -> [(WizardEvent, Double)] {
        WizardEvent.Kind.allCases.flatMap { kind in
            let tried = samples(kind)
            precondition(tried.allSatisfy { $0.0.kind == kind })
            return tried
        }
    }

    /// `reachable` told apart by `Signature`.
    public static func reachable(_ settings: WizardSettings, events: [(WizardEvent, Double)], depth: Int) -> [Wizard] {
        reachable(settings, events: events, depth: depth, key: Signature.init)
    }
}

extension WizardEvent {
    /// An event's case without its values: what the walks list their events by (`FlowWalk.events`). The order is
    /// the order a walk tries them in.
    public enum Kind: CaseIterable, Sendable {
        case key, start, tick, resized, cameraOpened, cameraFailed, cameraLost, frameAnalyzed, photoTaken, photoFailed
        case validation, photoSaved, saveFailed, stop, camerasListed, serverChecked
    }

    /// This event's kind; exhaustive, so a new event names its kind here first.
    public var kind: Kind {
        switch self {
        case .key: return .key
        case .start: return .start
        case .tick: return .tick
        case .resized: return .resized
        case .cameraOpened: return .cameraOpened
        case .cameraFailed: return .cameraFailed
        case .cameraLost: return .cameraLost
        case .frameAnalyzed: return .frameAnalyzed
        case .photoTaken: return .photoTaken
        case .photoFailed: return .photoFailed
        case .validation: return .validation
        case .photoSaved: return .photoSaved
        case .saveFailed: return .saveFailed
        case .stop: return .stop
        case .camerasListed: return .camerasListed
        case .serverChecked: return .serverChecked
        }
    }
}
