import XCTest

@testable import FaceCapCore

/// The iris model's eyes and the cover measures: each calls for its code, the cover regions' hysteresis, closed and
/// narrow eyes, and the frames the auto capture keeps. The helpers are `GuidanceTests`' (GuidanceTests.swift).
extension GuidanceTests {
    func testIrisEyesAndCoversEachCallForTheirCode() {
        let cases: [(String, (inout FrameMetrics) -> Void, GuidanceCode?)] = [
            ("open, on the camera, bare", { _ in }, nil),
            (
                "both closed",
                {
                    $0.face!.eyes!.rightOpening = 0.05; $0.face!.eyes!.leftOpening = 0.08
                }, .eyesClosed
            ),
            (
                "one closed for 300 ms (a wink held, a hand over the eye)",
                {
                    $0.face!.eyes!.rightOpening = 0.05
                    $0.face!.eyes!.closedFor = 0.3
                }, .eyesClosed
            ),
            (
                "a wink",
                {
                    $0.face!.eyes!.leftOpening = 0.05; $0.face!.eyes!.closedFor = 0.2
                }, nil
            ),
            (
                "closed for less than a blink's hold",
                {
                    $0.face!.eyes!.rightOpening = 0.05
                    $0.face!.eyes!.leftOpening = 0.05
                    $0.face!.eyes!.closedFor = 0.2
                }, nil
            ),
            (
                "closed for 300 ms",
                {
                    $0.face!.eyes!.rightOpening = 0.05; $0.face!.eyes!.leftOpening = 0.05
                    $0.face!.eyes!.closedFor = 0.3
                }, .eyesClosed
            ),
            ("eyes to the side", { $0.face!.eyes!.cameraGazeX = -0.1 }, .lookStraight),
            // Looking down: the iris comes to the lower lid (the constructed turns read −0.10).
            (
                "eyes down",
                {
                    $0.face!.eyes!.cameraGazeY = 0.09; $0.face!.eyes!.irisToLowerLid = -0.10
                }, .lookStraight
            ),
            (
                "eyes turned 30° down, lids following",
                {
                    $0.face!.eyes!.cameraGazeY = 0.045; $0.face!.eyes!.irisToLowerLid = -0.10
                }, .lookStraight
            ),
            (
                "eyes opened wide on the camera",
                {
                    $0.face!.eyes!.cameraGazeY = 0.065; $0.face!.eyes!.irisToLowerLid = -0.131
                }, nil
            ),
            ("eyes turned 30° up", { $0.face!.eyes!.cameraGazeY = -0.045 }, .lookStraight),
            ("open eyes, the most off-level measured", { $0.face!.eyes!.cameraGazeY = 0.029 }, nil),
            (
                "eyes down, narrowed but open",
                {
                    $0.face!.eyes!.rightOpening = 0.14; $0.face!.eyes!.leftOpening = 0.15
                    $0.face!.eyes!.cameraGazeY = 0.06
                    $0.face!.eyes!.irisToLowerLid = -0.10
                }, .lookStraight
            ),
            (
                "a glance",
                {
                    $0.face!.eyes!.cameraGazeX = 0.1; $0.face!.eyes!.gazeOffFor = 0.1
                }, nil
            ),
            (
                "closed eyes have no gaze",
                {
                    $0.face!.eyes!.rightOpening = 0.05; $0.face!.eyes!.leftOpening = 0.05
                    $0.face!.eyes!.cameraGazeX = 0.2
                }, .eyesClosed
            ),
            (
                "mask",
                {
                    $0.face!.cover!.lowerFaceChroma = 20; $0.face!.cover!.mouthContrast = 0.25
                }, .faceCovered
            ),
            (
                "a beard: another colour, the lips showing",
                {
                    $0.face!.cover!.lowerFaceChroma = 30
                    $0.face!.cover!.mouthContrast = 0.6
                }, nil
            ),
            (
                "a beard over thin lips: the mouth shows little, in its own colour",
                {
                    $0.face!.cover!.lowerFaceChroma = 30; $0.face!.cover!.mouthContrast = 0.3;
                    $0.face!.cover!.mouthChroma = 8
                }, nil
            ),
            ("hand over the mouth", { $0.face!.cover!.mouthContrast = 0.1 }, .faceCovered),
            ("a hand across the mouth, seen by the hand model", { $0.face!.cover!.handOverMouth = 0.8 }, .faceCovered),
            ("no hand on the mouth by the hand model", { $0.face!.cover!.handOverMouth = 0.3 }, nil),
            (
                "a green or printed mask: a hue no skin or hair has",
                {
                    $0.face!.cover!.lowerFaceHue = 15
                    $0.face!.cover!.mouthContrast = 0.6
                }, .faceCovered
            ),
            (
                "a beard's hue",
                {
                    $0.face!.cover!.lowerFaceHue = 4; $0.face!.cover!.lowerFaceChroma = 30
                    $0.face!.cover!.mouthContrast = 0.6
                }, nil
            ),
            (
                "sunglasses",
                {
                    $0.face!.cover!.rightEyeBrightness = 0.2; $0.face!.cover!.leftEyeBrightness = 0.2
                },
                .faceCovered
            ),
            ("hand over an eye", { $0.face!.cover!.leftEyeDarkness = 0.9 }, .faceCovered),
        ]
        for (name, change, expected) in cases {
            let active = codes {
                $0.face!.eyes = Self.openEyes
                $0.face!.cover = Self.bare
                change(&$0)
            }
            XCTAssertEqual(active, expected.map { [$0] } ?? [], name)
        }
        // The iris model's reading replaces the eye aspect ratio.
        assertCodes([]) {
            $0.face!.eyes = Self.openEyes
            $0.face!.features!.leftEyeAspectRatio = 0.05; $0.face!.features!.rightEyeAspectRatio = 0.05
        }
    }

    func testCoverRegionsAndTheirHysteresis() {
        var cover = Self.bare
        XCTAssertEqual(cover.regions(thresholds), [])
        cover.lowerFaceChroma = 13
        XCTAssertEqual(cover.regions(thresholds), [], "another colour, but the mouth shows: a beard")
        cover.mouthContrast = 0.25
        cover.rightEyeBrightness = 0.3
        XCTAssertEqual(cover.regions(thresholds), ["mouth", "eye"])
        cover.leftEyeBrightness = 0.3
        XCTAssertEqual(cover.regions(thresholds), ["mouth", "eyes"])
        // 11.5 clears the 12 limit but not the 10 % margin a covered face needs.
        let mask: (inout FrameMetrics) -> Void = {
            $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 11.5; $0.face!.cover!.mouthContrast = 0.25
        }
        XCTAssertEqual(codes(mask), [])
        XCTAssertEqual(codes(mask, previous: [.faceCovered]), [.faceCovered])
        XCTAssertEqual(GuidanceCode.faceCovered.priority, GuidanceCode.faceNotVisible.priority + 1)
    }

    func testOneEyeClosedByTheLandmarksIsEyesClosedAsThePhotoNeedsIt() {
        // Without the iris model, the eye aspect ratio on either eye, as the validator asks it of the photo:
        // one gate (the check fires only when the landmark model puts the lids together).
        assertCodes([.eyesClosed]) {
            $0.face!.features!.leftEyeAspectRatio = 0.05
        }
        assertCodes([]) {
            $0.face!.features!.leftEyeAspectRatio = 0.16
        }
    }

    func testANarrowOpenEyeClearsEyesClosedAndAClosedEyeHasNoGaze() {
        // The least open real eye measured (0.146) clears eyesClosed once a blink has set it.
        let narrow: (inout FrameMetrics) -> Void = {
            $0.face!.eyes = Self.openEyes; $0.face!.eyes!.leftOpening = 0.146; $0.face!.cover = Self.bare
        }
        XCTAssertEqual(codes(narrow, previous: [.eyesClosed]), [])
        let almost: (inout FrameMetrics) -> Void = {
            $0.face!.eyes = Self.openEyes; $0.face!.eyes!.leftOpening = 0.135; $0.face!.cover = Self.bare
        }
        XCTAssertEqual(codes(almost), [], "over the limit")
        XCTAssertEqual(codes(almost, previous: [.eyesClosed]), [.eyesClosed], "but not clear of its margin")
        // A hand over one eye: the model's guess of the hidden iris pulls the mean gaze off; it is the eye
        // that is said, not the gaze.
        assertCodes([.eyesClosed]) {
            $0.face!.eyes = Self.openEyes; $0.face!.cover = Self.bare
            $0.face!.eyes!.rightOpening = 0.06; $0.face!.eyes!.cameraGazeY = 0.061
        }
    }

    func testTheAutoCaptureKeepsOnlyFramesWithBothEyesOpenOnTheCamera() {
        var eyes = Self.openEyes
        XCTAssertTrue(GuidanceRules.eyesCapturable(eyes, thresholds: thresholds))
        eyes.leftOpening = 0.12
        XCTAssertFalse(
            GuidanceRules.eyesCapturable(eyes, thresholds: thresholds), "one eye closed, as the validator sees it")
        eyes = Self.openEyes
        eyes.cameraGazeY = 0.045
        eyes.irisToLowerLid = -0.10
        XCTAssertFalse(GuidanceRules.eyesCapturable(eyes, thresholds: thresholds), "looking down")
        eyes = Self.openEyes
        eyes.isFresh = false
        XCTAssertFalse(GuidanceRules.eyesCapturable(eyes, thresholds: thresholds), "an older reading")
        XCTAssertFalse(GuidanceRules.eyesCapturable(nil, thresholds: thresholds))
    }
}
