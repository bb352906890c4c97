import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// A hand over an eye is the hand rule's, turned head or not (issue 32 items 1 and 4; docs/calibration.md, "A hand
/// over an eye on a turned head"): the hand model's reading over the eye seen nearly full width is `faceCovered`,
/// never `eyesClosed`, and on a head turned past `maxYaw` it counts from `minTurnedHandOverEye`. The hand is the
/// real hand held high across sergey's face (tools/make_cover_frames.py, hand_hr_2), read through the face models:
/// its hull covers his left eye (flag 0.80). The drawn flat hands over an eye are no hand to the model (0.13–0.45,
/// `HandTrackingTests`); real hands over an eye on turned heads (the real-photo set's ft3_03, 0.992–0.993) may not
/// be fixtures, so the turned head is the pose a turned head reads (`yaw`) and its flag theirs.
final class HandOverEyeTests: XCTestCase {
    private let t = AnalyzerThresholds()
    private let hand = "eyes/sergey_hand_mouth_hr_2.jpg"
    private let drawnPalms = ["eyes/sergey_hand_eye.jpg", "eyes/grace_hopper_hand_eye.jpg"]

    /// `name` analysed as `facecap analyze` reads a photo: every model, the palm detector's crops too.
    private func metrics(_ name: String) throws -> FrameMetrics {
        let models = try FaceModelsFixture.models()
        let tracker = try FaceTracker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris, hand: models.hand,
            palm: models.palm)
        let frame = try ImageFile.read(path: fixturePath(name))
        return AnalysisReport.photo(frame: frame, faces: tracker.process(frame), thresholds: t).metrics
    }

    private func cover(_ name: String) throws -> CoverMetrics {
        try XCTUnwrap(try metrics(name).face?.cover, name)
    }

    /// The hand over his left eye: with the lids read closed behind it (the iris model's and the landmarks'), the
    /// hand is said and the eyes are not.
    func testAHandOverAnEyeIsTheCoverNotAClosedEye() throws {
        var m = try metrics(hand)
        let cover = try XCTUnwrap(m.face?.cover)
        let said = "handOverFace \(cover.handOverFace ?? -1), parts \(cover.handParts.names)"
        XCTAssertTrue(cover.handParts.contains(.leftEye), said)
        XCTAssertGreaterThanOrEqual(cover.leftEyeWidthRatio, t.minLensEyeWidthRatio, said)
        XCTAssertTrue(GuidanceRules.handOverAnEye(cover, turned: false, t, margin: 0), said)
        m.face?.eyes?.rightOpening = 0.02
        m.face?.eyes?.leftOpening = 0.02
        m.face?.features?.rightEyeAspectRatio = 0.05
        m.face?.features?.leftEyeAspectRatio = 0.05
        let codes = GuidanceRules.activeCodes(m, thresholds: t)
        XCTAssertTrue(codes.contains(.faceCovered), "\(said): \(codes)")
        XCTAssertFalse(codes.contains(.eyesClosed), "\(said): \(codes)")
    }

    /// On a turned head: this reading (0.80, within the real bare turned faces' 0.51–0.85 over the near eye) is the
    /// pose's; at a real hand's strength (ft3_03's 0.992) over the same eye the hand says `faceCovered` by itself —
    /// the mouth and eye measures of the photo taken away.
    func testOnATurnedHeadAStrongReadingOverTheNearEyeIsTheHands() throws {
        var m = try metrics(hand)
        var cover = try XCTUnwrap(m.face?.cover)
        cover.handOverMouth = 0
        cover.mouthContrast = 0.8
        (cover.lowerFaceChroma, cover.lowerFaceHue, cover.lowerFaceSaturation) = (4, 0, nil)
        (cover.rightEyeDarkness, cover.leftEyeDarkness) = (0.3, 0.3)
        (cover.rightEyeBrightness, cover.leftEyeBrightness) = (1, 1)
        (cover.rightEyeTexture, cover.leftEyeTexture) = (1, 1)
        (cover.rightLensEdge, cover.leftLensEdge) = (0, 0)
        m.face?.pose?.yaw = -25
        m.face?.cover = cover
        let weak = GuidanceRules.activeCodes(m, thresholds: t)
        XCTAssertFalse(weak.contains(.faceCovered), "flag \(cover.handOverFace ?? -1): \(weak)")
        XCTAssertTrue(weak.contains(.lookStraight), "\(weak)")
        m.face?.cover?.handOverFace = 0.992
        let strong = GuidanceRules.activeCodes(m, thresholds: t)
        XCTAssertTrue(strong.contains(.faceCovered) && strong.contains(.lookStraight), "\(strong)")
        // Over the far eye, foreshortened by the turn: the pose's.
        m.face?.cover?.leftEyeWidthRatio = 0.6
        m.face?.cover?.rightEyeWidthRatio = 1
        XCTAssertFalse(GuidanceRules.activeCodes(m, thresholds: t).contains(.faceCovered))
    }

    /// The bare photos read no hand over an eye, turned or not; and a reading over the far eye, foreshortened by
    /// the turn, is the pose's.
    func testNoHandOverAnEyeOnTheBarePhotosNorOnTheFarEye() throws {
        for name in EyeFixtures.open {
            let cover = try cover(name)
            XCTAssertFalse(GuidanceRules.handOverAnEye(cover, turned: false, t, margin: 0), name)
            XCTAssertFalse(GuidanceRules.handOverAnEye(cover, turned: true, t, margin: t.coverHysteresis), name)
        }
        var far = try cover(hand)
        far.handOverFace = 0.992
        (far.rightEyeWidthRatio, far.leftEyeWidthRatio) = (0.6, 0.6)
        XCTAssertFalse(GuidanceRules.handOverAnEye(far, turned: true, t, margin: 0))
    }

    /// The mirror rule has no palm exception: the drawn flat hands over an eye, made as smooth as a palm and of the
    /// skin's colour (chroma 1 from it; the real set's constructed hands over an eye read ≤ 5.8), are no mirror
    /// (`flatLenses`); a hand is the hand rule's.
    func testAPalmIsNoMirror() throws {
        for name in drawnPalms {
            var cover = try cover(name)
            (cover.rightEyeTexture, cover.leftEyeTexture) = (0.005, 0.005)
            (cover.rightEyeDip, cover.leftEyeDip) = (0.05, 0.05)
            (cover.rightEyeChroma, cover.leftEyeChroma) = (1, 1)
            XCTAssertFalse(cover.flatLenses(t), name)
            XCTAssertFalse(cover.flatLenses(t, margin: t.coverHysteresis), name)
        }
    }
}
