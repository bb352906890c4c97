import Foundation
import XCTest

/// `facecap devices` on a machine without a camera (this one, and most CI machines).
final class DevicesCommandTests: XCTestCase {
    func testNoCameraIsExit69WithWhatToDo() throws {
        // Guard the premise rather than skip: a machine with a camera would need a different expectation.
        let nodes =
            (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?
            .filter { $0.hasPrefix("video") } ?? []
        guard nodes.isEmpty else {
            let listed = try runFacecap(["devices"])
            XCTAssertTrue([0, 69, 77].contains(listed.status), "devices with \(nodes): \(listed.stderr)")
            return
        }
        let result = try runFacecap(["devices"])
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(
            result.stderr.hasPrefix("facecap: no camera found: no video-capture device in /dev"),
            result.stderr)
        XCTAssertFalse(result.stderr.contains("--input"), "devices cannot use a clip: \(result.stderr)")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one clear line")

        let json = try runFacecap(["devices", "--json"])
        XCTAssertEqual(json.status, 69)
        XCTAssertEqual(json.stdout, "{\"devices\":[],\"problems\":[],\"mipi\":null}\n")
        XCTAssertTrue(json.stderr.contains("no camera found"))
    }

    func testUsageErrors() throws {
        let extra = try runFacecap(["devices", "/dev/video0"])
        XCTAssertEqual(extra.status, 64)
        XCTAssertTrue(extra.stderr.contains("unexpected argument '/dev/video0'"))
        let help = try runFacecap(["devices", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--json"))
    }
}
