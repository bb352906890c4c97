import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// Issue 32 item 5, "no covered frame `ready`": a hand that comes between two turns of the hand model is read on the
/// frame it came (`FaceTracker.cropsChangedNow`), so that frame's guidance is not `ready`. The live loop as the wizard
/// runs it at 30 fps (`HandCadence` from the last analysis); frames and model-run counts only, no clock.
final class HandBetweenTurnsTests: XCTestCase {
    private typealias Models = (
        detector: TFLiteModel, landmarks: TFLiteModel, iris: TFLiteModel, hand: TFLiteModel,
        palm: TFLiteModel
    )

    /// What the live loop did on each frame: the analysis's codes, whether the hand model ran and on a look's change,
    /// the crops it read, whether their readings name a cover (a part) and whether they say a hand is about (a flag of
    /// `handAboutFlag`, or a part), the hand-model runs so far (the palms' included) and the palm readings so far.
    private struct Step {
        var active: [GuidanceCode]
        var handRan: Bool
        var onLook: Bool
        var crops: Int
        var named: Bool
        var about: Bool
        var runs: Int
        var palms: Int
    }

    /// The live loop over `frames` frames, `bare` before `arrival` and `covered` from it; the cadence from the last
    /// analysis, or `cadence` on every frame, or `cadenceAt` of the frame's index.
    private func live(
        _ models: Models, bare: Frame, covered: Frame, arrival: Int, frames: Int, cadence: HandCadence? = nil,
        configure: (FaceTracker) -> Void = { _ in }, cadenceAt: ((Int) -> HandCadence)? = nil
    ) throws -> [Step] {
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm)
        tracker.eyeInterval = 3
        tracker.handInterval = 6
        tracker.handFixingInterval = 12
        tracker.handOnEyeFrames = false
        configure(tracker)
        let hand = try XCTUnwrap(tracker.hand)
        // The fixture is framed close (`maxFaceWidth` 1 keeps it `ready`), and no photo ends the run.
        var thresholds = AnalyzerThresholds()
        thresholds.maxFaceWidth = 1
        thresholds.stabilityWindow = 10
        var analyzer = Analyzer(thresholds: thresholds)
        var last: AnalyzerOutput?
        var steps: [Step] = []
        for index in 0..<frames {
            tracker.handCadence = cadenceAt?(index) ?? cadence ?? HandCadence(after: last)
            tracker.eyeCadence = cadenceAt?(index) ?? cadence ?? HandCadence(eyesAfter: last)
            var frame = index < arrival ? bare : covered
            frame.timestamp = Double(index) / 30
            let faces = tracker.process(frame)
            let output = analyzer.process(frame, faces: faces)
            steps.append(
                Step(
                    active: output.active, handRan: tracker.handRan, onLook: tracker.handRanOnLook,
                    crops: tracker.handCropsRead,
                    named: tracker.handCropsReadList.contains { tracker.lastHand[$0]?.namesCover == true },
                    about: tracker.handCropsReadList.contains { tracker.lastHand[$0]?.saysHandAbout == true },
                    runs: hand.runs, palms: tracker.palmsRead))
            last = output
        }
        return steps
    }

    /// A still face, then the same face with a hand (over the mouth, an eye, a cheek) from frame 16: the
    /// turns fall on frames 7, 13 and 19 (0 detects the face; eye frames 0, 3, … are skipped), so 16 lies between
    /// two. On the bare frames no run but the turns' (each of one crop: the looks did not change); on frame 16 a run
    /// on the changed crops (at most `maxLookCrops`), with the palms read on that frame exactly when those crops
    /// named no part, and the frame is not `ready`.
    func testAHandThatComesBetweenTwoTurnsIsReadOnTheFrameItCame() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let arrival = 16
        for name in ["sergey_hand_mouth_across", "sergey_hand_eye", "sergey_hand_d_cheek"] {
            let covered = try ImageFile.read(path: fixturePath("eyes/\(name).jpg"))
            let steps = try live(models, bare: bare, covered: covered, arrival: arrival, frames: arrival + 2)
            let label = "\(name): \(steps.enumerated().map { "\($0.offset) \($0.element.active)" })"
            XCTAssertEqual(steps[arrival - 1].active, [.ready], "\(label): the bare face was ready")
            XCTAssertEqual(
                steps.indices.filter { steps[$0].handRan && $0 < arrival }, [0, 7, 13], "\(label): the turns only")
            XCTAssertFalse(steps[..<arrival].contains { $0.onLook }, label)
            XCTAssertEqual(steps[arrival - 1].runs - steps[0].runs, 2, "\(label): one crop a turn")
            let read = steps[arrival]
            XCTAssertTrue(read.handRan && read.onLook, "\(label): the hand read on the frame it came")
            XCTAssertLessThanOrEqual(read.crops, 2, "\(label): at most `maxLookCrops` crops")
            let palms = read.palms - steps[arrival - 1].palms
            XCTAssertEqual(palms, read.named ? 0 : 1, "\(label): the palms read when the crops named no part")
            // Every hand run of the frame: the changed crops', and each palm's kept, widened at most once.
            let runs = read.runs - steps[arrival - 1].runs
            XCTAssertGreaterThanOrEqual(runs, read.crops, label)
            XCTAssertLessThanOrEqual(runs, read.crops + palms * 2 * FaceTracker.maxPalms, label)
            XCTAssertNotEqual(read.active, [.ready], "\(label): the frame the hand came is not ready")
            XCTAssertTrue(read.active.contains(.faceCovered), label)
        }
        // Without the runs between turns (`lookRunsPerTurn` 0: the turns alone, as before) the hand off the cheek,
        // which only the hand model sees (the analyzer's own cover measures name the other two), read `ready` there.
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_d_cheek.jpg"))
        let before = try live(models, bare: bare, covered: covered, arrival: arrival, frames: arrival + 1) {
            $0.lookRunsPerTurn = 0
        }
        XCTAssertEqual(before[arrival].active, [.ready], "without the runs between turns")
        XCTAssertFalse(before[arrival].handRan)
    }

    /// No run between turns while the face is asked something else or is unlit (`HandCadence.fixing`, `.unlit`): the
    /// same clips as above with the cadence held there run the hand model at its slower interval (or on the mouth
    /// crop's change) and never on a look's change; held at `.ready`, the same clip runs on the frame the hand came.
    func testNoRunBetweenTurnsWhileFixingOrUnlit() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let arrival = 16
        for name in ["sergey_hand_eye", "sergey_hand_d_cheek"] {
            let covered = try ImageFile.read(path: fixturePath("eyes/\(name).jpg"))
            let ready = try live(models, bare: bare, covered: covered, arrival: arrival, frames: 30, cadence: .ready)
            XCTAssertTrue(ready[arrival].onLook, "\(name): held ready, the run on the frame the hand came")
            for cadence in [HandCadence.fixing, .unlit] {
                let steps = try live(
                    models, bare: bare, covered: covered, arrival: arrival, frames: 30, cadence: cadence)
                XCTAssertEqual(steps.indices.filter { steps[$0].onLook }, [], "\(name) \(cadence)")
                // The face's first frame, then the slower interval's run (12 frames on, or the next frame without eyes).
                let runs = steps.indices.filter { steps[$0].handRan && $0 < arrival }
                XCTAssertEqual(runs.count, 2, "\(name) \(cadence): \(runs)")
                XCTAssertEqual(runs.first, 0)
                XCTAssertTrue((12...13).contains(runs.last ?? 0), "\(name) \(cadence): \(runs)")
            }
        }
    }

    /// "The frame before" is the frame before, whatever its cadence: the hand comes while the face is asked something
    /// else (`fixing`, frames 3 and 4), then the face reads ready again with the hand still there (frame 5, no turn
    /// yet). The looks were taken on the fixing frames too, so frame 5's looks did not jump since frame 4 and no run is
    /// made between the turns, and the next run is the turn's. (Looks taken only on the ready frames between turns
    /// would compare frame 5 with frame 2's bare face and run there.)
    func testTheFrameBeforeIsTheFrameBeforeWhateverItsCadence() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_eye.jpg"))
        let steps = try live(
            models, bare: bare, covered: covered, arrival: 3, frames: 12,
            cadenceAt: { (3...4).contains($0) ? .fixing : .ready })
        let label = "\(steps.enumerated().map { "\($0.offset) ran \($0.element.handRan) look \($0.element.onLook)" })"
        let early = steps.indices.filter { steps[$0].handRan && $0 < 6 }
        XCTAssertEqual(early, [0], "the face's first frame only: \(label)")
        XCTAssertFalse(steps[5].onLook, label)
        let turn = try XCTUnwrap(steps.indices.first { steps[$0].handRan && $0 > 5 }, label)
        XCTAssertFalse(steps[turn].onLook, "\(turn) is the turn: \(label)")
        XCTAssertGreaterThan(steps[turn].crops, 0, label)
        // Held at `ready` throughout, the same clip runs on the frame the hand came.
        let ready = try live(models, bare: bare, covered: covered, arrival: 3, frames: 5, cadence: .ready)
        XCTAssertTrue(ready[3].onLook)
    }

    /// `lookJump`: a crop whose look moved past `lookChange` since its last reading counts on its frame only when it
    /// also moved by `lookJump` since the frame before (a hand that came, not a mouth that drifted while talking). The
    /// mouth crop's look with a hand across the mouth against its reading on the bare face: with the frame before as
    /// near as a drift leaves it, no crop; one `lookJump` away, the mouth crop.
    func testADriftPastLookChangeIsNoChangeOnItsFrameAndAJumpIs() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, hand: models.hand)
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_mouth_across.jpg"))
        let points = try XCTUnwrap(tracker.process(bare).first?.landmarks?.points)
        XCTAssertEqual(tracker.handCropsRead, HandLandmarker.crops.count, "the first frame reads every crop")
        tracker.takeFrameLooks(covered, points)
        let then = try XCTUnwrap(tracker.lastLook[0]), now = try XCTUnwrap(tracker.frameLook[0])
        XCTAssertGreaterThanOrEqual(now.change(from: then), tracker.lookChange, "the hand moved the mouth crop's look")
        for crop in tracker.frameJump.indices { tracker.frameJump[crop] = nil }
        tracker.frameJump[0] = tracker.lookJump.nextDown
        XCTAssertEqual(tracker.cropsChangedNow().map(\.crop), [], "a drift")
        XCTAssertEqual(tracker.lookRuns, 0, "no run counted")
        tracker.frameJump[0] = tracker.lookJump
        XCTAssertEqual(tracker.cropsChangedNow().map(\.crop), [0], "a jump")
        XCTAssertEqual(tracker.lookRuns, 1)
        // The run's bound: no second such run before the turn (`lookRunsPerTurn`).
        XCTAssertEqual(tracker.cropsChangedNow().map(\.crop), [])
    }

    /// A run on a look's change reads the palms on the same frame only where its crops name no part: a grey patch
    /// over the lips (no hand) coming between two turns has them read; of the drawn hands coming there, those its crops
    /// name (some do) have them not read.
    func testALookRunReadsThePalmsOnlyWhereItsCropsNameNoPart() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let mouth = try XCTUnwrap(
            FaceTracker(detector: models.detector, landmarks: models.landmarks).process(bare)
                .first?.landmarks?.points[13])
        var patched = bare
        for y in (Int(mouth.y) - 12)..<(Int(mouth.y) + 12) {
            for x in (Int(mouth.x) - 32)..<(Int(mouth.x) + 32) {
                for c in 0..<3 { patched.data[(y * patched.width + x) * 3 + c] = x < Int(mouth.x) ? 60 : 180 }
            }
        }
        let arrival = 16
        let steps = try live(models, bare: bare, covered: patched, arrival: arrival, frames: arrival + 1)
        let read = steps[arrival]
        XCTAssertTrue(read.onLook, "the run on the frame the patch came")
        XCTAssertFalse(read.named || read.about, "the patch is no hand")
        XCTAssertEqual(read.palms - steps[arrival - 1].palms, 1, "the palms read on the same frame")
        var found: [String] = []
        for name in ["mouth_across", "mouth_hr_2", "mouth_up", "v_nose", "eye", "d_cheek"] {
            let covered = try ImageFile.read(path: fixturePath("eyes/sergey_hand_\(name).jpg"))
            let steps = try live(models, bare: bare, covered: covered, arrival: arrival, frames: arrival + 1)
            let read = steps[arrival]
            guard read.onLook else { continue }
            XCTAssertEqual(read.palms - steps[arrival - 1].palms, read.named ? 0 : 1, name)
            if read.named { found.append(name) }
        }
        XCTAssertFalse(found.isEmpty, "no drawn hand found by the crops of a run on its look's change")
    }

    /// A run on a look's change whose crops read the hand weakly — a flag of `handAboutFlag` or more, under
    /// `HandLandmarker.partFlag`, so no part — reads the palms on the same frame, as where they find no hand: such a
    /// flag names nothing the analyzer says (issue 32 item 5: on the live set, most hands' first frames left `ready`
    /// were read so). A hand half seen as it comes (the drawn hand over the mouth and the one over an eye laid at
    /// half and two thirds of their strength over the bare face, as a fast hand blurs) gives such a flag on a crop
    /// of that run. (Until 2026-12-07 such a flag counted as a hand found, and the palms waited for the turn.)
    func testALookRunWhoseCropsGiveAWeakFlagAndNoPartReadsThePalms() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        let arrival = 16
        var weak: [String] = []
        for (name, strength) in [("mouth_up", Float(0.5)), ("eye", 0.65)] {
            let hand = try ImageFile.read(path: fixturePath("eyes/sergey_hand_\(name).jpg"))
            var covered = hand
            for i in covered.data.indices {
                let mixed = strength * Float(hand.data[i]) + (1 - strength) * Float(bare.data[i])
                covered.data[i] = UInt8(mixed.rounded())
            }
            let steps = try live(models, bare: bare, covered: covered, arrival: arrival, frames: arrival + 1)
            let read = steps[arrival]
            XCTAssertTrue(read.onLook, "\(name): the run on the frame the hand came")
            XCTAssertEqual(read.palms - steps[arrival - 1].palms, read.named ? 0 : 1, name)
            if read.about, !read.named { weak.append(name) }
        }
        XCTAssertFalse(weak.isEmpty, "no half-seen hand read weakly by the crops of a run on its look's change")
    }

    /// `processFullPipeline` (`facecap bench`) says what its own call ran: a run on a look's change reported by the
    /// call before is not reported again.
    func testTheFullPipelineSaysWhatItsOwnCallRan() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        tracker.handRanOnLook = true
        tracker.handCropsRead = HandLandmarker.crops.count
        tracker.handCropsReadList = [0, 3, 5]
        _ = tracker.processFullPipeline(try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg")))
        // The first call is the hand's turn (due at once), on two crops: the upright mouth one and one other.
        XCTAssertTrue(tracker.handRan)
        XCTAssertFalse(tracker.handRanOnLook)
        XCTAssertEqual(tracker.handCropsRead, 2)
        XCTAssertEqual(tracker.handCropsReadList.first, 0)
        XCTAssertEqual(tracker.handCropsReadList.count, 2)
        // The next call is no turn and its looks did not change: nothing of the call before is reported again.
        tracker.handRanOnLook = true
        _ = tracker.processFullPipeline(try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg")))
        XCTAssertFalse(tracker.handRan)
        XCTAssertFalse(tracker.handRanOnLook)
        XCTAssertEqual(tracker.handCropsRead, 0)
        XCTAssertEqual(tracker.handCropsReadList, [])
    }

    /// The cost's bound where looks keep changing (a person talking): a patch over the lips whose halves change
    /// every frame changes the mouth crops' looks on every frame, yet between two turns at most `lookRunsPerTurn`
    /// runs of at most `maxLookCrops` crops are made: over 240 frames at the ready cadence, one such run between most
    /// two turns, never more, and the hand model's runs on them at most twice the turns'.
    func testAMouthThatKeepsChangingCostsAtMostOneRunBetweenTwoTurns() throws {
        let models = try ModelFiles.loadAllFaceModels()
        let bare = try ImageFile.read(path: fixturePath("eyes/sergey_stubble.jpg"))
        XCTAssertEqual(bare.format, .rgb24)
        let mouth = try XCTUnwrap(
            FaceTracker(detector: models.detector, landmarks: models.landmarks).process(bare)
                .first?.landmarks?.points[13])
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand)
        let hand = try XCTUnwrap(tracker.hand)
        var turns = 0, turnRuns = 0, lookRuns = 0, lookCrops = 0, betweenTurns = 0
        for index in 0..<240 {
            var frame = bare
            let shade = 40 + (index * 37) % 160
            for y in (Int(mouth.y) - 12)..<(Int(mouth.y) + 12) {
                for x in (Int(mouth.x) - 32)..<(Int(mouth.x) + 32) {
                    let value = UInt8(x < Int(mouth.x) ? shade : 240 - shade)
                    for c in 0..<3 { frame.data[(y * frame.width + x) * 3 + c] = value }
                }
            }
            frame.timestamp = Double(index) / 30
            let before = hand.runs
            _ = try XCTUnwrap(tracker.process(frame).first, "frame \(index)")
            guard index > 0, tracker.handRan else { continue }
            if tracker.handRanOnLook {
                lookRuns += 1
                lookCrops += hand.runs - before
                betweenTurns += 1
                XCTAssertLessThanOrEqual(betweenTurns, tracker.lookRunsPerTurn, "frame \(index)")
                XCTAssertLessThanOrEqual(tracker.handCropsRead, tracker.maxLookCrops, "frame \(index)")
            } else {
                turns += 1
                turnRuns += hand.runs - before
                betweenTurns = 0
            }
        }
        XCTAssertEqual(turns, 39, "a turn every sixth frame from 7")
        XCTAssertGreaterThanOrEqual(lookRuns, turns / 2, "the mouth's looks changed between most two turns")
        XCTAssertLessThanOrEqual(lookRuns, turns)
        XCTAssertLessThanOrEqual(lookCrops, 2 * lookRuns)
        XCTAssertLessThanOrEqual(lookCrops, 2 * turnRuns, "at most twice the turns' runs")
    }
}
