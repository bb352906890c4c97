import XCTest

@testable import FaceCapCore

final class GuidanceTests: XCTestCase {
    let thresholds = AnalyzerThresholds()

    private func codes(_ change: (inout FrameMetrics) -> Void, previous: Set<GuidanceCode> = []) -> [GuidanceCode] {
        var metrics = AnalysisFixtures.goodMetrics(at: 0)
        change(&metrics)
        return GuidanceRules.activeCodes(metrics, previous: previous, thresholds: thresholds)
    }

    func testGoodMeasuresCallForNothing() {
        XCTAssertEqual(codes { _ in }, [])
    }

    func testEachConditionAndItsOpposite() {
        let cases: [(String, (inout FrameMetrics) -> Void, GuidanceCode, GuidanceCode?)] = [
            ("far", { $0.face!.widthRatio = 0.2 }, .moveCloser, .moveBack),
            ("close", { $0.face!.widthRatio = 0.6 }, .moveBack, .moveCloser),
            // Mirror convention: a face on the image's left must move to the person's left.
            ("image-left", { $0.face!.offsetX = -0.15 }, .moveLeft, .moveRight),
            ("image-right", { $0.face!.offsetX = 0.15 }, .moveRight, .moveLeft),
            ("high", { $0.face!.offsetY = -0.15 }, .moveDown, .moveUp),
            ("low", { $0.face!.offsetY = 0.15 }, .moveUp, .moveDown),
            ("dark mean", { $0.face!.light!.meanLuma = 50 }, .tooDark, .tooBright),
            ("dark pixels", { $0.face!.light!.darkFraction = 0.45 }, .tooDark, .tooBright),
            ("bright mean", { $0.face!.light!.meanLuma = 215 }, .tooBright, .tooDark),
            ("bright pixels", { $0.face!.light!.brightFraction = 0.08 }, .tooBright, .tooDark),
            (
                "side light",
                {
                    $0.face!.light!.leftLuma = 50; $0.face!.light!.rightLuma = 150
                }, .unevenLight, nil
            ),
            ("turned", { $0.face!.pose!.yaw = -22 }, .lookStraight, .keepHeadLevel),
            ("looking up", { $0.face!.pose!.pitch = 20 }, .lookStraight, nil),
            ("tilted", { $0.face!.pose!.roll = 16 }, .keepHeadLevel, .lookStraight),
            (
                "eyes closed",
                {
                    $0.face!.features!.leftEyeAspectRatio = 0.08
                    $0.face!.features!.rightEyeAspectRatio = 0.1
                },
                .eyesClosed, nil
            ),
            ("blurred", { $0.face!.sharpness = 60 }, .blurry, .holdStill),
            ("moving", { $0.motion!.centreSpeed = 0.05 }, .holdStill, .blurry),
            ("growing", { $0.motion!.sizeChange = 0.05 }, .holdStill, nil),
            ("cut", { $0.face!.edgeMargin = -0.01 }, .faceNotVisible, nil),
            (
                "two faces",
                {
                    $0.secondFaceScore = 0.9; $0.secondFaceRelativeWidth = 0.8
                }, .multipleFaces, nil
            ),
        ]
        for (name, change, expected, opposite) in cases {
            let active = codes(change)
            XCTAssertEqual(active, [expected], name)
            if let opposite { XCTAssertFalse(active.contains(opposite), name) }
        }
    }

    /// Iris-model eyes of a face looking into the camera, and a bare face.
    private static let openEyes = EyeMetrics(
        rightOpening: 0.24, leftOpening: 0.23, gazeX: 0, gazeY: -0.08,
        cameraGazeX: 0, cameraGazeY: 0, isFresh: true)
    private static let bare = CoverMetrics(
        presence: 50, lowerFaceChroma: 4, mouthContrast: 0.8, rightEyeBrightness: 0.8,
        leftEyeBrightness: 0.8, rightEyeDarkness: 0.3, leftEyeDarkness: 0.3)

    /// A near-profile's far eye is foreshortened and in the nose's shadow: its low brightness is no dark lens
    /// (a real face turned 35° read 0.41–0.47 there and got `faceCovered`). The near eye still shows a lens,
    /// and a hand (no dark parts) is judged on either eye.
    func testTheDarkLensIsJudgedOnAnEyeSeenNearlyFullWidth() {
        func cover(_ change: (inout CoverMetrics) -> Void) -> [String] {
            var c = Self.bare
            change(&c)
            return c.regions(thresholds)
        }
        XCTAssertEqual(cover { $0.rightEyeBrightness = 0.41 }, ["eye"], "a frontal eye that dark: a lens")
        XCTAssertEqual(
            cover {
                $0.rightEyeBrightness = 0.41; $0.rightEyeWidthRatio = 0.62
            }, [], "the far eye")
        XCTAssertEqual(
            cover {
                $0.rightEyeBrightness = 0.41; $0.rightEyeWidthRatio = 0.72
            }, ["eye"])
        XCTAssertEqual(
            cover {
                $0.rightEyeBrightness = 0.2; $0.leftEyeBrightness = 0.2; $0.rightEyeWidthRatio = 0.6
            },
            ["eye"], "sunglasses on a turned head: the near eye's lens")
        XCTAssertEqual(
            cover {
                $0.rightEyeDarkness = 0.9; $0.rightEyeWidthRatio = 0.6
            }, ["eye"], "a hand over the far eye")
        XCTAssertEqual(
            codes {
                $0.face!.cover = Self.bare; $0.face!.cover!.leftEyeBrightness = 0.41
                $0.face!.cover!.leftEyeWidthRatio = 0.64
            }, [])
    }

    /// Issue 32: the hand model's reading beyond the lips (`hand`) is not judged on a head turned past `maxYaw`:
    /// real bare faces turned 16–36° read a hand over the near eye or cheek; the pose's `lookStraight` is said.
    /// Facing the camera it is `faceCovered`; a hand over the mouth, or a lens, is still said on a turned head.
    func testAHandBeyondTheLipsIsNotJudgedOnATurnedHead() {
        let hand: (inout FrameMetrics) -> Void = {
            $0.face!.cover = Self.bare; $0.face!.cover!.handOverFace = 0.85
        }
        XCTAssertEqual(codes(hand), [.faceCovered])
        XCTAssertEqual(
            codes {
                hand(&$0); $0.face!.pose!.yaw = -22
            }, [.lookStraight])
        XCTAssertEqual(
            codes {
                hand(&$0); $0.face!.pose!.yaw = 14
            }, [.faceCovered], "within the limit")
        // Hysteresis as lookStraight's: turned 13° after a turn, still the pose's.
        XCTAssertEqual(
            codes(
                {
                    hand(&$0); $0.face!.pose!.yaw = 13
                }, previous: [.lookStraight]), [.lookStraight])
        XCTAssertEqual(
            codes {
                hand(&$0); $0.face!.cover!.handOverMouth = 0.9; $0.face!.pose!.yaw = 25
            },
            [.faceCovered, .lookStraight])
        XCTAssertEqual(
            codes {
                hand(&$0); $0.face!.cover!.handOverFace = 0.55
            }, [], "under minHandOverFace")
        XCTAssertEqual(
            codes(
                {
                    hand(&$0); $0.face!.cover!.handOverFace = 0.55
                }, previous: [.faceCovered]),
            [.faceCovered], "coverHysteresis")
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
        XCTAssertEqual(
            codes {
                overEye(&$0); $0.face!.pose!.yaw = -22
            }, [.faceCovered, .lookStraight])
        XCTAssertEqual(
            codes {
                overEye(&$0); $0.face!.cover!.handOverFace = 0.85; $0.face!.pose!.yaw = -22
            },
            [.lookStraight], "a bare turned face's reading over the near eye")
        XCTAssertEqual(
            codes(
                {
                    overEye(&$0); $0.face!.cover!.handOverFace = 0.85; $0.face!.pose!.yaw = -22
                },
                previous: [.faceCovered, .lookStraight]),
            [.lookStraight], "coverHysteresis holds the turned limit only down to 0.89, above bare turned faces")
        XCTAssertEqual(
            codes(
                {
                    overEye(&$0); $0.face!.cover!.handOverFace = 0.895; $0.face!.pose!.yaw = -22
                },
                previous: [.faceCovered, .lookStraight]),
            [.faceCovered, .lookStraight], "coverHysteresis")
        XCTAssertEqual(
            codes {
                overEye(&$0); $0.face!.cover!.handOverFace = 0.895; $0.face!.pose!.yaw = -22
            },
            [.lookStraight], "under the turned limit without hysteresis")
        XCTAssertEqual(
            codes {
                overEye(&$0); $0.face!.cover!.handParts = [.rightCheek, .nose]; $0.face!.pose!.yaw = -22
            },
            [.lookStraight], "a cheek on a turned head: the pose's")
        XCTAssertEqual(
            codes {
                overEye(&$0); $0.face!.cover!.rightEyeWidthRatio = 0.6; $0.face!.pose!.yaw = -30
            },
            [.lookStraight], "the far eye: the pose's")
        XCTAssertEqual(
            codes {
                overEye(&$0); $0.face!.cover!.handOverFace = 0.7
            }, [.faceCovered], "facing the camera")
        XCTAssertEqual(
            codes {
                overEye(&$0); closed(&$0)
            }, [.faceCovered], "the hand, not a closed eye")
        XCTAssertEqual(
            codes {
                overEye(&$0); closed(&$0); $0.face!.cover!.handOverFace = 0.4
            }, [.eyesClosed],
            "no hand read: the lids are")
        XCTAssertEqual(
            codes {
                overEye(&$0); closed(&$0); $0.face!.cover!.handParts = [.rightCheek]
            },
            [.faceCovered, .eyesClosed], "a hand on a cheek: the eyes are still read")
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
        XCTAssertEqual(
            codes {
                bright(&$0); $0.face!.cover!.handOverMouth = 0.9
            }, [.faceCovered])
        XCTAssertEqual(
            codes {
                dark(&$0); $0.face!.cover!.handOverFace = 0.85
            }, [.tooDark], "too dark: the light first, hand or not")
        XCTAssertEqual(
            codes {
                bright(&$0); $0.face!.cover!.handOverMouth = 0.3
            }, [.tooBright], "no hand")
        XCTAssertEqual(
            codes {
                bright(&$0); $0.face!.cover!.handOverMouth = 0.47
            }, [.tooBright], "under the cut")
        XCTAssertEqual(
            codes(
                {
                    bright(&$0); $0.face!.cover!.handOverMouth = 0.47
                }, previous: [.faceCovered]),
            [.faceCovered], "coverHysteresis")
        XCTAssertEqual(
            codes {
                dark(&$0); $0.face!.cover!.mouthContrast = 0.05
            }, [.tooDark], "no hand: light first")
        XCTAssertEqual(
            codes {
                bright(&$0); $0.face!.cover!.handOverFace = 0.85; $0.face!.pose!.yaw = 25
            },
            [.tooBright, .lookStraight], "turned: the hand beyond the lips is the pose's")
    }

    /// Issue 32: a face the detector finds but the landmark model rejects, with a hand read over it, is covered by
    /// the hand (`faceCovered`, "Uncover your face"), not missing (`noFace`, "Position your face"); without a hand
    /// there, or too dark to see one, it stays what it was.
    func testAFaceHiddenByAHandIsCoveredNotMissing() {
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.8
            }, [.faceCovered])
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.2
            }, [.noFace])
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.55
            }, [.noFace],
            "under minHandOverFace")
        XCTAssertEqual(
            codes(
                {
                    $0.face = nil; $0.frameLuma = 120; $0.hiddenByHand = 0.55
                }, previous: [.faceCovered]),
            [.faceCovered], "coverHysteresis")
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = 30; $0.hiddenByHand = 0.8
            }, [.tooDark])
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
        XCTAssertEqual(
            codes {
                $0.face!.eyes = Self.openEyes
                $0.face!.features!.leftEyeAspectRatio = 0.05; $0.face!.features!.rightEyeAspectRatio = 0.05
            }, [])
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
        XCTAssertEqual(codes { $0.face!.features!.leftEyeAspectRatio = 0.05 }, [.eyesClosed])
        XCTAssertEqual(codes { $0.face!.features!.leftEyeAspectRatio = 0.16 }, [])
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
        XCTAssertEqual(
            codes {
                $0.face!.eyes = Self.openEyes; $0.face!.cover = Self.bare
                $0.face!.eyes!.rightOpening = 0.06; $0.face!.eyes!.cameraGazeY = 0.061
            }, [.eyesClosed])
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

    func testSmallOrWeakSecondFacesAreIgnored() {
        XCTAssertEqual(
            codes {
                $0.secondFaceScore = 0.9; $0.secondFaceRelativeWidth = 0.2
            }, [])
        XCTAssertEqual(
            codes {
                $0.secondFaceScore = 0.45; $0.secondFaceRelativeWidth = 0.9
            }, [])
        XCTAssertEqual(
            codes {
                $0.secondFaceScore = 0.55; $0.secondFaceRelativeWidth = 0.3
            }, [.multipleFaces])
    }

    func testNoFaceAndTooDarkToFindOne() {
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = 120
            }, [.noFace])
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = 30
            }, [.tooDark])
        XCTAssertEqual(
            codes {
                $0.face = nil; $0.frameLuma = nil
            }, [.noFace])
    }

    func testPriorityOrder() {
        let active = codes {
            $0.motion!.centreSpeed = 0.1
            $0.face!.sharpness = 10
            $0.face!.pose!.roll = 30
            $0.face!.widthRatio = 0.1
            $0.face!.light!.meanLuma = 40
            $0.face!.edgeMargin = -0.1
        }
        // Light first: the blur is not judged in too little light.
        XCTAssertEqual(active, [.faceNotVisible, .tooDark, .moveCloser, .keepHeadLevel, .holdStill])
        XCTAssertEqual(active, active.sorted())
        XCTAssertEqual(GuidanceCode.allCases.first, .noFace)
        XCTAssertEqual(GuidanceCode.allCases.last, .ready)
    }

    func testHysteresisKeepsAConditionUntilItClearsTheMargin() {
        // Width 0.285: above the 0.28 threshold, but within the 0.02 margin of an active moveCloser.
        XCTAssertEqual(codes { $0.face!.widthRatio = 0.285 }, [])
        XCTAssertEqual(codes({ $0.face!.widthRatio = 0.285 }, previous: [.moveCloser]), [.moveCloser])
        XCTAssertEqual(codes({ $0.face!.widthRatio = 0.305 }, previous: [.moveCloser]), [])
        XCTAssertEqual(codes({ $0.face!.sharpness = 170 }, previous: [.blurry]), [.blurry])
        XCTAssertEqual(codes({ $0.face!.sharpness = 185 }, previous: [.blurry]), [])
        XCTAssertEqual(codes({ $0.motion!.centreSpeed = 0.016 }, previous: [.holdStill]), [.holdStill])
        XCTAssertEqual(codes({ $0.motion!.centreSpeed = 0.012 }, previous: [.holdStill]), [])
        XCTAssertEqual(codes({ $0.face!.pose!.roll = -10 }, previous: [.keepHeadLevel]), [.keepHeadLevel])
        XCTAssertEqual(
            codes(
                {
                    $0.face = nil; $0.frameLuma = 55
                }, previous: [.tooDark]), [.tooDark])
        XCTAssertEqual(
            codes({
                $0.face = nil; $0.frameLuma = 55
            }), [.noFace])
    }

    /// Every code with a threshold, and every measure that can raise it: a value past the threshold but
    /// within the margin does not raise the code from nothing, keeps it when it was on, and a value past
    /// the margin clears it. (An audit removed the margins of six codes and no test noticed.)
    func testEveryCodeKeepsItsHysteresis() {
        typealias Change = (inout FrameMetrics) -> Void
        let cases: [(String, GuidanceCode, inMargin: Change, cleared: Change)] = [
            (
                "second face score", .multipleFaces,
                {
                    $0.secondFaceScore = 0.48; $0.secondFaceRelativeWidth = 0.8
                },
                {
                    $0.secondFaceScore = 0.44; $0.secondFaceRelativeWidth = 0.8
                }
            ),
            (
                "second face width", .multipleFaces,
                {
                    $0.secondFaceScore = 0.9; $0.secondFaceRelativeWidth = 0.23
                },
                {
                    $0.secondFaceScore = 0.9; $0.secondFaceRelativeWidth = 0.19
                }
            ),
            ("edge", .faceNotVisible, { $0.face!.edgeMargin = 0.025 }, { $0.face!.edgeMargin = 0.035 }),
            ("dark mean", .tooDark, { $0.face!.light!.meanLuma = 64 }, { $0.face!.light!.meanLuma = 70 }),
            (
                "dark pixels", .tooDark, { $0.face!.light!.darkFraction = 0.35 },
                { $0.face!.light!.darkFraction = 0.31 }
            ),
            // In pixels: 2 px in is still held (the frame-fraction margin, 1.2 px, let it go), 3.5 px clears.
            ("eye distance", .moveCloser, { $0.face!.interEyeDistance = 62 }, { $0.face!.interEyeDistance = 63.5 }),
            (
                "dark frame", .tooDark,
                {
                    $0.face = nil; $0.frameLuma = 55
                },
                {
                    $0.face = nil; $0.frameLuma = 60
                }
            ),
            ("bright mean", .tooBright, { $0.face!.light!.meanLuma = 200 }, { $0.face!.light!.meanLuma = 195 }),
            (
                "bright pixels", .tooBright, { $0.face!.light!.brightFraction = 0.045 },
                { $0.face!.light!.brightFraction = 0.038 }
            ),
            ("far", .moveCloser, { $0.face!.widthRatio = 0.29 }, { $0.face!.widthRatio = 0.31 }),
            ("close", .moveBack, { $0.face!.widthRatio = 0.51 }, { $0.face!.widthRatio = 0.49 }),
            ("image-left", .moveLeft, { $0.face!.offsetX = -0.09 }, { $0.face!.offsetX = -0.07 }),
            ("image-right", .moveRight, { $0.face!.offsetX = 0.09 }, { $0.face!.offsetX = 0.07 }),
            ("low", .moveUp, { $0.face!.offsetY = 0.09 }, { $0.face!.offsetY = 0.07 }),
            ("high", .moveDown, { $0.face!.offsetY = -0.09 }, { $0.face!.offsetY = -0.07 }),
            ("yaw", .lookStraight, { $0.face!.pose!.yaw = -13 }, { $0.face!.pose!.yaw = -11 }),
            ("pitch", .lookStraight, { $0.face!.pose!.pitch = 13 }, { $0.face!.pose!.pitch = 11 }),
            ("roll", .keepHeadLevel, { $0.face!.pose!.roll = 10 }, { $0.face!.pose!.roll = 8 }),
            (
                "side light", .unevenLight,
                {
                    $0.face!.light!.leftLuma = 52; $0.face!.light!.rightLuma = 100
                },
                {
                    $0.face!.light!.leftLuma = 56; $0.face!.light!.rightLuma = 100
                }
            ),
            (
                "eyes", .eyesClosed,
                {
                    $0.face!.features!.leftEyeAspectRatio = 0.16; $0.face!.features!.rightEyeAspectRatio = 0.16
                },
                {
                    $0.face!.features!.leftEyeAspectRatio = 0.18; $0.face!.features!.rightEyeAspectRatio = 0.18
                }
            ),
            ("sharpness", .blurry, { $0.face!.sharpness = 170 }, { $0.face!.sharpness = 185 }),
            ("speed", .holdStill, { $0.motion!.centreSpeed = 0.016 }, { $0.motion!.centreSpeed = 0.012 }),
            ("size change", .holdStill, { $0.motion!.sizeChange = 0.025 }, { $0.motion!.sizeChange = 0.019 }),
            (
                "mask", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 11.5
                    $0.face!.cover!.mouthContrast = 0.25
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 10.5;
                    $0.face!.cover!.mouthContrast = 0.25
                }
            ),
            (
                "mask, the mouth", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 20
                    $0.face!.cover!.mouthContrast = 0.37
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 20;
                    $0.face!.cover!.mouthContrast = 0.39
                }
            ),
            (
                "mask, the mouth's colour", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 20
                    $0.face!.cover!.mouthContrast = 0.25; $0.face!.cover!.mouthChroma = 4.7
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceChroma = 20;
                    $0.face!.cover!.mouthContrast = 0.25
                    $0.face!.cover!.mouthChroma = 5.0
                }
            ),
            (
                "hand over the mouth", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.mouthContrast = 0.23
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.mouthContrast = 0.25
                }
            ),
            (
                "hand model", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.handOverMouth = 0.47
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.handOverMouth = 0.44
                }
            ),
            (
                "mask's hue", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceHue = 8.5
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.lowerFaceHue = 8
                }
            ),
            (
                "dark lens", .faceCovered,
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.rightEyeBrightness = 0.47
                },
                {
                    $0.face!.cover = Self.bare; $0.face!.cover!.rightEyeBrightness = 0.5
                }
            ),
        ]
        for (name, code, inMargin, cleared) in cases {
            XCTAssertFalse(codes(inMargin).contains(code), "\(name): the plain threshold raises \(code) too early")
            XCTAssertTrue(codes(inMargin, previous: [code]).contains(code), "\(name): \(code) has no hysteresis")
            XCTAssertFalse(codes(cleared, previous: [code]).contains(code), "\(name): \(code) never clears")
        }
        let covered = Set(cases.map(\.1))
        let untested = Set(GuidanceCode.allCases).subtracting(covered).subtracting([.noFace, .ready])
        XCTAssertEqual(untested, [], "codes with a threshold but no hysteresis check")
    }

    func testTextsAndCodesAreStable() {
        XCTAssertEqual(GuidanceCode.moveCloser.rawValue, "moveCloser")
        XCTAssertEqual(Messages.guidanceID(.ready).english, "Perfect — hold still")
        XCTAssertEqual(
            Set(GuidanceCode.allCases.map { Messages.guidanceID($0).english }).count,
            GuidanceCode.allCases.count)
    }
}
