import Foundation
import XCTest

/// `facecap analyze` as a user and a script see it: photos, clips, JSON fields, bad input.
final class AnalyzeCommandTests: ScratchDirectoryTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    private func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
        }
    }

    func testPhotoJSONHasTheContractFields() throws {
        let result = try runFacecap(["analyze", "--json", fixture("sergey.png"), fixture("dino.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try jsonLines(result.stdout)
        XCTAssertEqual(lines.count, 2)
        let sergey = lines[0]
        XCTAssertEqual(sergey["file"] as? String, fixture("sergey.png"))
        XCTAssertEqual(sergey["frame"] as? Int, 0)
        let face = try XCTUnwrap((sergey["faces"] as? [[String: Any]])?.first)
        XCTAssertEqual((face["box"] as? [Double])?.count, 4)
        XCTAssertEqual((face["keypoints"] as? [String: [Double]])?.count, 6)
        XCTAssertEqual(try XCTUnwrap(face["yaw"] as? Double), 0, accuracy: 5)
        XCTAssertEqual(try XCTUnwrap(face["roll"] as? Double), 0, accuracy: 5)
        XCTAssertNotNil(face["pitch"] as? Double)
        XCTAssertEqual(face["eyesOpen"] as? Bool, true)
        let metrics = try XCTUnwrap(sergey["metrics"] as? [String: Any])
        for key in [
            "faceWidth", "offsetX", "offsetY", "edgeMargin", "faceLuma", "darkFraction", "brightFraction",
            "lightBalance", "sharpness", "frameLuma", "eyeAspectRatio", "mouthOpening",
        ] {
            XCTAssertNotNil(metrics[key], key)
            XCTAssertFalse(metrics[key] is NSNull, key)
        }
        // sergey.png's face fills 53 % of its width: too close for the 0.52 limit.
        XCTAssertEqual(sergey["guidance"] as? [String], ["moveBack"])
        XCTAssertEqual(sergey["primary"] as? String, "moveBack")

        let dino = lines[1]
        XCTAssertEqual((dino["faces"] as? [Any])?.count, 0)
        XCTAssertEqual(dino["guidance"] as? [String], ["noFace"])
        XCTAssertEqual(dino["primary"] as? String, "noFace")
    }

    func testReadableSummary() throws {
        let result = try runFacecap(["analyze", fixture("images/grace_hopper.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let heading = fixture("images/grace_hopper.jpg") + " (512x600): 1 face"
        XCTAssertTrue(result.stdout.hasPrefix(heading), result.stdout)
        XCTAssertTrue(result.stdout.contains("measured: width"), result.stdout)
        XCTAssertTrue(result.stdout.contains("pose: yaw"), result.stdout)
        XCTAssertTrue(result.stdout.contains("guidance: "), result.stdout)
    }

    // MARK: clips

    private func clip(
        frames: Int, gain: Double = 1, width: (Int) -> Double,
        x: (Int) -> Double = { _ in 0.5 }
    ) -> Data {
        TestClips.sergey(frames: frames, gain: gain, width: width, x: x)
    }

    func testAClipThatApproachesAndHoldsIsAutoCaptured() throws {
        // 1 s approaching from 0.2 to 0.38 of the width, then 1.5 s still.
        let path = try write("approach.y4m", clip(frames: 75) { i in i < 30 ? 0.2 + 0.18 * Double(i) / 30 : 0.38 })
        let result = try runFacecap(["analyze", "--json", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let frames = try jsonLines(result.stdout)
        XCTAssertEqual(frames.count, 75)
        XCTAssertEqual(frames[2]["primary"] as? String, "moveCloser")
        XCTAssertEqual(try XCTUnwrap(frames[40]["timestamp"] as? Double), 40.0 / 30, accuracy: 0.001)
        let captures = frames.indices.filter { !(frames[$0]["capture"] is NSNull) }
        XCTAssertEqual(captures.count, 1, "one auto capture")
        let capture = try XCTUnwrap(captures.first)
        XCTAssertGreaterThanOrEqual(capture, 60, "a whole stability window after the face stopped")
        XCTAssertEqual(frames[capture]["primary"] as? String, "ready")
        XCTAssertEqual(frames[capture]["stability"] as? Double, 1)
        // Held still and ready, the eyes are read every `eyeInterval` (3) frames.
        let held = eyeReadings(frames[36..<capture])
        XCTAssertEqual(Set(zip(held, held.dropFirst()).map { $1 - $0 }), [3], "eyes read on frames \(held)")
        for key in ["hints", "keepFrame", "manualFallback", "guidance", "metrics", "faces"] {
            XCTAssertNotNil(frames[capture][key], key)
        }

        let text = try runFacecap(["analyze", path])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("AUTO CAPTURE of the frame at"), text.stdout)
        XCTAssertTrue(text.stdout.contains("75 frames, auto-captured"), text.stdout)
        XCTAssertTrue(text.stdout.contains("frame 0 t 0s, 1 face: moveCloser"), text.stdout)
        // One line per frame, as the wizard would show it.
        XCTAssertEqual(text.stdout.split(separator: "\n").filter { $0.hasPrefix("frame ") }.count, 75)
    }

    func testADarkOrMovingClipIsNotCaptured() throws {
        let dark = try write("dark.y4m", clip(frames: 45, gain: 0.2) { _ in 0.38 })
        let moving = try write(
            "moving.y4m",
            clip(
                frames: 60, width: { _ in 0.38 },
                x: { 0.5 + 0.08 * sin(2 * .pi * Double($0) / 30) }))
        let result = try runFacecap(["analyze", "--json", dark, moving])
        XCTAssertEqual(result.status, 0, result.stderr)
        let frames = try jsonLines(result.stdout)
        XCTAssertEqual(frames.count, 105)
        XCTAssertTrue(frames.allSatisfy { $0["capture"] is NSNull })
        XCTAssertEqual(frames[44]["primary"] as? String, "tooDark")
        XCTAssertTrue(frames[50...].contains { ($0["guidance"] as? [String])?.contains("holdStill") == true })
        // The iris model's cadence follows the last analysis as in the wizard (`FaceTracker.followCadences`): a face
        // mostly asked to hold still has its eyes read every `eyeFixingInterval` (8) frames, at times every
        // `eyeInterval` (3) where a frame read ready: 45 frames read 6–8 times, not 15 (every 3rd).
        let asked = eyeReadings(frames[60...])
        XCTAssertTrue((3...9).contains(asked.count), "eyes read on frames \(asked)")
    }

    /// The indices of `frames` whose face's eyes were read on that frame (`eyes.fresh`).
    private func eyeReadings(_ frames: ArraySlice<[String: Any]>) -> [Int] {
        frames.indices.filter { index in
            let face = (frames[index]["faces"] as? [[String: Any]])?.first
            return (face?["eyes"] as? [String: Any])?["fresh"] as? Bool == true
        }
    }

    func testThresholdsFromAConfigFile() throws {
        let loose = try write("loose.json", Data(#"{"maxFaceWidth": 0.6}"#.utf8))
        let result = try runFacecap(["analyze", "--json", "--thresholds", loose, fixture("sergey.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try jsonLines(result.stdout).first?["primary"] as? String, "ready")

        let typo = try write("typo.json", Data(#"{"maxFaceWidht": 0.6}"#.utf8))
        let bad = try runFacecap(["analyze", "--thresholds", typo, fixture("sergey.png")])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("unknown threshold 'maxFaceWidht'"), bad.stderr)
        let missing = try runFacecap([
            "analyze", "--thresholds", directory.appendingPathComponent("no.json").path,
            fixture("sergey.png"),
        ])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
    }

    // MARK: bad input

    func testBadInputIsOneClearLineNeverACrash() throws {
        let png = try Data(contentsOf: Self.fixtures.appendingPathComponent("sergey.png"))
        var huge = Data("P5\n200000 200000\n255\n".utf8)
        huge += Data(repeating: 0, count: 100)
        let cases: [(String, String)] = [
            ("missing", directory.appendingPathComponent("nothing-here.jpg").path),
            ("empty", try write("empty.jpg", Data())),
            ("garbage", try write("garbage.png", Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))),
            ("truncated PNG", try write("cut.png", png.prefix(2000))),
            ("clip whose only frame is cut short", try write("cut.y4m", clip(frames: 1) { _ in 0.38 }.dropLast(1000))),
            ("huge dimensions", try write("huge.pgm", huge)),
            ("directory", directory.path),
        ]
        for (what, path) in cases {
            let result = try runFacecap(["analyze", "--json", path])
            XCTAssertTrue([66, 1].contains(result.status), "\(what): status \(result.status) \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(what): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("facecap: "), "\(what): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(path), "\(what) names the file: \(result.stderr)")
        }
        // The good file next to a bad one is still analysed; the exit code reports the bad one.
        let mixed = try runFacecap(["analyze", "--json", try write("empty2.png", Data()), fixture("sergey.png")])
        XCTAssertEqual(mixed.status, 66)
        XCTAssertEqual(try jsonLines(mixed.stdout).count, 1)
    }

    func testLandmarksArePointsAndPresenceIsAProbability() throws {
        let result = try runFacecap(["analyze", "--json", fixture("sergey.png"), fixture("dino.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try jsonLines(result.stdout)
        let face = try XCTUnwrap((lines[0]["faces"] as? [[String: Any]])?.first)
        let landmarks = try XCTUnwrap(face["landmarks"] as? [[Double]])
        XCTAssertEqual(landmarks.count, 468)
        XCTAssertTrue(landmarks.allSatisfy { $0.count == 3 }, "[x, y, z] each")
        // In pixels of the photo: every point inside the 600×600 frame, spread over the face box.
        let box = try XCTUnwrap(face["box"] as? [Double])
        let xs = landmarks.map { $0[0] }, ys = landmarks.map { $0[1] }
        XCTAssertGreaterThan(xs.min()!, box[0] - 0.1 * box[2])
        XCTAssertLessThan(xs.max()!, box[0] + 1.1 * box[2])
        XCTAssertGreaterThan(ys.max()! - ys.min()!, 0.6 * box[3], "the mesh spans the face")
        // Landmark 1 is the nose tip; the detector's nose keypoint is close to it.
        let nose = try XCTUnwrap((face["keypoints"] as? [String: [Double]])?["nose_tip"])
        XCTAssertEqual(landmarks[1][0], nose[0], accuracy: 0.1 * box[2])
        XCTAssertEqual(landmarks[1][1], nose[1], accuracy: 0.1 * box[3])
        let presence = try XCTUnwrap(face["presence"] as? Double)
        XCTAssertTrue((0.5...1).contains(presence), "a probability, and a kept face is at least 0.5: \(presence)")
        let text = try runFacecap(["analyze", fixture("sergey.png")])
        XCTAssertTrue(text.stdout.contains("landmarks: 468 (face presence 1"), text.stdout)
    }

    func testClipFramesCarryTheirTimestamp() throws {
        let clip = try write("t.y4m", TestClips.empty(frames: 4))
        let lines = try jsonLines(try runFacecap(["analyze", "--json", clip]).stdout)
        XCTAssertEqual(lines.compactMap { $0["timestamp"] as? Double }, [0, 0.033, 0.067, 0.1], "frame ÷ 30 fps")
        XCTAssertNil(
            try jsonLines(try runFacecap(["analyze", "--json", fixture("sergey.png")]).stdout)[0]["timestamp"],
            "a photo has no timestamp")
    }

    func testUsage() throws {
        let none = try runFacecap(["analyze"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("needs at least one image or .y4m file"), none.stderr)
        let help = try runFacecap(["analyze", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--thresholds FILE"))
    }
}
