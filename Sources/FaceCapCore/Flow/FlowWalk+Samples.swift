extension FlowWalk {
    /// What the layers below put inside a walk's events: a camera's problems and devices, where a photo was saved,
    /// a save's failure, a server's reasons and messages. `facecap generate screens` leaves them empty (the README's
    /// table shows no words of theirs); the tests' scenes give them in English, as a camera or a server would send
    /// them. The flow itself words nothing.
    public struct SampleWords {
        public var denied, busy, noCamera, lost, ended: CameraProblem
        public var saved: SavedPhoto
        public var saveFailure: String
        public var cameras: [CameraChoice]
        /// Where an unreachable server was tried.
        public var unreachablePlace: String
        /// A server's message with its 503, and with its 401 (a photo refused, or the pre-flight check).
        public var serverDown: String
        public var badToken: String
        /// The reasons of a retry verdict.
        public var retryReasons: [String]

        public init(
            denied: CameraProblem, busy: CameraProblem, noCamera: CameraProblem, lost: CameraProblem,
            ended: CameraProblem, saved: SavedPhoto, saveFailure: String, cameras: [CameraChoice],
            unreachablePlace: String, serverDown: String, badToken: String, retryReasons: [String]
        ) {
            self.denied = denied
            self.busy = busy
            self.noCamera = noCamera
            self.lost = lost
            self.ended = ended
            self.saved = saved
            self.saveFailure = saveFailure
            self.cameras = cameras
            self.unreachablePlace = unreachablePlace
            self.serverDown = serverDown
            self.badToken = badToken
            self.retryReasons = retryReasons
        }
    }

    /// The one list of events the walks try in every state, each with the seconds that pass before it, by kind
    /// (`events`: a new kind of event does not compile until it is listed here). Each walk gives the keys it tries,
    /// in its order, and the words inside the events.
    public static func sampleEvents(keys: [Key], words: SampleWords) -> [(WizardEvent, Double)] {
        events { kind -> [(WizardEvent, Double)] in
            switch kind {
            case .key: return keys.map { (WizardEvent.key($0), 0.1) }
            case .start: return [(.start, 0.1)]
            case .tick: return [(.tick, 40)]
            case .resized: return [(.resized(columns: 50, rows: 15), 0.1), (.resized(columns: 80, rows: 24), 0.1)]
            case .cameraOpened: return [(.cameraOpened, 0.1)]
            case .cameraFailed:
                return [words.denied, words.busy, words.noCamera].map { (.cameraFailed($0), 0.1) }
            case .cameraLost: return [(.cameraLost(words.lost), 0.1), (.cameraLost(words.ended), 0.1)]
            case .frameAnalyzed: return guidanceSamples
            case .photoTaken: return [(.photoTaken(mode: .auto, width: 640, height: 480), 0.1)]
            case .photoFailed: return [(.photoFailed, 0.1)]
            case .validation: return verdictSamples(words)
            case .photoSaved: return [(.photoSaved(words.saved), 0.1)]
            case .saveFailed: return [(.saveFailed(message: words.saveFailure), 0.1)]
            // A signal ends the program the same way from every state: nothing to find behind it.
            case .stop: return []
            case .camerasListed: return [(.camerasListed(words.cameras), 0.1)]
            case .serverChecked:
                return [
                    (.serverChecked(.ready), 0.1),
                    (.serverChecked(.unreachable(.serverError(status: 503, message: words.serverDown))), 0.1),
                    (.serverChecked(.refused(status: 401, message: words.badToken)), 0.1),
                ]
            }
        }
    }

    /// The analysed frames tried: a problem with hints, ready and still, auto capture, and the manual fallback
    /// after a timeout.
    static let guidanceSamples: [(WizardEvent, Double)] = [
        (.frameAnalyzed(FrameGuidance(time: 1, primary: .moveCloser, hints: [.tooDark, .keepHeadLevel])), 0.1),
        (.frameAnalyzed(FrameGuidance(time: 2, primary: .ready, stability: 0.5)), 0.1),
        (.frameAnalyzed(FrameGuidance(time: 3, primary: .ready, stability: 1, autoCapture: true)), 0.1),
        (
            .frameAnalyzed(
                FrameGuidance(time: 31, primary: .lookStraight, hints: [.holdStill], manualFallback: .timeout)),
            0.1
        ),
    ]

    /// The server's answers tried: progress, each verdict, unreachable and refused.
    static func verdictSamples(_ words: SampleWords) -> [(WizardEvent, Double)] {
        [
            (.validation(.progress(0.4)), 0.1),
            (.validation(.verdict(ValidationVerdict(result: .pass))), 0.1),
            (.validation(.verdict(ValidationVerdict(result: .retry, reasons: words.retryReasons))), 0.1),
            (.validation(.verdict(ValidationVerdict(result: .manualReview, reasons: ["blurry"]))), 0.1),
            (.validation(.unreachable(reason: .refused(place: words.unreachablePlace), retryAfter: nil)), 0.1),
            (.validation(.refused(status: 401, message: words.badToken)), 0.1),
        ]
    }
}
