import XCTest

@testable import FaceCapCore

/// A hand the hand model reads: over the face or an eye, on a turned head, in bad light, over a face the landmarks
/// reject (`GuidanceRules`' hand rules). The helpers are `GuidanceTests`' (GuidanceTests.swift).
extension GuidanceTests {
    /// Issue 32: the hand model's reading beyond the lips (`hand`) is not judged on a head turned past `maxYaw`:
    /// real bare faces turned 16–36° read a hand over the near eye or cheek; the pose's `lookStraight` is said.
    /// Facing the camera it is `faceCovered`; a hand over the mouth, or a lens, is still said on a turned head.
    func testAHandBeyondTheLipsIsNotJudgedOnATurnedHead() {
        let hand: (inout FrameMetrics) -> Void = {
            $0.face!.cover = Self.bare; $0.face!.cover!.handOverFace = 0.85
        }
        XCTAssertEqual(codes(hand), [.faceCovered])
        assertCodes([.lookStraight]) {
            hand(&$0); $0.face!.pose!.yaw = -22
        }
        assertCodes([.faceCovered], "within the limit") {
            hand(&$0); $0.face!.pose!.yaw = 14
        }
        // Hysteresis as lookStraight's: turned 13° after a turn, still the pose's.
        assertCodes([.lookStraight], previous: [.lookStraight]) {
            hand(&$0); $0.face!.pose!.yaw = 13
        }
        assertCodes([.faceCovered, .lookStraight]) {
            hand(&$0); $0.face!.cover!.handOverMouth = 0.9; $0.face!.pose!.yaw = 25
        }
        assertCodes([], "under minHandOverFace") {
            hand(&$0); $0.face!.cover!.handOverFace = 0.55
        }
        assertCodes([.faceCovered], "coverHysteresis", previous: [.faceCovered]) {
            hand(&$0); $0.face!.cover!.handOverFace = 0.55
        }
    }

    /// Issue 32 item 1: a hand the hand model reads over an eye is judged on a turned head too (its parts name an
    /// eye seen nearly full width, its flag at `minTurnedHandOverEye`), and it is the cover, not a closed eye: the
    /// iris model's lids behind a hand are not read. On a turned head a weaker reading over the near eye (real bare
    /// faces: up to 0.85), one over a cheek, or one over the far eye foreshortened by the turn, is still the
    /// pose's (item 4).
    func testAHandOverAnEyeIsJudgedOnATurnedHeadAndIsNoClosedEye() {
        let overEye: (inout FrameMetrics) -> Void = {
            $0.face!.cover = Self.bare; $0.face!.cover!.handOverFace = 0.97; $0.face!.cover!.handParts = [.rightEye]
        }
        let closed: (inout FrameMetrics) -> Void = {
            $0.face!.features!.rightEyeAspectRatio = 0.08; $0.face!.features!.leftEyeAspectRatio = 0.1
        }
        assertCodes([.faceCovered, .lookStraight]) {
            overEye(&$0); $0.face!.pose!.yaw = -22
        }
        assertCodes([.lookStraight], "a bare turned face's reading over the near eye") {
            overEye(&$0); $0.face!.cover!.handOverFace = 0.85; $0.face!.pose!.yaw = -22
        }
        assertCodes(
            [.lookStraight], "coverHysteresis holds the turned limit only down to 0.89, above bare turned faces",
            previous: [.faceCovered, .lookStraight]
        ) {
            overEye(&$0); $0.face!.cover!.handOverFace = 0.85; $0.face!.pose!.yaw = -22
        }
        assertCodes([.faceCovered, .lookStraight], "coverHysteresis", previous: [.faceCovered, .lookStraight]) {
            overEye(&$0); $0.face!.cover!.handOverFace = 0.895; $0.face!.pose!.yaw = -22
        }
        assertCodes([.lookStraight], "under the turned limit without hysteresis") {
            overEye(&$0); $0.face!.cover!.handOverFace = 0.895; $0.face!.pose!.yaw = -22
        }
        assertCodes([.lookStraight], "a cheek on a turned head: the pose's") {
            overEye(&$0); $0.face!.cover!.handParts = [.rightCheek, .nose]; $0.face!.pose!.yaw = -22
        }
        assertCodes([.lookStraight], "the far eye: the pose's") {
            overEye(&$0); $0.face!.cover!.rightEyeWidthRatio = 0.6; $0.face!.pose!.yaw = -30
        }
        assertCodes([.faceCovered], "facing the camera") {
            overEye(&$0); $0.face!.cover!.handOverFace = 0.7
        }
        assertCodes([.faceCovered], "the hand, not a closed eye") {
            overEye(&$0); closed(&$0)
        }
        assertCodes([.eyesClosed], "no hand read: the lids are") {
            overEye(&$0); closed(&$0); $0.face!.cover!.handOverFace = 0.4
        }
        assertCodes([.faceCovered, .eyesClosed], "a hand on a cheek: the eyes are still read") {
            overEye(&$0); closed(&$0); $0.face!.cover!.handParts = [.rightCheek]
        }
    }

    /// Issue 32 item 5: a hand the hand model reads over the face is said before the light. A pale hand over the
    /// mouth lifts the face's light measures, and `tooBright` hid it (the hand was never named). Only the hand
    /// model's own readings are judged in bad light: the other cover measures still wait for it (a crushed shadow
    /// reads as a mask), a bare face's light is said as before, and a hand beyond the lips on a turned head is
    /// still the pose's.
    func testAHandReadByTheHandModelIsSaidBeforeTheLight() {
        let bright: (inout FrameMetrics) -> Void = {
            $0.face!.light!.meanLuma = 215; $0.face!.cover = Self.bare
        }
        let dark: (inout FrameMetrics) -> Void = {
            $0.face!.light!.meanLuma = 50; $0.face!.cover = Self.bare
        }
        XCTAssertEqual(codes(bright), [.tooBright])
        XCTAssertEqual(codes(dark), [.tooDark])
        assertCodes([.faceCovered]) {
            bright(&$0); $0.face!.cover!.handOverMouth = 0.9
        }
        assertCodes([.tooDark], "too dark: the light first, hand or not") {
            dark(&$0); $0.face!.cover!.handOverFace = 0.85
        }
        assertCodes([.tooBright], "no hand") {
            bright(&$0); $0.face!.cover!.handOverMouth = 0.3
        }
        assertCodes([.tooBright], "under the cut") {
            bright(&$0); $0.face!.cover!.handOverMouth = 0.47
        }
        assertCodes([.faceCovered], "coverHysteresis", previous: [.faceCovered]) {
            bright(&$0); $0.face!.cover!.handOverMouth = 0.47
        }
        assertCodes([.tooDark], "no hand: light first") {
            dark(&$0); $0.face!.cover!.mouthContrast = 0.05
        }
        assertCodes([.tooBright, .lookStraight], "turned: the hand beyond the lips is the pose's") {
            bright(&$0); $0.face!.cover!.handOverFace = 0.85; $0.face!.pose!.yaw = 25
        }
    }

    /// Issue 32: a face the detector finds but the landmark model rejects, with a hand read over it, is covered by
    /// the hand (`faceCovered`, "Uncover your face"), not missing (`noFace`, "Position your face"); without a hand
    /// there, or too dark to see one, it stays what it was.
    func testAFaceHiddenByAHandIsCoveredNotMissing() {
        assertCodes([.faceCovered]) {
            $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.8
        }
        assertCodes([.noFace]) {
            $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.2
        }
        assertCodes([.noFace], "under minHandOverFace") {
            $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.55
        }
        assertCodes([.faceCovered], "coverHysteresis", previous: [.faceCovered]) {
            $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.55
        }
        assertCodes([.tooDark]) {
            $0.face = nil; $0.frameLuma = 30; $0.hiddenByHand = 0.8
        }
    }

    /// The hand over a hidden face is read at the hand model's cadence: the analyzer holds the reading for
    /// `handMemory`, and forgets it once a face is measured.
    func testTheHandOverAHiddenFaceHoldsForTheHandMemory() {
        var analyzer = Analyzer()
        func hidden(_ t: Double, _ flag: Double?) -> FrameMetrics {
            var m = AnalysisFixtures.goodMetrics(at: t)
            m.face = nil
            m.frameLuma = 120
            m.motion = nil
            m.hiddenByHand = flag
            return m
        }
        var m = hidden(0, 0.9)
        // `decide` takes measures as given; `process` holds them, through the same step (`trackHand`).
        analyzer.trackHand(&m, time: 0)
        XCTAssertEqual(analyzer.decide(m).active, [.faceCovered])
        m = hidden(0.4, nil)
        analyzer.trackHand(&m, time: 0.4)
        XCTAssertEqual(m.hiddenByHand, 0.9, "held within handMemory")
        XCTAssertEqual(analyzer.decide(m).active, [.faceCovered])
        m = hidden(0.6, nil)
        analyzer.trackHand(&m, time: 0.6)
        XCTAssertNil(m.hiddenByHand, "older than handMemory")
        XCTAssertEqual(analyzer.decide(m).active, [.noFace])
    }
}
