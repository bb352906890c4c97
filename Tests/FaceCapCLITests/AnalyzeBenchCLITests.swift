import FaceCapCore
import Foundation
import XCTest

/// `facecap analyze` and `facecap bench` run as a user would.
final class AnalyzeBenchCLITests: XCTestCase {
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    func testAnalyzeJSONLinesPerImageAndClipFrame() throws {
        let result = try runFacecap([
            "analyze", "--json", fixtures.appendingPathComponent("sergey.png").path,
            fixtures.appendingPathComponent("dino.jpg").path,
            fixtures.appendingPathComponent("clips/ffmpeg-420.y4m").path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5)  // 2 photos + 3 clip frames
        let objects = try lines.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let faces = try XCTUnwrap(objects[0]["faces"] as? [[String: Any]])
        XCTAssertEqual(faces.count, 1)
        let box = try XCTUnwrap(faces[0]["box"] as? [Double])
        XCTAssertEqual(box[0], 121.4, accuracy: 1.5)
        XCTAssertEqual(box[2], 342.6, accuracy: 3)
        XCTAssertEqual((faces[0]["keypoints"] as? [String: [Double]])?.count, 6)
        XCTAssertEqual((objects[1]["faces"] as? [Any])?.count, 0)
        XCTAssertEqual(objects[4]["frame"] as? Int, 2)
    }

    func testAnalyzeTextAndAMissingFile() throws {
        let result = try runFacecap(["analyze", fixtures.appendingPathComponent("sergey.png").path, "/nonexistent.png"])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.stdout.contains("sergey.png (600x600): 1 face"), result.stdout)
        XCTAssertTrue(result.stderr.contains("/nonexistent.png"), result.stderr)
    }

    func testBenchJSON() throws {
        let result = try runFacecap([
            "bench", "--json", "--runs", "20", "--image",
            fixtures.appendingPathComponent("sergey.png").path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in [
            "detector_ms", "landmarks_ms", "iris_ms", "hand_ms", "frame_ms", "frame_mean_ms", "frame_eyes_ms",
            "frame_hand_ms", "frame_detect_ms", "frame_cpu_ms", "frame_eyes_cpu_ms", "frame_detect_cpu_ms",
            "analysis_ms", "frame_full_ms", "frame_full_mean_ms", "frame_full_eyes_ms", "frame_full_hand_ms",
            "frame_full_cpu_ms", "frame_full_eyes_cpu_ms", "analysis_full_ms",
        ] {
            XCTAssertGreaterThan(object[key] as? Double ?? 0, 0, key)
        }
        // The session's frames are a tracked face's: the detector ran on 2 of the 20 timed frames (every 10th).
        XCTAssertEqual(object["detection_interval"] as? Int, 10)
        XCTAssertEqual(object["detector_frames"] as? Int, 2)
    }

    /// `threads` says how many threads a frame's eyes ran on: two on a machine with more than one core, one with
    /// FACECAP_ONE_THREAD set; and `analyze` prints the same bytes either way (the eyes' points included).
    func testOneThreadIsAskedWithFACECAP_ONE_THREADAndChangesNoResult() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["FACECAP_ONE_THREAD"] = nil
        let bench = ["bench", "--json", "--runs", "5"]
        let parallel = try runFacecap(bench, environment: environment)
        XCTAssertEqual(parallel.status, 0, parallel.stderr)
        let photo = fixtures.appendingPathComponent("sergey.png").path
        let clip = fixtures.appendingPathComponent("clips/ffmpeg-420.y4m").path
        let twoThreads = try runFacecap(["analyze", "--json", photo, clip], environment: environment)
        environment["FACECAP_ONE_THREAD"] = "1"
        let single = try runFacecap(bench, environment: environment)
        XCTAssertEqual(single.status, 0, single.stderr)
        let oneThread = try runFacecap(["analyze", "--json", photo, clip], environment: environment)
        func threads(_ text: String) throws -> Int? {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])["threads"] as? Int
        }
        XCTAssertEqual(try threads(parallel.stdout), IrisLandmarker.usableCores > 1 ? 2 : 1)
        XCTAssertEqual(try threads(single.stdout), 1)
        XCTAssertEqual(twoThreads.status, 0, twoThreads.stderr)
        XCTAssertTrue(twoThreads.stdout.contains("\"eyes\""), twoThreads.stdout)
        XCTAssertEqual(oneThread.stdout, twoThreads.stdout)
    }

    func testBenchWithoutAPhotoTimesTheWorstCaseOnly() throws {
        let result = try runFacecap(["bench", "--json", "--runs", "5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertGreaterThan(object["frame_full_eyes_cpu_ms"] as? Double ?? 0, 0)
        XCTAssertNil(object["frame_eyes_ms"])
        XCTAssertEqual(object["detector_frames"] as? Int, 0)
    }

    func testBenchRefusesAPhotoWithoutAFace() throws {
        let result = try runFacecap([
            "bench", "--json", "--runs", "5", "--image",
            fixtures.appendingPathComponent("dino.jpg").path,
        ])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("dino.jpg"), result.stderr)
    }

    /// The AVX-512 kernels (CKernels, on CPUs that have them), the AVX2 C kernels (FACECAP_NO_AVX512) and the
    /// Swift kernels (FACECAP_SWIFT_KERNELS) do the same arithmetic: every measure and point of a photo analysed
    /// the three ways is the same to the printed digit. (On a CPU without AVX-512 the first two runs take the
    /// AVX2 C path.)
    func testTheAVX512AndAVX2KernelsAgree() throws {
        let photo = fixtures.appendingPathComponent("sergey.png").path
        var environment = ProcessInfo.processInfo.environment
        environment["FACECAP_NO_AVX512"] = nil
        environment["FACECAP_SWIFT_KERNELS"] = nil
        let fast = try runFacecap(["analyze", "--json", photo], environment: environment)
        environment["FACECAP_NO_AVX512"] = "1"
        let avx2 = try runFacecap(["analyze", "--json", photo], environment: environment)
        environment["FACECAP_SWIFT_KERNELS"] = "1"
        let swift = try runFacecap(["analyze", "--json", photo], environment: environment)
        XCTAssertEqual(fast.status, 0, fast.stderr)
        XCTAssertTrue(fast.stdout.contains("\"eyes\":{\"opening\""), fast.stdout)
        XCTAssertEqual(fast.stdout, avx2.stdout)
        XCTAssertEqual(avx2.stdout, swift.stdout)
    }

    func testBenchHelpPrintsUsageWithoutRunningTheModels() throws {
        for flag in ["--help", "-h"] {
            let result = try runFacecap(["bench", flag])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.hasPrefix("Usage: facecap bench"), result.stdout)
            XCTAssertTrue(result.stdout.contains("--runs N"), result.stdout)
            XCTAssertEqual(result.stderr, "")
        }
    }
}
