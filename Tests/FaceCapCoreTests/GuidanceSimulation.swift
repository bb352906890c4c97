import Foundation

@testable import FaceCapCore

/// A person in the loop (issue 35): frames rendered from sergey's photo where the person's face is, the real
/// analyzer on them (`Analyzer.process`: the measures on the pixels, the rules, the persistence, the capture),
/// the real flow on its output (`Wizard`: what the capture screen says, the photo, the retry), the built-in
/// validator on the photo, and a person who does what the words say after a reaction time and at a
/// human speed. Time is the frames' own (30 fps): no clock, no randomness, the same figures on any machine.
///
/// The face models are not run: the face is placed by construction (`AnalysisFixtures.frame` moves sergey's
/// golden detection and landmarks with the photo), so the geometry is exact and a run costs milliseconds per
/// frame; light, pose, eyes, sharpness and motion are measured on the rendered pixels and landmarks as live.
enum GuidanceSimulation {
    /// Who follows the words: someone reading the screen's primary message, or a screen-reader user who hears
    /// only `--plain`'s lines (`PlainAnnouncer`, one a second but for words that stop or turn them).
    enum Listener: String { case screen, plain }

    /// The person: how fast they move (pixels per second on the 640×480 frame) and how long after a word
    /// changes they act on it. Told a graded word ("A little lower") they move at `gentle` of their speed.
    /// Faster than the SPEC's `holdStill` limit (128 px/s here) the analyzer sees them move.
    struct Person {
        var speed: Double
        var reaction: Double
        var listener: Listener = .screen
        var gentle = 1.0 / 3
        /// Closer or further: the face's width changes by this fraction of itself per second.
        var scaleRate = 0.3
        /// Levelling the head, degrees per second.
        var rollRate = 10.0
        /// A lamp: the photo's gain per second (too dark), its offset in luma per second (too bright).
        var gainRate = 0.6
        var offsetRate = 120.0
        /// The camera's exposure time: a moving face is smeared over the distance it moves in it (a box blur of
        /// half that radius, all ways: harsher than a real smear along the motion).
        var exposure = 1.0 / 30
    }

    /// Where the face starts: sergey placed in the 640×480 frame.
    struct Start {
        var name: String
        var placement: AnalysisFixtures.Placement
    }

    /// The start states of issue 35's table (a face 0.32 of the width, centred, level and well lit, unless said),
    /// from Tests/Fixtures/simulation/starts.json, which `make simulate-live` reads too.
    static let starts: [Start] = {
        struct Entry: Decodable {
            var name: String
            var faceWidth, centreX, centreY, degrees, gain, offset: Double?
        }
        let url = AnalysisFixtures.fixtures.appendingPathComponent("simulation/starts.json")
        let entries = try! JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
        return entries.map { entry in
            var p = AnalysisFixtures.Placement(faceWidth: entry.faceWidth ?? 0.32)
            p.centreX = entry.centreX ?? p.centreX
            p.centreY = entry.centreY ?? p.centreY
            p.degrees = entry.degrees ?? p.degrees
            p.gain = entry.gain ?? p.gain
            p.offset = entry.offset ?? p.offset
            return Start(name: entry.name, placement: p)
        }
    }()

    /// What one run measured.
    struct Result {
        /// Seconds from the first frame to the accepted photo; nil when none came within the limit.
        var captureTime: Double?
        /// Photos taken (a refused one is an attempt used).
        var attempts = 0
        /// How often the person's own movement turned back, per axis (x, y).
        var reversals = (x: 0, y: 0)
        /// Seconds the person was being told (on screen, or the last line heard) a direction that points away
        /// from the target on the frame it was measured on.
        var wrongDirectionTime = 0.0
        /// Primary messages in order (each change once), for a failure's message.
        var words: [String] = []
    }

    /// Runs one person from one start for at most `limit` seconds (stops at the accepted photo).
    ///
    /// The frames go through the analyzer into the wizard (`Wizard.handle`, at the frames' times) as the live
    /// session sends them, and the person reads what the wizard puts on the capture screen (`Wizard.screen`:
    /// the guidance as said, `FrameGuidance.said`), or hears what `PlainAnnouncer` makes of that screen. The
    /// wizard's effects are carried out here as `WizardSession` does: analysis restarted, the kept frame taken,
    /// the built-in validator's verdict, a refusal retried at once.
    static func run(
        _ start: Start, _ person: Person, limit: Double,
        thresholds: AnalyzerThresholds = AnalyzerThresholds()
    ) -> Result {
        let fps = 30.0, dt = 1 / fps
        var p = start.placement
        var analyzer = Analyzer(thresholds: thresholds)
        var settings = WizardSettings()
        settings.showTutorial = false
        settings.plain = person.listener == .plain
        settings.minimumCheckingDisplay = 0
        var wizard = Wizard(settings: settings)
        var announcer = PlainAnnouncer(ascii: false)
        var result = Result()
        // The words the person has taken in (on screen, or heard), with when: they act on the newest one at
        // least `reaction` old.
        var taken: [(time: Double, code: GuidanceCode, slight: Bool)] = []
        var kept: (Frame, Face)?
        var lastSign = (x: 0.0, y: 0.0)
        var v = (x: 0.0, y: 0.0)
        var accepted = false

        /// What the wizard asks for, done at `t`; what it answers in turn is done too.
        func carryOut(_ effects: [WizardEffect], at t: Double) {
            for effect in effects {
                switch effect {
                case .openCamera:
                    carryOut(wizard.handle(.cameraOpened, at: t), at: t)
                case .startAnalysis(let gate):
                    analyzer.reset(mustClear: gate.mustClear, awaitChange: gate.awaitChange)
                case .takePhoto(let mode):
                    carryOut(
                        kept == nil
                            ? wizard.handle(.photoFailed, at: t)
                            : wizard.handle(.photoTaken(mode: mode, width: 640, height: 480), at: t), at: t)
                case .validate(let request):
                    guard let (photo, face) = kept else { continue }
                    result.attempts += 1
                    let verdict = LocalValidator(thresholds: thresholds)
                        .validate(photo, faces: [face], isFinal: request.isFinal)
                    if verdict.result == .pass {
                        accepted = true
                        return
                    }
                    carryOut(wizard.handle(.validation(.verdict(verdict)), at: t), at: t)
                    // Back to the camera at once (r on the Retry screen; --plain returns by itself).
                    carryOut(wizard.handle(.key(.character("r")), at: t), at: t)
                default:
                    break
                }
            }
        }

        carryOut(wizard.handle(.start, at: 0), at: 0)
        for i in 0..<Int(limit * fps) {
            let t = Double(i) * dt
            // A little natural sway and sensor noise on top of where the person holds their face.
            var shown = p
            shown.centreX += 1.5 * sin(2 * Double.pi * 0.4 * t) / 640
            shown.centreY += 1.0 * cos(2 * Double.pi * 0.3 * t) / 480
            shown.noise = 3
            shown.noiseSeed = i
            shown.blurRadius = Int((hypot(v.x, v.y) * person.exposure / 2).rounded())
            if person.listener == .plain, i == 0 {
                // The capture screen's first line, said before the first frame is analysed.
                _ = announcer.offer(wizard.screen(at: t), at: t)
            }
            let (frame, face) = AnalysisFixtures.frame(shown, format: .yuyv, timestamp: t)
            let out = analyzer.process(frame, faces: [face])
            if out.keepFrame { kept = (frame, face) }
            carryOut(wizard.handle(.frameAnalyzed(FrameGuidance(out)), at: t), at: t)
            if accepted {
                result.captureTime = t
                return result
            }
            // What the capture screen says now: its code, and whether in graded words.
            let screen = wizard.screen(at: t)
            v = (x: 0.0, y: 0.0)
            guard let code = screen.guidance else { continue }
            let slight =
                Messages.slightGuidanceID(code) != nil
                && screen.primary == Messages.guidance(code, slight: true)
            if result.words.last != code.rawValue + (slight ? "~" : "") {
                result.words.append(code.rawValue + (slight ? "~" : ""))
            }
            switch person.listener {
            case .screen:
                if taken.last.map({ $0.code != code || $0.slight != slight }) ?? true {
                    taken.append((t, code, slight))
                }
            case .plain:
                if announcer.offer(screen, at: t) != nil { taken.append((t, code, slight)) }
            }
            // What the person is being told now, judged against where the face was measured.
            if let told = taken.last?.code, let measured = out.metrics.face,
                pointsAway(told, measured, thresholds: thresholds)
            {
                result.wrongDirectionTime += dt
            }
            // What they do now: the newest word they have had time to react to.
            let word = taken.last { $0.time <= t - person.reaction }
            if let word {
                let speed = word.slight ? person.speed * person.gentle : person.speed
                switch word.code {
                // The person's own left is the unmirrored image's right (SPEC §4), and down is down.
                case .moveLeft: v.x = speed
                case .moveRight: v.x = -speed
                case .moveDown: v.y = speed
                case .moveUp: v.y = -speed
                case .moveCloser: p.faceWidth *= 1 + person.scaleRate * dt
                case .moveBack: p.faceWidth *= 1 - person.scaleRate * dt
                case .keepHeadLevel: p.degrees -= (p.degrees > 0 ? 1 : -1) * min(abs(p.degrees), person.rollRate * dt)
                case .tooDark: p.gain += person.gainRate * dt
                case .tooBright: p.offset -= person.offsetRate * dt
                default: break
                }
            }
            p.centreX += v.x * dt / 640
            p.centreY += v.y * dt / 480
            for (axis, value) in [(0, v.x), (1, v.y)] where value != 0 {
                let previous = axis == 0 ? lastSign.x : lastSign.y
                let sign: Double = value > 0 ? 1 : -1
                if previous != 0, previous != sign {
                    if axis == 0 { result.reversals.x += 1 } else { result.reversals.y += 1 }
                }
                if axis == 0 { lastSign.x = sign } else { lastSign.y = sign }
            }
        }
        return result
    }

    /// Whether `code` asks for a move away from the target given the face as measured: a direction whose
    /// way is the wrong side of the oval's centre, or closer/back on the wrong side of the middle size.
    static func pointsAway(
        _ code: GuidanceCode, _ face: FaceMetrics,
        thresholds t: AnalyzerThresholds = AnalyzerThresholds()
    ) -> Bool {
        switch code {
        case .moveLeft: face.offsetX > 0
        case .moveRight: face.offsetX < 0
        case .moveDown: face.offsetY > 0
        case .moveUp: face.offsetY < 0
        case .moveCloser: face.widthRatio > (t.minFaceWidth + t.maxFaceWidth) / 2
        case .moveBack: face.widthRatio < (t.minFaceWidth + t.maxFaceWidth) / 2
        default: false
        }
    }
}
