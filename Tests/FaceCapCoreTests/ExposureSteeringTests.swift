import XCTest

@testable import FaceCapCore

/// ExposureSteering as tables: frames in (face and frame luma, what the camera offers), steps out.
final class ExposureSteeringTests: XCTestCase {
    private let gain = ExposureKnob(kind: .gain, minimum: 0, maximum: 240, step: 1, value: 40)
    private let bias = ExposureKnob(kind: .exposureBias, minimum: -4, maximum: 4, step: 1, value: 0)
    private let box = Rect(x: 200, y: 120, width: 240, height: 260)

    private func input(
        face: Double?, frame: Double? = 120, knobs: [ExposureKnob], rate: Double? = 30,
        priority: Bool? = nil, region: Bool = false
    ) -> ExposureSteering.Input {
        ExposureSteering.Input(
            faceLuma: face, frameLuma: frame, faceBox: face == nil ? nil : box, frameRate: rate,
            autoPriority: priority, hasRegion: region, knobs: knobs)
    }

    func testADarkFaceInAFineFrameTurnsTheCamerasOwnExposureFirstInSmallStepsWithASettlingFrameBetween() {
        var steering = ExposureSteering()
        let knobs = [bias, gain]
        let table: [(face: Double, expected: [ExposureSteering.Action])] = [
            (40, [.set(.exposureBias, 1)]),  // a twelfth of −4...4 is less than a step: one step
            (40, []),  // the camera applies it a frame or two later, and its own auto
            (40, []),  // exposure converges after that: three frames' wait
            (40, []),
            (40, [.set(.exposureBias, 1)]),  // still dark: the next step (from the value the caller reports)
        ]
        for (index, row) in table.enumerated() {
            XCTAssertEqual(steering.next(input(face: row.face, knobs: knobs)), row.expected, "row \(index)")
            XCTAssertEqual(steering.phase, .brightening)
            XCTAssertTrue(steering.isAdjusting)
        }
    }

    func testGainStepsAreATwelfthOfItsRangeOnItsGrid() {
        var steering = ExposureSteering()
        XCTAssertEqual(steering.next(input(face: 30, knobs: [gain])), [.set(.gain, 60)])
        let coarse = ExposureKnob(kind: .gain, minimum: 0, maximum: 255, step: 4, value: 2)
        XCTAssertEqual(coarse.stepped(1, stepsPerRange: 12), 20, "on the grid of 4 from the minimum")
        XCTAssertEqual(coarse.stepped(-1, stepsPerRange: 12), 0, "never below the minimum")
    }

    func testHysteresisStartsPastTheOuterLimitsAndStopsInsideTheTarget() {
        var steering = ExposureSteering()
        // 90 is below the target but above where steering starts: nothing.
        XCTAssertEqual(steering.next(input(face: 90, knobs: [gain])), [])
        XCTAssertEqual(steering.phase, .idle)
        XCTAssertEqual(steering.next(input(face: 70, knobs: [gain])), [.set(.gain, 60)])
        _ = steering.next(input(face: 85, knobs: [gain]))
        _ = steering.next(input(face: 85, knobs: [gain]))
        // Started: 90 keeps it going until the target band is reached.
        XCTAssertEqual(steering.next(input(face: 90, knobs: [gain])), [.set(.gain, 60)])
        XCTAssertEqual(steering.phase, .brightening)
        XCTAssertEqual(steering.next(input(face: 110, knobs: [gain])), [])
        XCTAssertEqual(steering.phase, .idle)
        XCTAssertFalse(steering.isAdjusting)
    }

    func testABrightFaceTurnsBackWhatWasRaisedLastResortFirstThenTheCamerasOwnExposure() {
        var steering = ExposureSteering()
        let raisedGain = ExposureKnob(kind: .gain, minimum: 0, maximum: 240, step: 1, value: 100, start: 40)
        XCTAssertEqual(steering.next(input(face: 230, knobs: [bias, raisedGain])), [.set(.gain, 80)])
        XCTAssertEqual(steering.phase, .darkening)
        var fresh = ExposureSteering()
        let brightness = ExposureKnob(kind: .brightness, minimum: -64, maximum: 64, step: 1, value: 0)
        XCTAssertEqual(fresh.next(input(face: 230, knobs: [bias, gain, brightness])), [.set(.exposureBias, -1)])
        // Turned back no further than where it started.
        var near = ExposureSteering()
        let nearlyBack = ExposureKnob(kind: .gain, minimum: 0, maximum: 240, step: 1, value: 45, start: 40)
        XCTAssertEqual(near.next(input(face: 230, knobs: [nearlyBack])), [.set(.gain, 40)])
    }

    func testWithNothingLeftToTurnTheCameraIsExhausted() {
        var steering = ExposureSteering()
        let maxed = ExposureKnob(kind: .gain, minimum: 0, maximum: 240, step: 1, value: 240)
        XCTAssertEqual(steering.next(input(face: 30, knobs: [maxed])), [])
        XCTAssertTrue(steering.exhausted)
        XCTAssertFalse(steering.isAdjusting)
        var none = ExposureSteering()
        XCTAssertEqual(none.next(input(face: 30, knobs: [])), [])
        XCTAssertTrue(none.exhausted, "a camera with no controls to turn has done what it can")
        // The light comes back: no longer exhausted.
        XCTAssertEqual(none.next(input(face: 120, knobs: [])), [])
        XCTAssertFalse(none.exhausted)
    }

    func testWithARegionOfInterestAutoExposureIsPointedAtTheFaceAndGivenTimeBeforeOtherControls() {
        var limits = ExposureSteering.Limits()
        limits.regionPatience = 2
        var steering = ExposureSteering(limits: limits)
        XCTAssertEqual(steering.next(input(face: 40, knobs: [gain], region: true)), [.regionOfInterest(box)])
        // A patience of 2 is raised to the 3 frames any change through auto exposure gets.
        XCTAssertEqual(steering.next(input(face: 40, knobs: [gain], region: true)), [])
        XCTAssertEqual(steering.next(input(face: 40, knobs: [gain], region: true)), [])
        XCTAssertEqual(steering.next(input(face: 40, knobs: [gain], region: true)), [])
        // Still dark after its patience, the face where it was: the other controls are turned.
        XCTAssertEqual(steering.next(input(face: 40, knobs: [gain], region: true)), [.set(.gain, 60)])
        // The face moved by more than a tenth of the frame: the region follows it.
        _ = steering.next(input(face: 40, knobs: [gain], region: true))
        _ = steering.next(input(face: 40, knobs: [gain], region: true))
        var moved = input(face: 40, knobs: [gain], region: true)
        moved.faceBox = Rect(x: 20, y: 120, width: 240, height: 260)
        XCTAssertEqual(steering.next(moved), [.regionOfInterest(moved.faceBox!)])
    }

    func testAutoPriorityIsTurnedOffOnceWhenItDropsTheRateBelow15() {
        var steering = ExposureSteering()
        XCTAssertEqual(steering.next(input(face: 120, knobs: [], rate: 20, priority: true)), [])
        XCTAssertEqual(steering.next(input(face: 120, knobs: [], rate: nil, priority: true)), [], "not yet measured")
        XCTAssertEqual(steering.next(input(face: 120, knobs: [], rate: 12, priority: true)), [.constantFrameRate])
        XCTAssertEqual(steering.next(input(face: 120, knobs: [], rate: 12, priority: true)), [], "once")
        var off = ExposureSteering()
        XCTAssertEqual(off.next(input(face: 120, knobs: [], rate: 8, priority: false)), [], "already off")
    }

    func testNoFaceHoldsUnlessTheFrameIsTooDarkToFindOne() {
        var steering = ExposureSteering()
        XCTAssertEqual(steering.next(input(face: nil, frame: 120, knobs: [gain])), [])
        XCTAssertEqual(steering.phase, .idle)
        XCTAssertEqual(steering.next(input(face: nil, frame: 20, knobs: [gain])), [.set(.gain, 60)])
    }

    /// A camera whose face luma jumps across the whole target band at one gain step (75 below 50, 200 from it):
    /// the gain is reversed once (half steps), frozen at the second reversal, and nothing is turned after that.
    func testAKnobThatOvershootsIsHalvedAfterOneReversalAndFrozenAfterTheSecond() {
        var steering = ExposureSteering()
        var knob = gain
        var writes: [Int] = []
        var lastWrite = 0
        for frame in 0..<60 {
            let face: Double = knob.value < 50 ? 75 : 200
            for case .set(let kind, let value) in steering.next(input(face: face, knobs: [knob])) {
                XCTAssertEqual(kind, .gain)
                knob.value = value
                writes.append(value)
                lastWrite = frame
            }
        }
        XCTAssertEqual(writes, [60, 50, 40], "up a twelfth, back half of that, back to the start, then frozen")
        XCTAssertLessThan(lastWrite, 20, "no hunting: nothing written for the rest of the run")
        XCTAssertTrue(steering.exhausted, "nothing left to turn: the person's light is what is left")
    }

    /// Total reversals across knobs stop steering altogether.
    func testSteeringStopsAfterAFewReversalsInAll() {
        var limits = ExposureSteering.Limits()
        limits.maxReversals = 1
        var steering = ExposureSteering(limits: limits)
        var knobs = [gain, ExposureKnob(kind: .brightness, minimum: -64, maximum: 64, step: 1, value: 0)]
        var writes = 0
        for frame in 0..<40 {
            let face: Double = frame % 6 < 3 ? 40 : 230
            for case .set(let kind, let value) in steering.next(input(face: face, knobs: knobs)) {
                writes += 1
                knobs[knobs.firstIndex { $0.kind == kind }!].value = value
            }
        }
        XCTAssertEqual(writes, 2, "one step up, one back (the reversal), then nothing")
    }

    /// A 0/1 backlight compensation (one step: the whole range) is not steered: it would swing the face across the
    /// target and back.
    func testAKnobTooCoarseToStepGentlyIsNotTurned() {
        var steering = ExposureSteering()
        let backlight = ExposureKnob(kind: .backlightCompensation, minimum: 0, maximum: 1, step: 1, value: 0)
        XCTAssertEqual(steering.next(input(face: 30, knobs: [backlight])), [])
        XCTAssertTrue(steering.exhausted)
        var withGain = ExposureSteering()
        XCTAssertEqual(withGain.next(input(face: 30, knobs: [backlight, gain])), [.set(.gain, 60)])
    }
}
