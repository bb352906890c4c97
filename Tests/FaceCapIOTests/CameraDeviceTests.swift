import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// Enumeration of /dev/video* (against a temporary directory and the fake device), the busy-holder scan,
/// and the user-facing texts of the errors.
final class CameraDeviceTests: XCTestCase {
    var fakes: [FakeV4L2Device] = []
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "facecap-dev-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: directory)
    }

    /// Creates entries for `names` (links to /dev/null, a character device like a real node) and a fake
    /// answering for those in `nodes`.
    func makeDev(_ names: [String], nodes: [String: FakeV4L2Device.Node]) throws -> FakeV4L2Device {
        for name in names {
            try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(name)", withDestinationPath: "/dev/null")
        }
        let paths = Dictionary(uniqueKeysWithValues: nodes.map { ("\(directory)/\($0.key)", $0.value) })
        let fake = FakeV4L2Device(nodes: paths)
        fakes.append(fake)
        return fake
    }

    func testListsCaptureNodesInNumberOrderAndSkipsMetadataNodes() throws {
        let mjpegOnly = FakeV4L2Device.Node(
            card: "USB MJPEG Cam", driver: "uvcvideo", bus: "usb-0000:00:14.0-2",
            formats: [.mjpeg, .emulatedRGB])
        let fake = try makeDev(
            ["video0", "video1", "video10", "video2", "video3", "videoX", "vbi0", "media0"],
            nodes: [
                "video0": .webcam, "video1": .metadata, "video2": mjpegOnly,
                "video10": .webcam, "video3": .metadata,
            ])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops)
        XCTAssertEqual(devices.map(\.path), ["video0", "video2", "video10"].map { "\(directory)/\($0)" })
        XCTAssertTrue(fake.openFds.isEmpty, "every node opened for the scan is closed again")

        let webcam = devices[0]
        XCTAssertEqual(webcam.card, "Fake Camera")
        XCTAssertEqual(webcam.driver, "fakecam")
        XCTAssertEqual(webcam.bus, "platform:fake-0")
        XCTAssertEqual(webcam.formats.map(\.fourcc), ["YUYV", "MJPG"])
        XCTAssertEqual(webcam.formats[0].description, "YUYV 4:2:2")
        XCTAssertFalse(webcam.formats[0].isCompressed)
        XCTAssertTrue(webcam.formats[1].isCompressed)
        XCTAssertEqual(webcam.formats[0].sizes.map { "\($0.width)x\($0.height)" }, ["320x240", "640x480", "1280x720"])
        XCTAssertEqual(webcam.formats[0].sizes[1].frameRates, [30, 15])
        XCTAssertEqual(webcam.formats[0].sizes[1].kind, .discrete)

        XCTAssertEqual(devices[1].card, "USB MJPEG Cam")
        XCTAssertEqual(devices[1].formats.map(\.fourcc), ["MJPG", "RGB3"])
        XCTAssertTrue(devices[1].formats[1].isEmulated)
        // The camera's own formats are enumerated past libv4l2 (which answers each interval of RGB3, BGR3, YU12 or
        // YV12 with a TRY_FMT of every format), the converted one through it; both with their sizes and rates.
        XCTAssertEqual(Set(fake.enumerations), ["raw YUYV", "raw MJPG", "converting RGB3"])
        XCTAssertFalse(devices[1].formats[1].sizes.isEmpty)
        XCTAssertFalse(devices[1].formats[1].sizes[0].frameRates.isEmpty)

        // With no --device, the first capture node is opened (the metadata node is never a candidate).
        let camera = try Camera.openFirst(directory: directory, ops: fake.ops)
        XCTAssertEqual(camera.path, "\(directory)/video0")
        camera.close()
    }

    func testACaptureNodeWithoutStreamingIsSkippedLikeTheCameraWouldRefuseIt() throws {
        var readOnly = FakeV4L2Device.Node.webcam
        readOnly.deviceCaps = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE)
        let fake = try makeDev(["video0", "video1"], nodes: ["video0": readOnly, "video1": .webcam])
        XCTAssertEqual(CameraDevice.list(directory: directory, ops: fake.ops).map(\.path), ["\(directory)/video1"])
        XCTAssertThrowsError(try Camera(path: "\(directory)/video0", ops: fake.ops)) { error in
            guard case .notCaptureDevice = error as? CameraError else { return XCTFail("\(error)") }
        }
    }

    func testSummarisesStepwiseSizes() throws {
        var format = FakeV4L2Device.Format.yuyv
        format.sizes = []
        format.stepwise = (minW: 48, maxW: 1920, stepW: 16, minH: 32, maxH: 1080, stepH: 8)
        let fake = try makeDev(["video0"], nodes: ["video0": FakeV4L2Device.Node(formats: [format])])
        let device = try XCTUnwrap(CameraDevice.list(directory: directory, ops: fake.ops).first)
        let sizes = device.formats[0].sizes
        XCTAssertEqual(sizes.count, 1)
        XCTAssertEqual(sizes[0].kind, .stepwise)
        XCTAssertEqual([sizes[0].minWidth, sizes[0].width, sizes[0].stepWidth], [48, 1920, 16])
        XCTAssertEqual([sizes[0].minHeight, sizes[0].height, sizes[0].stepHeight], [32, 1080, 8])
        XCTAssertEqual(sizes[0].frameRates, [30, 15])
    }

    func testNoCaptureNodeIsNoCamera() throws {
        let empty = try makeDev([], nodes: [:])
        XCTAssertEqual(CameraDevice.list(directory: directory, ops: empty.ops), [])
        XCTAssertThrowsError(try Camera.openFirst(directory: directory, ops: empty.ops)) { error in
            XCTAssertEqual(error as? CameraError, .noCamera(directory: directory))
            XCTAssertEqual((error as? CameraError)?.exitCode, .noCamera)
            XCTAssertTrue((error as? CameraError)?.message.hasPrefix("no camera found:") ?? false)
        }
        let metadataOnly = try makeDev(["video1"], nodes: ["video1": .metadata])
        XCTAssertThrowsError(try Camera.openFirst(directory: directory, ops: metadataOnly.ops)) { error in
            XCTAssertEqual(error as? CameraError, .noCamera(directory: directory))
        }
        XCTAssertEqual(CameraDevice.list(directory: directory + "/missing", ops: empty.ops), [])
    }

    func testANodeThatCannotBeOpenedIsReportedNotHidden() throws {
        let fake = try makeDev(["video0", "video2"], nodes: ["video0": .webcam, "video2": .webcam])
        fake.openErrors["\(directory)/video0"] = EACCES
        fake.openErrors["\(directory)/video2"] = EACCES
        let scan = CameraDevice.scan(directory: directory, ops: fake.ops)
        XCTAssertEqual(scan.devices, [])
        XCTAssertEqual(scan.problems.count, 2)
        XCTAssertThrowsError(try Camera.openFirst(directory: directory, ops: fake.ops)) { error in
            guard case .permissionDenied(let path, _) = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "\(directory)/video0")
            XCTAssertEqual((error as? CameraError)?.exitCode, .permissionDenied)
        }
    }

    func testFindsTheProcessesHoldingADevice() throws {
        let proc = try makeProcRoot(holders: [
            (321, "zoom", "/dev/video0"), (77, "cheese", "/dev/video0"),
            (88, "obs", "/dev/video2"),
        ])
        defer { try? FileManager.default.removeItem(atPath: proc) }
        XCTAssertEqual(
            DeviceHolder.find(path: "/dev/video0", procRoot: proc),
            [DeviceHolder(pid: 77, command: "cheese"), DeviceHolder(pid: 321, command: "zoom")])
        XCTAssertEqual(DeviceHolder.find(path: "/dev/video5", procRoot: proc), [])
        XCTAssertEqual(DeviceHolder.find(path: "/dev/video0", procRoot: proc + "/nowhere"), [])

        let busy = CameraError.busy(
            path: "/dev/video0",
            holders: DeviceHolder.find(path: "/dev/video0", procRoot: proc))
        XCTAssertEqual(
            busy.message,
            "/dev/video0 is busy: in use by cheese (pid 77), zoom (pid 321) — close them and try again")
        let hidden = CameraError.busy(path: "/dev/video0", holders: [])
        XCTAssertTrue(hidden.message.contains("sudo fuser /dev/video0"))
    }

    func testThisProcessIsNotReportedAsAHolder() throws {
        let proc = try makeProcRoot(holders: [(Int(getpid()), "facecap", "/dev/video0")])
        defer { try? FileManager.default.removeItem(atPath: proc) }
        XCTAssertEqual(DeviceHolder.find(path: "/dev/video0", procRoot: proc), [])
    }

    func testEveryErrorSaysWhatToDoAndHasItsExitCode() {
        let access = DeviceAccess(owner: "root", group: "video", mode: "crw-rw----", userGroups: ["alice", "sudo"])
        let cases: [(CameraError, ExitCode, String)] = [
            (.noCamera(directory: "/dev"), .noCamera, "connect a webcam"),
            (.noSuchDevice(path: "/dev/video7"), .noCamera, "facecap devices"),
            (
                .notCaptureDevice(path: "/dev/null", reason: .noV4L2), .noCamera,
                "/dev/null is not a video capture device (it does not answer V4L2 requests)"
            ),
            (
                .permissionDenied(path: "/dev/video0", access: access), .permissionDenied,
                "owner root, group video, mode crw-rw----; you are in: alice, sudo) — fix: sudo usermod -aG video $USER"
            ),
            (.busy(path: "/dev/video0", holders: [DeviceHolder(pid: 1, command: "cheese")]), .noCamera, "close it"),
            (.unsupportedFormat(path: "/dev/video0", offered: ["H264"]), .noCamera, "it offers H264"),
            (.disconnected(path: "/dev/video0"), .failure, "reconnect it"),
            (.stalled(path: "/dev/video0", seconds: 5), .failure, "for 5 s"),
            (.noBandwidth(path: "/dev/video0"), .failure, "not enough USB bandwidth"),
            (.ioError(path: "/dev/video0", attempts: 5), .failure, "5 times in a row"),
            (
                .system(path: "/dev/video0", operation: "VIDIOC_REQBUFS", errno: ENOMEM), .failure,
                "VIDIOC_REQBUFS failed: Cannot allocate memory"
            ),
            (.closed(path: "/dev/video0"), .failure, "open it again"),
        ]
        for (error, code, text) in cases {
            XCTAssertEqual(error.exitCode, code, "\(error)")
            XCTAssertTrue(error.message.contains(text), "\(error.message) should contain \(text)")
            XCTAssertFalse(error.message.contains("\n"))
        }
        XCTAssertEqual(
            cases.filter { $0.0.isStreamLoss }.map { $0.0 },
            [
                .disconnected(path: "/dev/video0"), .stalled(path: "/dev/video0", seconds: 5),
                .ioError(path: "/dev/video0", attempts: 5),
            ])
        // Added to the group, but this session predates it: only a new login (or newgrp) helps.
        var pending = access
        pending.membershipPending = true
        let stale = CameraError.permissionDenied(path: "/dev/video0", access: pending).message
        XCTAssertTrue(stale.contains("you were added to group 'video' after this login session started"))
        XCTAssertFalse(stale.contains("usermod"))
        // A device group other than "video" is the one to join.
        let other = DeviceAccess(owner: "root", group: "plugdev", mode: "crw-rw----", userGroups: ["alice"])
        XCTAssertTrue(
            CameraError.permissionDenied(path: "/dev/video0", access: other).message
                .contains("usermod -aG plugdev $USER"))
    }

    func testChoosingACameraReadsTheSizesOfTheFormatsTheRankingWeighsOnly() throws {
        var emulatedBGR = FakeV4L2Device.Format.emulatedRGB
        emulatedBGR.fourcc = CV4L2_PIX_FMT_BGR24
        emulatedBGR.description = "BGR3"
        let node = FakeV4L2Device.Node(formats: [.uyvy, .yuyv, .emulatedRGB, emulatedBGR])
        let fake = try makeDev(["video0"], nodes: ["video0": node])
        let path = "\(directory)/video0"
        let ranked = try XCTUnwrap(try CameraDevice.query(path: path, ops: fake.ops, detail: .ranking(forced: nil)))
        XCTAssertEqual(ranked.formats.map(\.fourcc), ["UYVY", "YUYV", "RGB3", "BGR3"])
        XCTAssertEqual(ranked.formats.map(\.sizes.count), [0, 3, 3, 0])
        XCTAssertEqual(Set(fake.enumerations), ["raw YUYV", "converting RGB3"])
        let forced = try XCTUnwrap(try CameraDevice.query(path: path, ops: fake.ops, detail: .ranking(forced: "UYVY")))
        XCTAssertEqual(forced.formats.map(\.sizes.count), [2, 3, 3, 0])
        let everything = try XCTUnwrap(try CameraDevice.query(path: path, ops: fake.ops))
        XCTAssertEqual(everything.formats.map(\.sizes.count), [2, 3, 3, 3])
        // The same choice as from every format's sizes.
        XCTAssertEqual(CameraRank(of: ranked).format, CameraRank(of: everything).format)
        XCTAssertEqual(CameraRank(of: ranked).reasons, CameraRank(of: everything).reasons)
        XCTAssertEqual(
            CameraRank(of: forced, format: "UYVY").reasons, CameraRank(of: everything, format: "UYVY").reasons)
    }

    func testHumanAndJSONListings() throws {
        var stepwise = FakeV4L2Device.Format.yuyv
        stepwise.sizes = []
        stepwise.stepwise = (minW: 48, maxW: 1920, stepW: 16, minH: 32, maxH: 1080, stepH: 8)
        stepwise.rates = [30]
        var mjpeg = FakeV4L2Device.Format.mjpeg
        mjpeg.sizes = [(1280, 720)]
        mjpeg.rates = [30]
        let quoted = FakeV4L2Device.Node(card: "Cam \"HD\"", formats: [stepwise, mjpeg, .emulatedRGB])
        let fake = try makeDev(["video0"], nodes: ["video0": quoted])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops)

        XCTAssertEqual(
            CameraDeviceText.human(devices),
            """
            \(directory)/video0: Cam "HD" (driver fakecam, bus platform:fake-0)
              choice 1: colour, 640x480 at 30 fps
              YUYV (YUYV 4:2:2)
                48x32 to 1920x1080, steps 16x8 @ 30 fps
              MJPG (Motion-JPEG, compressed)
                1280x720 @ 30 fps
              also converted by libv4l2: RGB3
            """)
        let json = CameraDeviceText.json(devices, problems: ["x \"y\""])
        XCTAssertEqual(
            json,
            "{\"devices\":[{\"path\":\"\(directory)/video0\",\"card\":\"Cam \\\"HD\\\"\","
                + "\"driver\":\"fakecam\",\"bus\":\"platform:fake-0\",\"formats\":["
                + "{\"fourcc\":\"YUYV\",\"description\":\"YUYV 4:2:2\",\"compressed\":false,\"emulated\":false,"
                + "\"sizes\":[{\"type\":\"stepwise\",\"minWidth\":48,\"minHeight\":32,\"maxWidth\":1920,"
                + "\"maxHeight\":1080,\"stepWidth\":16,\"stepHeight\":8,\"fps\":[30]}]},"
                + "{\"fourcc\":\"MJPG\",\"description\":\"Motion-JPEG\",\"compressed\":true,\"emulated\":false,"
                + "\"sizes\":[{\"type\":\"discrete\",\"width\":1280,\"height\":720,\"fps\":[30]}]},"
                + "{\"fourcc\":\"RGB3\",\"description\":\"RGB3\",\"compressed\":false,\"emulated\":true,"
                + "\"sizes\":[{\"type\":\"discrete\",\"width\":640,\"height\":480,\"fps\":[30,15]},"
                + "{\"type\":\"discrete\",\"width\":1280,\"height\":720,\"fps\":[30,15]},"
                + "{\"type\":\"discrete\",\"width\":1920,\"height\":1080,\"fps\":[30,15]}]}],"
                + "\"rank\":1,\"kind\":\"colour\",\"virtual\":false,\"fastEnough\":true,"
                + "\"mode\":{\"width\":640,\"height\":480,\"fps\":30},\"reasons\":[\"colour\",\"640x480 at 30 fps\"],"
                + "\"hardwareDriver\":null,\"interface\":null,\"controls\":[]}],\"problems\":[\"x \\\"y\\\"\"],\"mipi\":null}"
        )
        // It parses as JSON, with the documented keys.
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let first = (parsed?["devices"] as? [[String: Any]])?.first
        XCTAssertEqual(first?["card"] as? String, "Cam \"HD\"")
        XCTAssertEqual(CameraDeviceText.string("a\u{1}\n"), "\"a\\u0001\\n\"")
        let range = CameraFrameSize(
            kind: .continuous, width: 640, height: 480, minWidth: 1, minHeight: 1,
            stepWidth: 1, stepHeight: 1, frameRates: [], frameRateRange: 7.5...30)
        XCTAssertEqual(CameraDeviceText.describe(range), "1x1 to 640x480, any size @ 7.5–30 fps")
    }

    func testFourccAndRateFormatting() {
        XCTAssertEqual(CameraSupport.fourccString(CV4L2_PIX_FMT_YUYV), "YUYV")
        XCTAssertEqual(CameraSupport.fourccString(CV4L2_PIX_FMT_MJPEG), "MJPG")
        XCTAssertEqual(CameraSupport.fourccString(CV4L2_PIX_FMT_RGB24), "RGB3")
        XCTAssertEqual(CameraDeviceText.rate(30), "30")
        XCTAssertEqual(CameraDeviceText.rate(7.5), "7.5")
        XCTAssertEqual(CameraDeviceText.rate(30000.0 / 1001.0), "29.97")
    }
}
