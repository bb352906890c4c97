import Foundation
import XCTest

/// The wizard entry opens its source first and turns every failure into the contract's exit codes.
final class WizardEntryTests: XCTestCase {
    func testNoCameraOnThisMachineExits69WithWhatToDo() throws {
        // The test machines have no /dev/video* (the kernel tests cover real devices); on a machine with a
        // camera the wizard would open it, so the assertion below is about the camera-less case only.
        let nodes =
            (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.filter { $0.hasPrefix("video") } ?? []
        let result = try runFacecap(["--plain", "--no-tutorial"])
        guard nodes.isEmpty else {
            XCTAssertNotEqual(result.stderr, "", "with camera nodes \(nodes) facecap should say what it opened")
            return
        }
        XCTAssertEqual(result.status, 69)
        XCTAssertTrue(result.stderr.contains("no camera found"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--input"), result.stderr)
    }

    func testNotAVideoDeviceAndMissingClip() throws {
        let notDevice = try runFacecap(["--plain", "--device", "/dev/null"])
        XCTAssertEqual(notDevice.status, 69)
        XCTAssertTrue(notDevice.stderr.contains("not a video capture device"), notDevice.stderr)

        let missing = try runFacecap(["--plain", "--input", "/nonexistent/clip.y4m"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "facecap: /nonexistent/clip.y4m: no such file; check the path\n")
    }
}
