import Foundation
import XCTest

/// What `libcamerify facecap` does with facecap's device calls, measured with a stand-in for libcamera's
/// v4l2-compat.so (Tests/Support/fake_v4l2_compat.c): a preloaded library that, like it, hands out an eventfd for a
/// camera node and answers V4L2 requests on it from its own `ioctl` only. libv4l2 calls the kernel through
/// syscall(SYS_ioctl, …), past any preloaded `ioctl`; facecap's plain calls, taken when LD_PRELOAD names
/// v4l2-compat.so, reach it. The same stand-in plays a MIPI laptop (raw Bayer nodes only) for the real binary.
final class LibcameraAdapterTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "facecap-libcamerify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/dev", withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/fake_v4l2_compat.c").path
        // The same library under libcamera's name, and under another (facecap keeps libv4l2 then).
        for name in ["v4l2-compat.so", "other-adapter.so"] {
            let built = try runProgram(
                "/usr/bin/cc",
                [
                    "-shared", "-fPIC", "-O1", "-o", folder + "/" + name, source,
                    "-ldl",
                ])
            XCTAssertEqual(built.status, 0, built.stderr)
        }
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: folder)
    }

    private func facecap(
        _ arguments: [String], preloading name: String = "v4l2-compat.so",
        _ environment: [String: String]
    ) throws -> ProcessResult {
        let base = [
            "PATH": "/usr/bin:/bin", "LD_PRELOAD": folder + "/" + name,
            "FACECAP_MODEL_DIR": ProcessInfo.processInfo.environment["FACECAP_MODEL_DIR"] ?? "",
        ]
        return try runFacecap(arguments, stdin: Data(), environment: base.merging(environment) { $1 }, timeout: 60)
    }

    func testThePlainCallsReachAPreloadedAdapterWhichLibv4l2sSyscallsGoPast() throws {
        let wizard = ["--plain", "--no-tutorial", "--device", "/dev/zero"]
        let adapter = try facecap(wizard, ["SHIM_NODE": "/dev/zero"])
        XCTAssertEqual(adapter.status, 69, adapter.stderr)
        XCTAssertTrue(
            adapter.stderr.contains("/dev/zero is busy"),
            "QUERYCAP, ENUM_FMT and S_FMT reached the adapter: \(adapter.stderr)")
        let libv4l2 = try facecap(wizard, preloading: "other-adapter.so", ["SHIM_NODE": "/dev/zero"])
        XCTAssertEqual(libv4l2.status, 69, libv4l2.stderr)
        XCTAssertTrue(
            libv4l2.stderr.contains("/dev/zero is not a video capture device (it does not answer V4L2"),
            "libv4l2's QUERYCAP went to the kernel, past the adapter: \(libv4l2.stderr)")
    }

    /// A MIPI laptop as the real binary sees it: four raw-Bayer capture queues and nothing else.
    func testABayerOnlyMachineListsItsNodesThenTheFixAndExits69() throws {
        for index in 0..<4 {
            XCTAssertTrue(FileManager.default.createFile(atPath: "\(folder)/dev/video\(index)", contents: nil))
        }
        // An empty sysfs of its own: the host's /sys/class/video4linux/videoN is another machine's node.
        try FileManager.default.createDirectory(
            atPath: folder + "/sys/class/video4linux",
            withIntermediateDirectories: true)
        let machine = ["SHIM_DEV": folder + "/dev", "SHIM_SYS": folder + "/sys"]

        let json = try facecap(["devices", "--json"], machine)
        XCTAssertEqual(json.status, 69, json.stderr)
        XCTAssertEqual(
            json.stderr,
            "facecap: the isys camera (/dev/video0 … /dev/video3) gives raw sensor data only: a"
                + " MIPI camera, which needs libcamera\n", "not pointing at the command it is")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let devices = try XCTUnwrap(document["devices"] as? [[String: Any]])
        XCTAssertEqual(devices.map { $0["path"] as? String }, (0..<4).map { "/dev/video\($0)" })
        XCTAssertEqual(
            devices.map { $0["kind"] as? String }, Array(repeating: "raw-bayer", count: 4),
            "ISYS lists UYVY, YUYV, RGB565 and BGR24 too; IO_MC and its Bayer formats make it MIPI")
        XCTAssertEqual(devices.map { $0["hardwareDriver"] is NSNull }, Array(repeating: true, count: 4))
        let mipi = try XCTUnwrap(document["mipi"] as? [String: Any])
        XCTAssertEqual(mipi["driver"] as? String, "isys")
        XCTAssertEqual(mipi["needs"] as? String, "libcamera")
        // Already under libcamerify: libcamera found no camera, so its own listing is next, not libcamerify again.
        XCTAssertTrue((mipi["advice"] as? [String] ?? []).contains("$ cam -l"))
        XCTAssertFalse((mipi["advice"] as? [String] ?? []).contains("$ libcamerify facecap"))

        let human = try facecap(["devices"], machine)
        XCTAssertEqual(human.status, 69)
        XCTAssertTrue(human.stdout.contains("  choice 1: raw sensor data only (needs libcamera)"), human.stdout)
        XCTAssertTrue(
            human.stdout.contains("\n\n/dev/video0 … /dev/video3 (isys, Intel IPU6 ISYS Capture 0): raw"),
            "the nodes, a blank line, then the camera screen's lines: \(human.stdout)")
        XCTAssertTrue(
            human.stdout.contains("\nfacecap runs under libcamerify, yet libcamera found no camera."),
            human.stdout)

        // --plain ends at once with one line that holds the screen's words.
        let plain = try facecap(["--plain", "--no-tutorial"], machine)
        XCTAssertEqual(plain.status, 69, plain.stderr)
        XCTAssertTrue(
            plain.stderr.contains(
                "says how to set it up): /dev/video0 … /dev/video3 (isys, Intel IPU6 ISYS"
                    + " Capture 0): raw sensor data only."), plain.stderr)
        XCTAssertTrue(plain.stderr.contains("(cam is in libcamera-tools): cam -l; Ubuntu 24.04:"), plain.stderr)
    }
}
