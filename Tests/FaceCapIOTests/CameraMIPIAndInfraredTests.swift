import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// A MIPI laptop (raw Bayer nodes only: its own outcome, with the driver from sysfs), and the infrared signs that need
/// more than the V4L2 answers: the USB interface's name in sysfs, and a YUYV picture with no colour.
extension CameraDeviceTests {
    /// A sysfs tree under the test's folder: for each node, its USB interface's name and its driver's link.
    func makeSysfs(_ nodes: [String: (interface: String?, driver: String?)]) throws -> String {
        let root = directory + "/sys"
        for (node, entry) in nodes {
            let device = "\(root)/class/video4linux/\(node)/device"
            try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
            if let interface = entry.interface {
                try (interface + "\n").write(toFile: device + "/interface", atomically: true, encoding: .utf8)
            }
            if let driver = entry.driver {
                // As sysfs has it: a relative link into /sys/bus/…/drivers, whose target need not exist here.
                try FileManager.default.createSymbolicLink(
                    atPath: device + "/driver",
                    withDestinationPath: "../../../../bus/pci/drivers/\(driver)")
            }
        }
        return root
    }

    /// Four ISYS capture queues of an IPU6 laptop (a real one has 32), and a UVC metadata node. As the mainline driver
    /// has them (ipu6-isys-video.c): VIDEO_CAPTURE | META_CAPTURE | IO_MC, the Bayer formats of `ipu6_isys_pfmts`
    /// then UYVY, YUYV, RGB565 and BGR24, and libv4l2's RGB24 of the Bayer data.
    func ipu6Nodes() -> [String: FakeV4L2Device.Node] {
        var nodes: [String: FakeV4L2Device.Node] = ["video4": .metadata]
        let codes = [
            "BG12", "GB12", "BA12", "RG12", "BG10", "GB10", "BA10", "RG10", "BA81", "GBRG", "GRBG", "RGGB",
            "pBCC", "pGCC", "pgCC", "pRCC", "pBAA", "pGAA", "pgAA", "pRAA", "UYVY", "YUYV", "RGBP", "BGR3",
        ]
        let caps =
            UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING)
            | CameraDevice.ioMediaController
        for index in 0..<4 {
            nodes["video\(index)"] = FakeV4L2Device.Node(
                card: "Intel IPU6 ISYS Capture \(index)", driver: "isys", bus: "PCI:0000:00:05.0",
                capabilities: caps | UInt32(V4L2_CAP_DEVICE_CAPS), deviceCaps: caps,
                formats: codes.map { format($0, [(1932, 1092)]) } + [format("RGB3", [(1932, 1092)], emulated: true)])
        }
        return nodes
    }

    /// Ubuntu 24.04's IPU6 set-up: the ISYS nodes, and Intel's relay of the processed picture as a v4l2loopback node
    /// ("Intel MIPI Camera"). The relay is the camera; its being virtual does not put the ISYS nodes' YUYV first.
    func testAnIPU6RelayBesideTheISYSNodesIsChosenAndThereIsNoMIPIScreen() throws {
        var nodes = ipu6Nodes()
        nodes["video5"] = FakeV4L2Device.Node(
            card: "Intel MIPI Camera", driver: "v4l2 loopback",
            bus: "platform:v4l2loopback-000",
            formats: [format("YUYV", [(1280, 720)])])
        let fake = try makeDev(["video0", "video1", "video2", "video3", "video4", "video5"], nodes: nodes)
        let sysfs = try makeSysfs([:])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops, sysfs: sysfs)
        XCTAssertEqual(devices.prefix(4).map { CameraRank(of: $0).kind }, Array(repeating: .rawBayer, count: 4))
        XCTAssertNil(CameraRank.rawBayerCamera(devices))
        XCTAssertEqual(CameraRank.choose(devices)?.path, directory + "/video5")
        let opener = SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, sysfs: sysfs)
        let source = try opener.open()
        XCTAssertEqual((source as? Camera)?.path, directory + "/video5")
        source.close()
        let first = try Camera.openFirst(directory: directory, ops: fake.ops, sysfs: sysfs)
        XCTAssertEqual(first.path, directory + "/video5")
        first.close()
    }

    func testABayerOnlyMachineIsTheMIPICaseWithItsDriverFromSysfs() throws {
        let fake = try makeDev(["video0", "video1", "video2", "video3", "video4"], nodes: ipu6Nodes())
        let sysfs = try makeSysfs(["video0": (nil, "intel-ipu6"), "video1": (nil, "intel-ipu6")])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops, sysfs: sysfs)
        XCTAssertEqual(devices.map(\.hardwareDriver), ["intel-ipu6", "intel-ipu6", nil, nil])
        let nodes = (0..<4).map { "\(directory)/video\($0)" }
        let camera = try XCTUnwrap(CameraRank.rawBayerCamera(devices))
        XCTAssertEqual(camera, RawBayerCamera(driver: "intel-ipu6", card: "Intel IPU6 ISYS Capture 0", nodes: nodes))
        XCTAssertEqual(camera.nodeSpan, "\(directory)/video0 … \(directory)/video3")

        // The wizard: the MIPI outcome, exit 69, not libv4l2's debayered RGB24 of the first node.
        let opener = SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, sysfs: sysfs)
        XCTAssertThrowsError(try opener.open()) { error in
            guard let problem = error as? CameraProblem else { return XCTFail("\(error)") }
            XCTAssertEqual(problem.error, .rawBayerOnly(camera))
            XCTAssertEqual(problem.kind, .noCamera)
            XCTAssertEqual(problem.exitCode, .noCamera)
            XCTAssertEqual(problem.details, camera.advice)
        }
        XCTAssertEqual(fake.events("S_FMT", "STREAMON"), [], "no node was streamed from")
        // record's way of opening says the same.
        XCTAssertThrowsError(try Camera.openFirst(directory: directory, ops: fake.ops, sysfs: sysfs)) { error in
            XCTAssertEqual(error as? CameraError, .rawBayerOnly(camera))
        }

        // `facecap devices`: each node's line, then what the camera is and the fixes; JSON has them as fields.
        let lines = CameraDeviceText.human(devices).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("  choice ") }.count, 4)
        XCTAssertTrue(lines.contains("  choice 1: raw sensor data only (needs libcamera)"), "\(lines)")
        let tail = Array(lines.suffix(camera.advice.count + 1))
        XCTAssertEqual(tail, [""] + camera.advice)
        XCTAssertTrue(tail.contains("$ libcamerify facecap"))
        XCTAssertTrue(
            tail[1].hasPrefix("\(directory)/video0 … \(directory)/video3 (intel-ipu6, Intel IPU6 ISYS"),
            tail[1])
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(CameraDeviceText.json(devices, problems: []).utf8)) as? [String: Any])
        let mipi = try XCTUnwrap(json["mipi"] as? [String: Any])
        XCTAssertEqual(mipi["driver"] as? String, "intel-ipu6")
        XCTAssertEqual(mipi["card"] as? String, "Intel IPU6 ISYS Capture 0")
        XCTAssertEqual(mipi["nodes"] as? [String], nodes)
        XCTAssertEqual(mipi["needs"] as? String, "libcamera")
        XCTAssertEqual(mipi["advice"] as? [String], camera.advice)
        let items = try XCTUnwrap(json["devices"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["kind"] as? String }, Array(repeating: "raw-bayer", count: 4))
        XCTAssertEqual(items[0]["hardwareDriver"] as? String, "intel-ipu6")
        XCTAssertTrue(items[2]["hardwareDriver"] is NSNull)
        XCTAssertTrue(items[0]["interface"] is NSNull)
        XCTAssertEqual(CameraError.rawBayerOnly(camera).exitCode.rawValue, 69)
    }

    func testBayerNodesBesideAColourCameraAreNoMIPICaseAndTheDriverFallsBackToV4L2s() throws {
        var nodes = ipu6Nodes()
        nodes["video5"] = .webcam
        let fake = try makeDev(["video0", "video1", "video2", "video3", "video5"], nodes: nodes)
        let devices = CameraDevice.list(directory: directory, ops: fake.ops, sysfs: directory + "/no-sysfs")
        XCTAssertNil(CameraRank.rawBayerCamera(devices))
        XCTAssertNil(
            try XCTUnwrap(
                JSONSerialization.jsonObject(
                    with: Data(CameraDeviceText.json(devices, problems: []).utf8)) as? [String: Any])["mipi"]
                as? [String: Any])
        XCTAssertFalse(CameraDeviceText.human(devices).contains("libcamerify"))
        let source = try SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, sysfs: directory + "/no-sysfs"
        ).open()
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video5")
        source.close()
        let bayerOnly = Array(devices.prefix(4))
        XCTAssertEqual(CameraRank.rawBayerCamera(bayerOnly)?.driver, "isys", "no sysfs: QUERYCAP's driver")
    }

    func testAnInfraredFaceUnlockCameraBesideTheBayerNodesIsStillTheMIPICase() throws {
        var nodes = ipu6Nodes()
        nodes["video6"] = FakeV4L2Device.Node(
            card: "Integrated IR Camera", driver: "uvcvideo", bus: "usb-3",
            formats: [
                format("GREY", [(640, 360)]),
                format("MJPG", [(640, 360)], compressed: true),
                format("RGB3", [(640, 360)], emulated: true),
            ])
        let fake = try makeDev(["video0", "video1", "video2", "video3", "video6"], nodes: nodes)
        let sysfs = directory + "/no-sysfs"
        let devices = CameraDevice.list(directory: directory, ops: fake.ops, sysfs: sysfs)
        XCTAssertEqual(CameraRank.rawBayerCamera(devices)?.nodes, (0..<4).map { "\(directory)/video\($0)" })
        XCTAssertThrowsError(
            try SourceOpener(
                source: .camera(path: nil), camera: CameraConfiguration(),
                directory: directory, ops: fake.ops, sysfs: sysfs
            ).open()
        ) { error in
            XCTAssertEqual((error as? CameraProblem)?.exitCode, .noCamera)
        }
        // Named, the infrared camera is still used.
        let named = try SourceOpener(
            source: .camera(path: "\(directory)/video6"), camera: CameraConfiguration(),
            directory: directory, ops: fake.ops, sysfs: sysfs
        ).open()
        XCTAssertEqual((named as? Camera)?.path, "\(directory)/video6")
        named.close()
    }

    func testAnInfraredNodeNamedSoOnlyByItsUSBInterfaceComesAfterTheColourOne() throws {
        // Both functions of one camera share the card name; only the interfaces' names tell them apart.
        let card = "Integrated_Webcam_HD: Integrated_Webcam_HD"
        let ir = FakeV4L2Device.Node(card: card, driver: "uvcvideo", bus: "usb-0000:00:14.0-6", formats: [.yuyv])
        let colour = FakeV4L2Device.Node(
            card: card, driver: "uvcvideo", bus: "usb-0000:00:14.0-6",
            formats: [.yuyv, .mjpeg])
        let fake = try makeDev(["video0", "video2"], nodes: ["video0": ir, "video2": colour])
        let sysfs = try makeSysfs([
            "video0": ("Integrated IR Camera", "uvcvideo"),
            "video2": ("Integrated Camera", "uvcvideo"),
        ])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops, sysfs: sysfs)
        XCTAssertEqual(devices.map(\.interfaceName), ["Integrated IR Camera", "Integrated Camera"])
        let ranked = CameraRank.ranked(devices)
        XCTAssertEqual(ranked.map(\.device.path), ["\(directory)/video2", "\(directory)/video0"])
        XCTAssertEqual(ranked[1].rank.infraredSign, .interfaceName)
        XCTAssertEqual(
            ranked[1].rank.reasons,
            [
                "infrared (its USB interface is named Integrated IR Camera)",
                "640x480 at 30 fps",
            ])
        XCTAssertEqual(
            CameraDeviceText.human(devices).split(separator: "\n").filter { $0.hasPrefix("  choice ") },
            [
                "  choice 2: infrared (its USB interface is named Integrated IR Camera), 640x480 at 30 fps",
                "  choice 1: colour, 640x480 at 30 fps",
            ])
        let source = try SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, sysfs: sysfs
        ).open()
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video2")
        source.close()
    }

    /// A 640×480 YUYV picture with luma ramping across it; chroma flat at 128 (infrared) or varying (colour).
    func yuyvPicture(colour: Bool, luma: UInt8? = nil) -> [UInt8] {
        var bytes = [UInt8](repeating: 128, count: 640 * 480 * 2)
        for index in stride(from: 0, to: bytes.count, by: 2) {
            bytes[index] = luma ?? UInt8(16 + (index / 2) % 640 / 3)
            if colour { bytes[index + 1] = UInt8(110 + (index / 2) % 37) }
        }
        return bytes
    }

    func testAYUYVNodeWhosePictureHasNoColourIsTakenForInfraredAndTheColourOneOpened() throws {
        // Two nodes alike in every V4L2 answer; the first (an RGB-IR camera switched to IR) gives flat chroma.
        let fake = try makeDev(["video0", "video2"], nodes: ["video0": .webcam, "video2": .webcam])
        let sysfs = directory + "/no-sysfs"
        // A poll timeout between frames, as a camera's frames come 33 ms apart: the live preview's skipping to the
        // newest frame (`skipStaleFrames`) would otherwise take them all at once.
        fake.script = [
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: false, luma: 16))), .pollTimeout,  // black
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: false))), .pollTimeout,  // no colour: IR
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: true))),  // video2's first frame
        ]
        let opener = SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, sysfs: sysfs)
        let source = try opener.open()
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video2")
        XCTAssertEqual(
            fake.events("STREAMON", "STREAMOFF"), ["STREAMON", "STREAMOFF", "STREAMON"],
            "video0 streamed, stopped; video2 streams")
        XCTAssertEqual(Set(fake.openFds.values), ["\(directory)/video2"], "video0's descriptor was closed")
        var frame = Frame(format: .yuyv, width: 640, height: 480, data: [])
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame, "video2's frames reach the pipeline")
        XCTAssertEqual(frame.chromaIsFlat, false)
        source.close()
        // The picker shows why video0 comes last now; it is not tried again this run.
        let choices = opener.cameras()
        XCTAssertEqual(choices.map(\.path), ["\(directory)/video2", "\(directory)/video0"])
        XCTAssertEqual(choices.map(\.isCurrent), [true, false])
        XCTAssertTrue(
            choices[1].description.hasSuffix(
                ": infrared (its picture had no colour: chroma flat at 128),"
                    + " 640x480 at 30 fps"), choices[1].description)
    }

    func testAColourCameraKeepsItsPlaceAndANamedDeviceIsNeverSwitched() throws {
        let fake = try makeDev(["video0", "video2"], nodes: ["video0": .webcam, "video2": .webcam])
        fake.script = [
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: true))), .pollTimeout,
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: false))),
        ]
        let chosen = try SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, sysfs: directory + "/no-sysfs"
        ).open()
        XCTAssertEqual((chosen as? Camera)?.path, "\(directory)/video0", "its first frame has colour")
        XCTAssertEqual(fake.events("STREAMON", "STREAMOFF"), ["STREAMON"])
        chosen.close()
        // --device: the person's choice is opened as it is, flat chroma or not, and no frame is read before the
        // pipeline's.
        let named = try SourceOpener(
            source: .camera(path: "\(directory)/video0"), camera: CameraConfiguration(),
            directory: directory, ops: fake.ops, sysfs: directory + "/no-sysfs"
        ).open()
        var frame = Frame(format: .yuyv, width: 640, height: 480, data: [])
        XCTAssertEqual(try named.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.chromaIsFlat, true)
        named.close()
    }

    /// Qualcomm CAMSS: multi-planar media-controller nodes only. Those listing Bayer formats tell the MIPI camera and
    /// are never opened; one without Bayer formats stays out of the list, as before.
    func testMultiPlanarCAMSSNodesAreTheMIPICaseAndNeverOpened() throws {
        let caps = UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_STREAMING) | CameraDevice.ioMediaController
        func camss(_ codes: [String]) -> FakeV4L2Device.Node {
            FakeV4L2Device.Node(
                card: "Qualcomm Camera Subsystem", driver: "qcom-camss", bus: "platform:acb3000.camss",
                capabilities: caps | UInt32(V4L2_CAP_DEVICE_CAPS), deviceCaps: caps,
                formats: codes.map { format($0, [(1920, 1080)]) })
        }
        let fake = try makeDev(
            ["video0", "video1", "video2"],
            nodes: [
                "video0": camss(["RGGB", "RG10", "pRAA"]), "video1": camss(["RG10"]),
                "video2": camss(["UYVY", "YUYV"]),
            ])
        let sysfs = try makeSysfs([:])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops, sysfs: sysfs)
        XCTAssertEqual(devices.map(\.path), ["\(directory)/video0", "\(directory)/video1"])
        XCTAssertEqual(CameraRank.rawBayerCamera(devices)?.driver, "qcom-camss")
        XCTAssertThrowsError(
            try SourceOpener(
                source: .camera(path: nil), camera: CameraConfiguration(),
                directory: directory, ops: fake.ops, sysfs: sysfs
            ).open())
        XCTAssertEqual(fake.events("S_FMT", "STREAMON"), [], "no node was streamed from")
    }

    /// The person's last choice (key d) is opened as it is: no frame is read to test its colour, though it is flat.
    func testARememberedCameraIsNotProbedForColour() throws {
        let fake = try makeDev([], nodes: [:])
        // Each node a link to a character device of its own, as the memory matches nodes by what they resolve to.
        for (name, node) in [("video0", "/dev/null"), ("video2", "/dev/zero")] {
            try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(name)", withDestinationPath: node)
        }
        fake.nodes = ["\(directory)/video0": .webcam, "\(directory)/video2": .webcam]
        let byID = directory + "/v4l/by-id"
        try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: byID + "/usb-Acme-video-index0",
            withDestinationPath: "../../video2")
        let memory = CameraMemory(file: directory + "/camera", linkDirectories: [byID])
        memory.remember(path: "\(directory)/video2")
        fake.script = [
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: false))), .pollTimeout,
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: true))),
        ]
        let source = try SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops, memory: memory
        ).open()
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video2")
        XCTAssertEqual(fake.events("STREAMON", "STREAMOFF"), ["STREAMON"])
        var frame = Frame(format: .yuyv, width: 640, height: 480, data: [])
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.chromaIsFlat, true, "the pipeline gets the first frame: none was read before")
        source.close()
        XCTAssertTrue(fake.openFds.isEmpty)
    }

    /// A physical camera whose picture has no colour (saturation at 0) is not put after a virtual one: OBS's picture
    /// is not the person's camera, so no frame is read to test it.
    func testAPhysicalCameraIsNotProbedWhenTheOtherColourNodeIsVirtual() throws {
        let obs = FakeV4L2Device.Node(
            card: "OBS Virtual Camera", driver: "v4l2 loopback",
            bus: "platform:v4l2loopback-000", formats: [.yuyv])
        let fake = try makeDev(["video0", "video2"], nodes: ["video0": .webcam, "video2": obs])
        fake.script = [
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: false))), .pollTimeout,
            .frame(FakeV4L2Device.FrameSpec(bytes: yuyvPicture(colour: true))),
        ]
        let source = try SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops
        ).open()
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video0")
        XCTAssertEqual(fake.events("STREAMON", "STREAMOFF"), ["STREAMON"])
        var frame = Frame(format: .yuyv, width: 640, height: 480, data: [])
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.chromaIsFlat, true)
        source.close()
    }

    func testLibcamerasAdapterIsRecognisedInLDPreload() {
        XCTAssertTrue(CameraOps.underLibcameraAdapter(preload: "/usr/lib/x86_64-linux-gnu/libcamera/v4l2-compat.so"))
        XCTAssertTrue(
            CameraOps.underLibcameraAdapter(
                preload: "libfoo.so:/usr/libexec/x86_64-linux-gnu/libcamera/v4l2-compat.so"))
        XCTAssertTrue(CameraOps.underLibcameraAdapter(preload: "/a/libbar.so /usr/lib/libcamera/v4l2-compat.so"))
        XCTAssertFalse(CameraOps.underLibcameraAdapter(preload: nil))
        XCTAssertFalse(CameraOps.underLibcameraAdapter(preload: "/usr/lib/x86_64-linux-gnu/libv4l/v4l2convert.so"))
        XCTAssertFalse(CameraOps.underLibcameraAdapter(preload: "/opt/not-v4l2-compat.so.bak"))
    }
}
