import XCTest

@testable import FaceCapCore

final class GuidanceTests: XCTestCase {
    let thresholds = AnalyzerThresholds()

    func codes(_ change: (inout FrameMetrics) -> Void, previous: Set<GuidanceCode> = []) -> [GuidanceCode] {
        var metrics = AnalysisFixtures.goodMetrics(at: 0)
        change(&metrics)
        return GuidanceRules.activeCodes(metrics, previous: previous, thresholds: thresholds)
    }

    /// A bare face (`bare`) whose cover `change` changes.
    func onBare(_ change: @escaping (inout CoverMetrics) -> Void) -> (inout FrameMetrics) -> Void {
        {
            $0.face!.cover = Self.bare
            change(&$0.face!.cover!)
        }
    }

    /// `codes(change, previous:)` are `expected`; a failure is reported at the caller's line.
    func assertCodes(
        _ expected: [GuidanceCode], _ message: String = "", previous: Set<GuidanceCode> = [],
        file: StaticString = #filePath, line: UInt = #line, _ change: (inout FrameMetrics) -> Void
    ) {
        XCTAssertEqual(codes(change, previous: previous), expected, message, file: file, line: line)
    }

    func testGoodMeasuresCallForNothing() {
        assertCodes([]) {
            _ in
        }
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
    static let openEyes = EyeMetrics(
        rightOpening: 0.24, leftOpening: 0.23, gazeX: 0, gazeY: -0.08,
        cameraGazeX: 0, cameraGazeY: 0, isFresh: true)
    static let bare = CoverMetrics(
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
        assertCodes([]) {
            $0.face!.cover = Self.bare; $0.face!.cover!.leftEyeBrightness = 0.41
            $0.face!.cover!.leftEyeWidthRatio = 0.64
        }
    }

    func testSmallOrWeakSecondFacesAreIgnored() {
        assertCodes([]) {
            $0.secondFaceScore = 0.9; $0.secondFaceRelativeWidth = 0.2
        }
        assertCodes([]) {
            $0.secondFaceScore = 0.45; $0.secondFaceRelativeWidth = 0.9
        }
        assertCodes([.multipleFaces]) {
            $0.secondFaceScore = 0.55; $0.secondFaceRelativeWidth = 0.3
        }
    }

    func testNoFaceAndTooDarkToFindOne() {
        assertCodes([.noFace]) {
            $0.face = nil; $0.frameLuma = 120
        }
        assertCodes([.tooDark]) {
            $0.face = nil; $0.frameLuma = 30
        }
        assertCodes([.noFace]) {
            $0.face = nil; $0.frameLuma = nil
        }
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
        assertCodes([]) {
            $0.face!.widthRatio = 0.285
        }
        assertCodes([.moveCloser], previous: [.moveCloser]) {
            $0.face!.widthRatio = 0.285
        }
        assertCodes([], previous: [.moveCloser]) {
            $0.face!.widthRatio = 0.305
        }
        assertCodes([.blurry], previous: [.blurry]) {
            $0.face!.sharpness = 170
        }
        assertCodes([], previous: [.blurry]) {
            $0.face!.sharpness = 185
        }
        assertCodes([.holdStill], previous: [.holdStill]) {
            $0.motion!.centreSpeed = 0.016
        }
        assertCodes([], previous: [.holdStill]) {
            $0.motion!.centreSpeed = 0.012
        }
        assertCodes([.keepHeadLevel], previous: [.keepHeadLevel]) {
            $0.face!.pose!.roll = -10
        }
        assertCodes([.tooDark], previous: [.tooDark]) {
            $0.face = nil; $0.frameLuma = 55
        }
        assertCodes([.noFace]) {
            $0.face = nil; $0.frameLuma = 55
        }
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
                onBare {
                    $0.lowerFaceChroma = 11.5; $0.mouthContrast = 0.25
                },
                onBare {
                    $0.lowerFaceChroma = 10.5; $0.mouthContrast = 0.25
                }
            ),
            (
                "mask, the mouth", .faceCovered,
                onBare {
                    $0.lowerFaceChroma = 20; $0.mouthContrast = 0.37
                },
                onBare {
                    $0.lowerFaceChroma = 20; $0.mouthContrast = 0.39
                }
            ),
            (
                "mask, the mouth's colour", .faceCovered,
                onBare {
                    $0.lowerFaceChroma = 20; $0.mouthContrast = 0.25; $0.mouthChroma = 4.7
                },
                onBare {
                    $0.lowerFaceChroma = 20; $0.mouthContrast = 0.25; $0.mouthChroma = 5.0
                }
            ),
            (
                "hand over the mouth", .faceCovered,
                onBare { $0.mouthContrast = 0.23 },
                onBare { $0.mouthContrast = 0.25 }
            ),
            (
                "hand model", .faceCovered,
                onBare { $0.handOverMouth = 0.47 },
                onBare { $0.handOverMouth = 0.44 }
            ),
            (
                "mask's hue", .faceCovered,
                onBare { $0.lowerFaceHue = 8.5 },
                onBare { $0.lowerFaceHue = 8 }
            ),
            (
                "dark lens", .faceCovered,
                onBare { $0.rightEyeBrightness = 0.47 },
                onBare { $0.rightEyeBrightness = 0.5 }
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
