import XCTest

@testable import FaceCapCore

/// "Too dark"/"Too bright" wait for the camera (`LightWordsHold`): decided on the steering's phase, the analyzer's
/// active codes and counted analysed frames, never on time.
final class LightWordsHoldTests: XCTestCase {
    let brightening = LightWordsHold.codes(phase: .brightening, exhausted: false)

    func testTheCodesFollowTheSteering() {
        XCTAssertEqual(LightWordsHold.codes(phase: .brightening, exhausted: false), [.tooDark])
        XCTAssertEqual(LightWordsHold.codes(phase: .darkening, exhausted: false), [.tooBright])
        XCTAssertEqual(LightWordsHold.codes(phase: .idle, exhausted: false), [])
        XCTAssertEqual(
            LightWordsHold.codes(phase: .brightening, exhausted: true), [], "the camera has done what it can")
        XCTAssertEqual(LightWordsHold.settling, [.tooDark, .tooBright])
    }

    func testTooDarkWaitsWhileTheCameraBrightensAndTheNextHintActiveCodeOrHoldStillIsSaid() {
        var hold = LightWordsHold()
        let alone = hold.apply(
            FrameGuidance(time: 0, primary: .tooDark, slight: [.tooDark]), active: [.tooDark],
            waiting: brightening)
        XCTAssertEqual(alone.primary, .holdStill, "the camera adjusts: a steady face helps it")
        XCTAssertEqual(alone.hints, [])
        XCTAssertEqual(alone.slight, [])
        let withHints = hold.apply(
            FrameGuidance(time: 0.1, primary: .tooDark, hints: [.moveCloser, .lookStraight]),
            active: [.tooDark, .moveCloser, .lookStraight], waiting: brightening)
        XCTAssertEqual(withHints.primary, .moveCloser)
        XCTAssertEqual(withHints.hints, [.lookStraight])
        let notYetHint = hold.apply(
            FrameGuidance(time: 0.15, primary: .tooDark), active: [.tooDark, .moveLeft],
            waiting: brightening)
        XCTAssertEqual(notYetHint.primary, .moveLeft)
        let asHint = hold.apply(
            FrameGuidance(
                time: 0.2, primary: .moveLeft, hints: [.tooDark, .eyesClosed],
                slight: [.moveLeft, .tooDark]),
            active: [.tooDark, .moveLeft, .eyesClosed], waiting: brightening)
        XCTAssertEqual(asHint, FrameGuidance(time: 0.2, primary: .moveLeft, hints: [.eyesClosed], slight: [.moveLeft]))
        XCTAssertEqual(hold.heldFrames, 4)
    }

    func testTooBrightWaitsWhileTheCameraDarkensOnly() {
        var hold = LightWordsHold()
        let bright = FrameGuidance(time: 0, primary: .tooBright)
        XCTAssertEqual(hold.apply(bright, active: [.tooBright], waiting: [.tooBright]).primary, .holdStill)
        hold.reset()
        XCTAssertEqual(
            hold.apply(bright, active: [.tooBright], waiting: brightening), bright,
            "burnt out while the camera brightens: the camera will not fix it")
        let dark = FrameGuidance(time: 0, primary: .tooDark)
        XCTAssertEqual(hold.apply(dark, active: [.tooDark], waiting: [.tooBright]), dark)
        XCTAssertEqual(hold.apply(dark, active: [.tooDark], waiting: []), dark, "nothing steered")
        XCTAssertEqual(hold.heldFrames, 0)
    }

    func testAnExhaustedCameraNoFaceOrAFrameWithoutTheWordHoldsNothing() {
        var hold = LightWordsHold()
        let dark = FrameGuidance(time: 0, primary: .tooDark)
        XCTAssertEqual(
            hold.apply(
                dark, active: [.tooDark],
                waiting: LightWordsHold.codes(
                    phase: .brightening,
                    exhausted: true)), dark)
        let noFace = FrameGuidance(time: 0, primary: .tooDark, hasFace: false)
        XCTAssertEqual(
            hold.apply(noFace, active: [.tooDark], waiting: brightening), noFace,
            "too dark to find a face in: said at once")
        let other = FrameGuidance(time: 0, primary: .moveCloser)
        XCTAssertEqual(hold.apply(other, active: [.moveCloser], waiting: brightening), other)
        XCTAssertEqual(hold.heldFrames, 0, "only frames with a word held count")
    }

    /// The face came into range: the steering stops, the analyzer no longer finds it too dark, and only the
    /// message's persistence would keep "Too dark" on screen; it stays held until the analyzer finds it again.
    func testAWordHeldUntilTheFaceCameIntoRangeIsNotSaidForThePersistenceAlone() {
        var hold = LightWordsHold()
        _ = hold.apply(FrameGuidance(time: 0, primary: .tooDark), active: [.tooDark], waiting: brightening)
        let stale = hold.apply(
            FrameGuidance(time: 0.1, primary: .tooDark, stability: 0.2), active: [.ready],
            waiting: [])
        XCTAssertEqual(stale.primary, .ready, "nothing is wrong: the analyzer's own active codes")
        let again = FrameGuidance(time: 0.2, primary: .tooDark)
        XCTAssertEqual(
            hold.apply(again, active: [.tooDark], waiting: []), again,
            "found too dark again, and the camera is not steering: said")
        let later = FrameGuidance(time: 0.3, primary: .tooDark)
        XCTAssertEqual(
            hold.apply(later, active: [.ready], waiting: []), later,
            "a word that was said keeps the analyzer's persistence")
        XCTAssertEqual(hold.heldFrames, 2)
    }

    func testACameraThatNeverConvergesHoldsTheWordForTheBoundOnlyUntilItOpensAgain() {
        var hold = LightWordsHold(maxHeldFrames: 5)
        let dark = FrameGuidance(time: 0, primary: .tooDark)
        let primaries = (0..<8).map { _ in hold.apply(dark, active: [.tooDark], waiting: brightening).primary }
        XCTAssertEqual(primaries, Array(repeating: .holdStill, count: 5) + Array(repeating: .tooDark, count: 3))
        XCTAssertEqual(hold.heldFrames, 5)
        hold.reset()
        XCTAssertEqual(hold.apply(dark, active: [.tooDark], waiting: brightening).primary, .holdStill)
    }

    func testNeverReadyWhileTheWordIsActive() {
        var hold = LightWordsHold()
        for waiting in [LightWordsHold.settling, [.tooDark], [.tooBright]] {
            for code in [GuidanceCode.tooDark, .tooBright] {
                let out = hold.apply(FrameGuidance(time: 0, primary: code), active: [code], waiting: waiting)
                XCTAssertNotEqual(out.primary, .ready)
                XCTAssertFalse(out.autoCapture)
            }
        }
    }
}
