import Foundation
import XCTest

@testable import FaceCapCore
@testable import FaceCapIO

/// The constructed frames in Tests/Fixtures/eyes (tools/make_eye_frames.py: closed eyes, irises moved,
/// masks, sunglasses, a hand over an eye, made from sergey.png and grace_hopper.jpg; tools/make_cover_frames.py:
/// hands over the mouth, facial hair, fringes) and what each must get.
enum EyeFixtures {
    static let closed = ["eyes/sergey_closed.jpg"]
    static let averted = ["eyes/sergey_gaze_left.jpg", "eyes/sergey_gaze_right.jpg", "eyes/grace_hopper_gaze_left.jpg"]
    /// Both eyes turned 30° down or up with their lids following (`look_vertically`), the head level; true: down.
    static let vertical = [
        ("eyes/sergey_gaze_down2.jpg", true), ("eyes/grace_hopper_gaze_down2.jpg", true),
        ("eyes/sergey_gaze_up.jpg", false), ("eyes/grace_hopper_gaze_up.jpg", false),
    ]
    /// Covered, with the region `CoverMetrics.regions` must name.
    static let covered = [
        ("eyes/sergey_mask_surgical.jpg", "mouth"), ("eyes/sergey_mask_cloth.jpg", "mouth"),
        ("eyes/grace_hopper_mask_surgical.jpg", "mouth"), ("eyes/sergey_sunglasses.jpg", "eyes"),
        ("eyes/grace_hopper_sunglasses.jpg", "eyes"), ("eyes/sergey_hand_eye.jpg", "eye"),
        ("eyes/grace_hopper_hand_eye.jpg", "eye"),
        ("eyes/sergey_hand_mouth_up.jpg", "mouth"), ("eyes/sergey_hand_mouth_across.jpg", "mouth"),
        ("eyes/sergey_hand_mouth_hr_2.jpg", "mouth"), ("eyes/grace_hopper_hand_mouth_dr_6.jpg", "mouth"),
        ("eyes/sergey_mask_pleated_green.jpg", "mouth"), ("eyes/sergey_mask_pleated_blue.jpg", "mouth"),
        ("eyes/grace_hopper_mask_printed.jpg", "mouth"),
    ]
    /// Hands across the mouth whose finger gaps give the mouth measures a lip-like range: only the hand model
    /// sees them (tools/make_cover_frames.py variants hand_hr_2 and hand_dr_6).
    static let handsAcross = ["eyes/sergey_hand_mouth_hr_2.jpg", "eyes/grace_hopper_hand_mouth_dr_6.jpg"]
    /// Pleated green and blue surgical masks and a printed one (tools/make_eye_frames.py): pleats and print give
    /// the mouth a range and colours of its own, so only the lower face's hue tells them.
    static let colouredMasks = [
        "eyes/sergey_mask_pleated_green.jpg", "eyes/sergey_mask_pleated_blue.jpg",
        "eyes/grace_hopper_mask_printed.jpg",
    ]
    static let open = ["sergey.png", "images/grace_hopper.jpg"]
    /// Eyes on the camera in a surprised (wide) or squinting (narrow) face: only the lids moved, by
    /// `move_lids` (tools/make_eye_frames.py, LID_EXPRESSIONS), each with the photo it is made from.
    static let expressions = [
        ("eyes/sergey_eyes_wide.jpg", "sergey.png"),
        ("eyes/sergey_eyes_narrow.jpg", "sergey.png"),
        ("eyes/grace_hopper_eyes_wide.jpg", "images/grace_hopper.jpg"),
        ("eyes/grace_hopper_eyes_narrow.jpg", "images/grace_hopper.jpg"),
    ]
    /// Uncovered faces with facial hair or a fringe (tools/make_cover_frames.py), each with the photo it is
    /// drawn on: beards are another colour than the skin, and none of them covers the face.
    static let hair = [
        ("eyes/sergey_beard_dark.jpg", "sergey.png"), ("eyes/sergey_moustache_dark.jpg", "sergey.png"),
        ("eyes/sergey_stubble.jpg", "sergey.png"), ("eyes/sergey_fringe_dark.jpg", "sergey.png"),
        ("eyes/grace_hopper_beard_light.jpg", "images/grace_hopper.jpg"),
        ("eyes/grace_hopper_moustache_light.jpg", "images/grace_hopper.jpg"),
        ("eyes/grace_hopper_fringe_light.jpg", "images/grace_hopper.jpg"),
    ]
    static var all: [String] { closed + averted + covered.map(\.0) + hair.map(\.0) }
}

/// Closed eyes, averted gaze and covered faces on whole photos: the guidance a photo gets (`facecap
/// analyze`) and the built-in validator's verdict, both with the iris model.
final class EyeCoverTests: XCTestCase {
    private func analyse(_ name: String) throws -> (report: AnalysisReport.Entry, faces: [Face], frame: Frame) {
        let tracker = try FaceModelsFixture.tracker()
        let frame = try ImageFile.read(path: fixturePath(name))
        let faces = tracker.process(frame)
        return (AnalysisReport.photo(frame: frame, faces: faces, thresholds: AnalyzerThresholds()), faces, frame)
    }

    /// The built-in validator's reasons for the photo, as `BuiltInChecker` gets them (its own tracker with the
    /// iris and hand models, both read on every photo).
    private func verdict(_ name: String) throws -> [String] {
        let tracker = try FaceModelsFixture.tracker()
        tracker.eyeInterval = 1
        tracker.handInterval = 1
        let frame = try ImageFile.read(path: fixturePath(name))
        return LocalValidator().assess(frame, faces: tracker.process(frame)).reasons
    }

    func testOpenUncoveredPhotosAreNeitherClosedAvertedNorCovered() throws {
        for name in EyeFixtures.open {
            let (report, _, _) = try analyse(name)
            let face = try XCTUnwrap(report.metrics.face)
            let eyes = try XCTUnwrap(face.eyes, "\(name): the iris model ran")
            XCTAssertGreaterThan(eyes.minOpening, AnalyzerThresholds().minEyeOpening + 0.03, name)
            XCTAssertLessThan(abs(eyes.cameraGazeX), AnalyzerThresholds().maxGazeX - 0.02, name)
            XCTAssertEqual(try XCTUnwrap(face.cover).regions(AnalyzerThresholds()), [], name)
            for code in [GuidanceCode.eyesClosed, .lookStraight, .faceCovered] {
                XCTAssertFalse(report.guidance.contains(code), "\(name): \(report.guidance)")
            }
            let reasons = try verdict(name)
            for code in ["eyesClosed", "lookStraight", "faceCovered"] {
                XCTAssertFalse(reasons.contains(code), "\(name): \(reasons)")
            }
        }
    }

    func testBeardsMoustachesAndAFringeAreNotCovers() throws {
        for (name, photo) in EyeFixtures.hair {
            let (report, _, _) = try analyse(name)
            let cover = try XCTUnwrap(report.metrics.face?.cover, name)
            XCTAssertEqual(cover.regions(AnalyzerThresholds()), [], "\(name): \(cover)")
            XCTAssertFalse(report.guidance.contains(.faceCovered), "\(name): \(report.guidance)")
            // Nothing else changes either: the guidance and the validator's reasons are the bare photo's.
            XCTAssertEqual(report.guidance, try analyse(photo).report.guidance, name)
            XCTAssertEqual(try verdict(name), try verdict(photo), name)
        }
        // The dark beard is as far from the skin's colour as a mask: only the mouth showing through tells them apart.
        let beard = try XCTUnwrap(try analyse("eyes/sergey_beard_dark.jpg").report.metrics.face?.cover)
        XCTAssertGreaterThan(beard.lowerFaceChroma, 2 * AnalyzerThresholds().maxLowerFaceChroma)
        XCTAssertGreaterThan(try XCTUnwrap(beard.mouthContrast), AnalyzerThresholds().minColouredMouthContrast)
    }

    func testClosedEyesAreSeenGuidedAndRefused() throws {
        for name in EyeFixtures.closed {
            let (report, _, _) = try analyse(name)
            let eyes = try XCTUnwrap(report.metrics.face?.eyes)
            XCTAssertLessThan(eyes.maxOpening, AnalyzerThresholds().minEyeOpening, name)
            XCTAssertTrue(report.guidance.contains(.eyesClosed), "\(name): \(report.guidance)")
            XCTAssertFalse(report.guidance.contains(.faceCovered), "\(name): closed eyes are not a cover")
            XCTAssertTrue(try verdict(name).contains("eyesClosed"), name)
        }
    }

    func testAvertedEyesAreSeenGuidedAndRefused() throws {
        for name in EyeFixtures.averted {
            let (report, _, _) = try analyse(name)
            let face = try XCTUnwrap(report.metrics.face)
            let pose = try XCTUnwrap(face.pose)
            // The head is straight: the eyes alone call for lookStraight.
            XCTAssertLessThan(max(abs(pose.yaw), abs(pose.pitch)), AnalyzerThresholds().maxYaw, name)
            let eyes = try XCTUnwrap(face.eyes)
            XCTAssertGreaterThan(abs(eyes.cameraGazeX), AnalyzerThresholds().maxGazeX, name)
            XCTAssertEqual(name.contains("left"), eyes.cameraGazeX < 0, "\(name): the side the iris moved to")
            XCTAssertTrue(report.guidance.contains(.lookStraight), "\(name): \(report.guidance)")
            XCTAssertFalse(report.guidance.contains(.eyesClosed), name)
            XCTAssertTrue(try verdict(name).contains("lookStraight"), name)
        }
    }

    func testEyesTurnedDownOrUpAreSeenGuidedAndRefused() throws {
        let t = AnalyzerThresholds()
        for (name, down) in EyeFixtures.vertical {
            let (report, _, _) = try analyse(name)
            let face = try XCTUnwrap(report.metrics.face)
            let pose = try XCTUnwrap(face.pose)
            // The head is level and straight: the eyes alone call for lookStraight.
            XCTAssertLessThan(max(abs(pose.yaw), abs(pose.pitch)), t.maxPitch - 5, name)
            let eyes = try XCTUnwrap(face.eyes)
            // Looking down narrows the opening, but these eyes are visibly open: not closed, for either.
            XCTAssertGreaterThan(eyes.minOpening, AnalyzerThresholds().minEyeOpening, name)
            XCTAssertGreaterThan(down ? eyes.cameraGazeY : -eyes.cameraGazeY, t.maxGazeY, name)
            // Looking down brings the iris to the lower lid (a surprised face does not).
            if down { XCTAssertGreaterThan(eyes.irisToLowerLid, t.maxIrisToLowerLidDown + 0.01, name) }
            XCTAssertLessThan(abs(eyes.cameraGazeX), t.maxGazeX - 0.02, "\(name): straight ahead sideways")
            XCTAssertTrue(report.guidance.contains(.lookStraight), "\(name): \(report.guidance)")
            XCTAssertFalse(report.guidance.contains(.eyesClosed), name)
            let reasons = try verdict(name)
            XCTAssertTrue(reasons.contains("lookStraight"), "\(name): \(reasons)")
            XCTAssertFalse(reasons.contains("eyesClosed"), "\(name): \(reasons)")
        }
    }

    func testWideOpenAndNarrowedEyesOnTheCameraReadOnTheCamera() throws {
        // The vertical gaze is the iris against the eye corners, which the lids do not move: a surprised or a
        // squinting face looking into the camera reads as its own photo does, while the turned eyes above
        // stay caught.
        let t = AnalyzerThresholds()
        for (name, photo) in EyeFixtures.expressions {
            let (report, _, _) = try analyse(name)
            let eyes = try XCTUnwrap(report.metrics.face?.eyes, name)
            let own = try XCTUnwrap(try analyse(photo).report.metrics.face?.eyes, photo)
            XCTAssertLessThan(abs(eyes.cameraGazeY), t.maxGazeY - 0.01, name)
            XCTAssertEqual(eyes.cameraGazeY, own.cameraGazeY, accuracy: 0.02, "\(name) against \(photo)")
            // Opened wide, the iris stays well above the lower lid (narrowed, the lower lid rises toward it).
            if name.contains("wide") { XCTAssertLessThan(eyes.irisToLowerLid, t.maxIrisToLowerLidDown, name) }
            XCTAssertGreaterThan(eyes.minOpening, t.minEyeOpening + 0.02, name)
            for code in [GuidanceCode.lookStraight, .eyesClosed, .faceCovered] {
                XCTAssertFalse(report.guidance.contains(code), "\(name): \(report.guidance)")
            }
            XCTAssertEqual(try verdict(name), [], name)
        }
    }

    func testOpenEyesReadLevelWithTheCamera() throws {
        for name in EyeFixtures.open {
            let eyes = try XCTUnwrap(try analyse(name).report.metrics.face?.eyes, name)
            XCTAssertLessThan(abs(eyes.cameraGazeY), AnalyzerThresholds().maxGazeY - 0.01, name)
        }
    }

    func testCoveredFacesAreSeenWithTheirRegionGuidedAndRefused() throws {
        for (name, region) in EyeFixtures.covered {
            let (report, _, _) = try analyse(name)
            let cover = try XCTUnwrap(report.metrics.face?.cover, name)
            XCTAssertTrue(
                cover.regions(AnalyzerThresholds()).contains(region),
                "\(name): \(cover.regions(AnalyzerThresholds())) \(cover)")
            XCTAssertEqual(
                report.guidance.first { $0 != .faceNotVisible && $0 != .multipleFaces }, .faceCovered,
                "\(name): faceCovered comes first after framing: \(report.guidance)")
            XCTAssertTrue(try verdict(name).contains("faceCovered"), name)
        }
    }

    func testHandsAcrossTheMouthAreSeenByTheHandModel() throws {
        let t = AnalyzerThresholds()
        for name in EyeFixtures.handsAcross {
            var cover = try XCTUnwrap(try analyse(name).report.metrics.face?.cover, name)
            let flag = try XCTUnwrap(cover.handOverMouth, "\(name): the hand model ran on the photo")
            XCTAssertGreaterThan(flag, t.minHandOverMouth + 0.15, name)
            XCTAssertTrue(cover.regions(t).contains("mouth"), "\(name): \(cover)")
            // The mouth measures alone leave it uncovered: the hand model is what catches it.
            cover.handOverMouth = nil
            XCTAssertFalse(cover.regions(t).contains("mouth"), "\(name): \(cover)")
        }
        // Bare faces, beards, moustaches, stubble, fringes, masks and a hand over an eye read far under the cut.
        let uncovered =
            EyeFixtures.open + EyeFixtures.hair.map(\.0) + EyeFixtures.colouredMasks
            + ["eyes/sergey_mask_surgical.jpg", "eyes/sergey_mask_cloth.jpg", "eyes/sergey_hand_eye.jpg"]
        for name in uncovered {
            let flag = try XCTUnwrap(try analyse(name).report.metrics.face?.cover?.handOverMouth, name)
            XCTAssertLessThan(flag, t.minHandOverMouth / 5, name)
        }
    }

    func testMasksOfAnyColourAreSeenByTheLowerFacesHue() throws {
        let t = AnalyzerThresholds()
        var withoutHue = t
        withoutHue.maxLowerFaceHue = 255
        for name in EyeFixtures.colouredMasks {
            let cover = try XCTUnwrap(try analyse(name).report.metrics.face?.cover, name)
            XCTAssertGreaterThan(cover.lowerFaceHue, 1.3 * t.maxLowerFaceHue, "\(name): \(cover)")
            XCTAssertTrue(cover.regions(t).contains("mouth"), "\(name): \(cover)")
            XCTAssertFalse(cover.regions(withoutHue).contains("mouth"), "\(name): the other mouth rules miss it")
        }
        // Skin and hair lie on the line the hue is measured from, however far from the skin's colour a beard is.
        for name in EyeFixtures.open + EyeFixtures.hair.map(\.0) {
            let cover = try XCTUnwrap(try analyse(name).report.metrics.face?.cover, name)
            XCTAssertLessThan(cover.lowerFaceHue, 0.6 * t.maxLowerFaceHue, "\(name): \(cover)")
        }
    }

    /// Eyes squeezed shut, whose lids the iris model still places 0.13–0.16 apart on the creases, read
    /// closed because no pupil shows between those lids; a narrowed eye with its pupil showing stays open.
    /// Built from sergey.png: the iris model's own points, the lids drawn together about the middle of the
    /// opening to 0.15 of the eye's width (narrowed, the model's reading replaced at this edge), on the photo
    /// as taken (pupils showing) and on the photo with each eye's opening filled with the lid skin above it.
    func testEyesShowingNoPupilBetweenNarrowLidsReadClosed() throws {
        let t = AnalyzerThresholds()
        let (_, faces, photo) = try analyse("sergey.png")
        var face = try XCTUnwrap(faces.first)
        let eyes = try XCTUnwrap(face.eyes)
        let open = FaceMeasures.measure(frame: photo, faces: [face], thresholds: t)
        let shades = try [XCTUnwrap(open.face?.eyes?.rightPupilShade), XCTUnwrap(open.face?.eyes?.leftPupilShade)]
        for shade in shades { XCTAssertLessThan(shade, t.maxPupilShade - 0.1, "the photo's pupils: \(shades)") }

        face.eyes = FaceEyes(
            right: Self.narrowed(eyes.right, leftToRight: true, to: 0.15),
            left: Self.narrowed(eyes.left, leftToRight: false, to: 0.15))
        let lidded = Self.fillingOpenings(of: eyes, in: photo)
        let narrow = FaceMeasures.measure(frame: photo, faces: [face], thresholds: t)
        let shut = FaceMeasures.measure(frame: lidded, faces: [face], thresholds: t)
        let narrowEyes = try XCTUnwrap(narrow.face?.eyes), shutEyes = try XCTUnwrap(shut.face?.eyes)
        for eyes in [narrowEyes, shutEyes] {
            XCTAssertEqual(eyes.rightOpening, 0.15, accuracy: 0.005)
            XCTAssertEqual(eyes.leftOpening, 0.15, accuracy: 0.005)
        }
        // Narrowed with the pupils showing: open, no code about the eyes, capturable.
        XCTAssertGreaterThanOrEqual(narrowEyes.minOpening, t.minEyeOpening)
        XCTAssertFalse(GuidanceRules.activeCodes(narrow, thresholds: t).contains(.eyesClosed))
        XCTAssertTrue(GuidanceRules.eyesCapturable(narrowEyes, thresholds: t))
        // The same lids with lid skin between them: no pupil, closed, said and never captured.
        for shade in [shutEyes.rightPupilShade, shutEyes.leftPupilShade] {
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(shade), t.maxPupilShade, "\(shutEyes)")
        }
        XCTAssertLessThan(shutEyes.minOpening, t.minEyeOpening)
        XCTAssertLessThan(shutEyes.maxOpening, t.minEyeOpening)
        let codes = GuidanceRules.activeCodes(shut, thresholds: t)
        XCTAssertTrue(codes.contains(.eyesClosed), "\(codes)")
        XCTAssertFalse(codes.contains(.lookStraight), "no gaze is read on closed eyes: \(codes)")
        XCTAssertFalse(GuidanceRules.eyesCapturable(shutEyes, thresholds: t))
        // The validator judges the photo on the same reading.
        XCTAssertTrue(LocalValidator().assess(lidded, faces: [face]).reasons.contains("eyesClosed"))
        XCTAssertFalse(LocalValidator().assess(photo, faces: [face]).reasons.contains("eyesClosed"))
    }

    /// `eye` with its lids (contour 1…7 and 9…15) moved toward the middle of the opening, so that the opening
    /// `EyeMeasures` reads is `opening` eye widths.
    static func narrowed(_ eye: EyeLandmarks, leftToRight: Bool, to opening: Double) -> EyeLandmarks {
        let now = EyeMeasures.eye(eye, leftToRight: leftToRight).opening
        let a = eye.outerCorner, b = eye.innerCorner
        let axis = SIMD2(b.x - a.x, b.y - a.y), along = axis / ((axis * axis).sum()).squareRoot()
        let down = SIMD2(-along.y, along.x)
        var out = eye
        for (upper, lower) in (9...15).map({ ($0, $0 - 8) }) {
            let pu = eye.contour[upper], pl = eye.contour[lower]
            let vu = (SIMD2(pu.x - a.x, pu.y - a.y) * down).sum(), vl = (SIMD2(pl.x - a.x, pl.y - a.y) * down).sum()
            let mid = (vu + vl) / 2, k = Float(opening / now)
            out.contour[upper] += SIMD3(down * ((mid + (vu - mid) * k) - vu), 0)
            out.contour[lower] += SIMD3(down * ((mid + (vl - mid) * k) - vl), 0)
        }
        return out
    }

    /// `frame` (RGB) with the opening of each eye (between the iris model's lids) filled with the skin of the
    /// upper lid: each pixel takes the one mirrored about a line 0.1 eye widths above the upper lid.
    static func fillingOpenings(of eyes: FaceEyes, in frame: Frame) -> Frame {
        precondition(frame.format == .rgb24)
        var out = frame
        for (eye, leftToRight) in [(eyes.right, true), (eyes.left, false)] {
            let c = eye.contour.map { SIMD2(Double($0.x), Double($0.y)) }
            let a = leftToRight ? c[0] : c[8], b = leftToRight ? c[8] : c[0]
            let width = ((b - a) * (b - a)).sum().squareRoot(), along = (b - a) / width, down = SIMD2(-along.y, along.x)
            func uv(_ p: SIMD2<Double>) -> SIMD2<Double> {
                SIMD2(((p - a) * along).sum(), ((p - a) * down).sum()) / width
            }
            let upper = ([0, 9, 10, 11, 12, 13, 14, 15, 8].map { uv(c[$0]) }).sorted { $0.x < $1.x }
            let lower = ((0...8).map { uv(c[$0]) }).sorted { $0.x < $1.x }
            let xs = c[0...15].map(\.x), ys = c[0...15].map(\.y)
            for y in Int(ys.min()! - 2)...Int(ys.max()! + 2) {
                for x in Int(xs.min()! - 2)...Int(xs.max()! + 2) {
                    let p = uv(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                    let top = EyeMeasures.interpolate(upper, p.x), bottom = EyeMeasures.interpolate(lower, p.x)
                    guard p.y > top - 0.02, p.y < bottom + 0.02 else { continue }
                    let v = 2 * (top - 0.1) - p.y
                    let q = a + along * (p.x * width) + down * (v * width)
                    let sx = min(max(Int(q.x), 0), frame.width - 1), sy = min(max(Int(q.y), 0), frame.height - 1)
                    for k in 0..<3 {
                        out.data[(y * frame.width + x) * 3 + k] = frame.data[(sy * frame.width + sx) * 3 + k]
                    }
                }
            }
        }
        return out
    }

    func testNoGazeIsReadBehindCoveredEyes() throws {
        // The iris model reads a guessed iris behind dark lenses: before this rule sergey's and grace_hopper's
        // sunglasses got "Look straight at the camera" with the head straight.
        for name in ["eyes/sergey_sunglasses.jpg", "eyes/grace_hopper_sunglasses.jpg"] {
            let (report, _, _) = try analyse(name)
            let pose = try XCTUnwrap(report.metrics.face?.pose, name)
            XCTAssertLessThan(max(abs(pose.yaw), abs(pose.pitch)), AnalyzerThresholds().maxYaw - 3, name)
            XCTAssertTrue(report.guidance.contains(.faceCovered), "\(name): \(report.guidance)")
            XCTAssertFalse(report.guidance.contains(.lookStraight), "\(name): \(report.guidance)")
            XCTAssertFalse(try verdict(name).contains("lookStraight"), name)
        }
    }

    func testAnalyzeJSONShowsTheEyesAndTheCoverPerFace() throws {
        let (report, faces, _) = try analyse("eyes/sergey_closed.jpg")
        let face = try XCTUnwrap(faces.first)
        let fields = Dictionary(uniqueKeysWithValues: AnalysisReport.faceFields(face, thresholds: AnalyzerThresholds()))
        let eyes = try XCTUnwrap(fields["eyes"])
        XCTAssertTrue(eyes.hasPrefix("{\"opening\":["), eyes)
        XCTAssertTrue(eyes.contains("\"cameraGaze\":["), eyes)
        XCTAssertEqual(fields["eyesOpen"], "false")
        let metrics = AnalysisReport.metricsJSON(report.metrics, guidance: report.guidance)
        XCTAssertTrue(metrics.contains("\"cover\":{\"regions\":[]"), metrics)
    }
}
