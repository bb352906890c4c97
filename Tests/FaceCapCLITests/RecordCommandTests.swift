import Foundation
import XCTest

/// `facecap record` as a user runs it, on paths that are not cameras (no camera is needed for these).
final class RecordCommandTests: ScratchDirectoryTestCase {
    func testDevNullIsNotAVideoCaptureDevice() throws {
        let clip = path("x.y4m")
        let result = try runFacecap(["record", "--device", "/dev/null", clip])
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(
            result.stderr,
            "facecap: /dev/null is not a video capture device (it does not answer V4L2"
                + " requests) — run 'facecap devices' to list cameras\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: clip), "no clip without a camera")
    }

    func testARegularFileIsNotAVideoCaptureDevice() throws {
        let file = path("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
        let result = try runFacecap(["record", "-d", file, path("x.y4m")])
        XCTAssertEqual(result.status, 69)
        XCTAssertTrue(result.stderr.contains("\(file) is not a video capture device (it is not a device node)"))
    }

    func testAMissingDeviceSaysSo() throws {
        let result = try runFacecap(["record", "--device", "/dev/video97", path("x.y4m")])
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(
            result.stderr,
            "facecap: no camera at /dev/video97: no such file — run 'facecap devices'"
                + " to list cameras\n")
    }

    func testWithoutACameraTheDefaultDeviceIsNoCamera() throws {
        // Development and CI machines here have no /dev/video*; on one with a camera this records for real.
        let nodes =
            (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?
            .filter { $0.hasPrefix("video") } ?? []
        let clip = path("x.y4m")
        let result = try runFacecap(["record", "--seconds", "1", clip])
        if nodes.isEmpty {
            XCTAssertEqual(result.status, 69)
            XCTAssertTrue(result.stderr.hasPrefix("facecap: no camera found:"), result.stderr)
            XCTAssertFalse(result.stderr.contains("--input"), "record cannot use a clip: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: clip))
        } else {
            XCTAssertTrue([0, 1, 69, 77].contains(result.status), result.stderr)
        }
    }

    func testUsageErrors() throws {
        let none = try runFacecap(["record"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("record needs an output file"))
        let two = try runFacecap(["record", "a.y4m", "b.y4m"])
        XCTAssertEqual(two.status, 64)
        let size = try runFacecap(["record", "--size", "big", "a.y4m"])
        XCTAssertEqual(size.status, 64)
        XCTAssertTrue(size.stderr.contains("--size takes WIDTHxHEIGHT"))
        let seconds = try runFacecap(["record", "--seconds", "0", "a.y4m"])
        XCTAssertEqual(seconds.status, 64)
        let help = try runFacecap(["record", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--seconds N"))
    }
}
