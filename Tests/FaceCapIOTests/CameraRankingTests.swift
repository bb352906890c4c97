import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// Which camera facecap opens by itself (`CameraRank`), as laptops list them: an infrared node for face unlock
/// beside the colour camera, a v4l2loopback node (OBS, a vendor's relay), MIPI nodes with raw Bayer data only,
/// slow modes; and the person's last choice remembered by its /dev/v4l name.
extension CameraDeviceTests {
    /// A V4L2 fourcc from its four characters ("GREY", "BG10").
    func fourcc(_ text: String) -> UInt32 {
        text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    func format(
        _ code: String, _ sizes: [(Int, Int)], rates: [Int] = [30, 15], compressed: Bool = false,
        emulated: Bool = false
    ) -> FakeV4L2Device.Format {
        var format = FakeV4L2Device.Format(
            fourcc: fourcc(code), description: code, emulated: emulated,
            compressed: compressed, sizes: sizes.map { (width: $0.0, height: $0.1) })
        format.rates = rates
        return format
    }

    /// A laptop: the IR node of face unlock first (GREY and MJPEG at 640×360, "IR" in its name), an OBS virtual
    /// camera, then the colour camera.
    var laptop: [String: FakeV4L2Device.Node] {
        [
            "video0": FakeV4L2Device.Node(
                card: "USB2.0 HD UVC WebCam: USB2.0 IR", driver: "uvcvideo",
                bus: "usb-0000:00:14.0-5",
                formats: [
                    format("GREY", [(640, 360)]), format("MJPG", [(640, 360)], compressed: true),
                    format("RGB3", [(640, 360)], emulated: true),
                ]),
            "video2": FakeV4L2Device.Node(
                card: "Dummy video device (0x0000)", driver: "v4l2 loopback",
                bus: "platform:v4l2loopback-000", formats: [format("YUYV", [(1280, 720)])]),
            "video4": FakeV4L2Device.Node(
                card: "USB2.0 HD UVC WebCam: USB2.0 HD", driver: "uvcvideo",
                bus: "usb-0000:00:14.0-5", formats: [.yuyv, .mjpeg]),
        ]
    }

    func testTheColourCameraIsOpenedBeforeAnInfraredOrAVirtualOneListedFirst() throws {
        let fake = try makeDev(
            ["video0", "video1", "video2", "video4", "video5"],
            nodes: laptop.merging(["video1": .metadata, "video5": .metadata]) { a, _ in a })
        let devices = CameraDevice.list(directory: directory, ops: fake.ops)
        XCTAssertEqual(devices.map(\.path), ["video0", "video2", "video4"].map { "\(directory)/\($0)" })
        let ranked = CameraRank.ranked(devices)
        XCTAssertEqual(ranked.map(\.device.path), ["video4", "video2", "video0"].map { "\(directory)/\($0)" })
        XCTAssertEqual(ranked.map(\.rank.kind), [.colour, .colour, .infrared])
        XCTAssertEqual(ranked.map(\.rank.isVirtual), [false, true, false])
        XCTAssertEqual(ranked[2].rank.infraredSign, .name)
        XCTAssertEqual(ranked[0].rank.reasons, ["colour", "640x480 at 30 fps"])
        XCTAssertEqual(ranked[1].rank.reasons, ["colour", "virtual (another program's picture)", "1280x720 at 30 fps"])
        XCTAssertEqual(
            ranked[2].rank.reasons,
            ["infrared (its name says IR)", "at best 640x360 at 30 fps (less than 640x480 at 15 fps)"])

        // Every way of opening without --device takes the colour camera: record's, and the wizard's.
        let camera = try Camera.openFirst(directory: directory, ops: fake.ops)
        XCTAssertEqual(camera.path, "\(directory)/video4")
        camera.close()
        let opener = SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops)
        let source = try opener.open()
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video4")
        source.close()
        // The picker lists them in the order tried, each with why; the one tried is marked.
        let choices = opener.cameras()
        XCTAssertEqual(choices.map(\.path), ranked.map(\.device.path))
        XCTAssertEqual(choices.map(\.isCurrent), [true, false, false])
        XCTAssertEqual(
            choices[0].description,
            "USB2.0 HD UVC WebCam: USB2.0 HD (uvcvideo, usb-0000:00:14.0-5): colour, 640x480 at 30 fps")
        XCTAssertTrue(
            choices[2].description.hasSuffix(
                ": infrared (its name says IR), at best 640x360 at 30 fps (less "
                    + "than 640x480 at 15 fps)"),
            choices[2].description)
    }

    func testAnInfraredNodeIsKnownByItsGreyOrSmallMJPEGFormatsWhenItsNameSaysNothing() {
        func rank(_ formats: [FakeV4L2Device.Format], card: String = "Integrated Camera: Integrated C") -> CameraRank {
            CameraRank(
                of: CameraDevice(
                    path: "/dev/video2", card: card, driver: "uvcvideo", bus: "usb-1",
                    formats: formats.map(cameraFormat)))
        }
        XCTAssertEqual(rank([format("GREY", [(640, 360), (340, 340)])]).infraredSign, .greyOnly)
        XCTAssertEqual(rank([format("Y10 ", [(640, 400)])]).kind, .infrared)
        XCTAssertEqual(
            rank([
                format("MJPG", [(640, 360)], compressed: true),
                format("RGB3", [(640, 360)], emulated: true),
            ]).infraredSign, .mjpegAt640x360)
        XCTAssertEqual(
            rank([
                format("MJPG", [(640, 360)], compressed: true),
                format("RGB3", [(640, 360)], emulated: true),
            ]).kind, .infrared)
        XCTAssertEqual(rank([.yuyv], card: "Integrated Infrared Camera").infraredSign, .name)
        // A colour camera with a 640×360 MJPEG mode among others, and "IR" only inside a word, stay colour.
        XCTAssertEqual(rank([.yuyv, format("MJPG", [(640, 360), (1280, 720)], compressed: true)]).kind, .colour)
        XCTAssertEqual(rank([.yuyv], card: "HIRES Camera").kind, .colour)
        XCTAssertNil(rank([.yuyv], card: "Integrated Camera: Integrated C").infraredSign)
    }

    func testRawBayerNodesAndUnreadableOnesComeLastAndSayWhy() throws {
        let bayer = FakeV4L2Device.Node(
            card: "Intel IPU6 ISYS Capture 0", driver: "isys", bus: "PCI:0000:00:05.0",
            formats: [format("BG10", [(1932, 1092)]), format("BA81", [(1932, 1092)])])
        let h264 = FakeV4L2Device.Node(
            card: "Odd Camera", driver: "odd", bus: "platform:odd",
            formats: [format("H264", [(640, 480)], compressed: true)])
        let fake = try makeDev(
            ["video0", "video1", "video2"],
            nodes: ["video0": bayer, "video1": h264, "video2": .webcam])
        let ranked = CameraRank.ranked(CameraDevice.list(directory: directory, ops: fake.ops))
        XCTAssertEqual(ranked.map(\.device.path), ["video2", "video0", "video1"].map { "\(directory)/\($0)" })
        XCTAssertEqual(ranked.map(\.rank.kind), [.colour, .rawBayer, .unreadable])
        XCTAssertEqual(ranked[1].rank.reasons, ["raw sensor data only (needs libcamera)"])
        XCTAssertEqual(ranked[2].rank.reasons, ["no format facecap can read"])
        XCTAssertNil(ranked[1].rank.mode, "no size of a format facecap reads")
        // libv4l2 debayers 8-bit data into an RGB24 of its own: still raw Bayer, not a colour camera.
        let debayered = CameraRank(
            of: CameraDevice(
                path: "/dev/video3", card: "ov2740", driver: "ipu6", bus: "PCI:1",
                formats: [format("BA81", [(1932, 1092)]), .emulatedRGB].map(cameraFormat)))
        XCTAssertEqual(debayered.kind, .rawBayer)
        for code in [
            "BG10", "BA81", "GBRG", "RGGB", "pBAA", "ip3b", "BG12", "RG16", "aBA8", "aGA8", "bRA8", "BD10",
            "BYR2", "GR14", "pgEE",
        ] {
            XCTAssertTrue(CameraRank.isBayer(code), code)
        }
        for code in ["YUYV", "MJPG", "NV12", "GREY", "RGB3", "BGR3", "RGBP", "BGR4", "Y10", "BA24", "BX24"] {
            XCTAssertFalse(CameraRank.isBayer(code), code)
        }
    }

    func testACameraThatReaches640x480At15FramesASecondComesBeforeASlowerOne() throws {
        let slow = FakeV4L2Device.Node(
            card: "Slow Camera", driver: "uvcvideo", bus: "usb-2",
            formats: [format("YUYV", [(640, 480), (1280, 720)], rates: [10, 5])])
        let small = FakeV4L2Device.Node(
            card: "Small Camera", driver: "uvcvideo", bus: "usb-3",
            formats: [format("YUYV", [(320, 240)], rates: [30])])
        let fake = try makeDev(
            ["video0", "video1", "video2", "video3"],
            nodes: ["video0": slow, "video1": small, "video2": .webcam, "video3": .webcam])
        let ranked = CameraRank.ranked(CameraDevice.list(directory: directory, ops: fake.ops))
        XCTAssertEqual(
            ranked.map(\.device.path), ["video2", "video3", "video0", "video1"].map { "\(directory)/\($0)" },
            "equal ranks keep the nodes' order")
        XCTAssertEqual(ranked.map(\.rank.isFastEnough), [true, true, false, false])
        XCTAssertEqual(
            ranked[2].rank.mode, CameraRank.Mode(width: 640, height: 480, framesPerSecond: 10),
            "the fastest of 640×480 or more, not the largest")
        XCTAssertEqual(ranked[2].rank.reasons, ["colour", "at best 640x480 at 10 fps (less than 640x480 at 15 fps)"])
        XCTAssertEqual(ranked[3].rank.mode, CameraRank.Mode(width: 320, height: 240, framesPerSecond: 30))
        // A virtual camera never wins over a physical one, however fast; a slow physical one does win over it.
        let loopback = FakeV4L2Device.Node(
            card: "OBS Virtual Camera", driver: "v4l2 loopback",
            bus: "platform:v4l2loopback-000", formats: [.yuyv])
        let second = try makeDevIn(subfolder: "b", ["video0", "video1"], nodes: ["video0": loopback, "video1": slow])
        XCTAssertEqual(
            CameraRank.choose(CameraDevice.list(directory: second.folder, ops: second.fake.ops))?.path,
            "\(second.folder)/video1")
    }

    func testTheModeIsTheSmallestSizeOfAtLeast640x480ThatKeeps15FramesASecond() {
        func mode(_ sizes: [CameraFrameSize]) -> CameraRank.Mode? { CameraRank.bestMode(sizes) }
        func discrete(_ w: Int, _ h: Int, _ rates: [Double]) -> CameraFrameSize {
            CameraFrameSize(
                kind: .discrete, width: w, height: h, minWidth: w, minHeight: h, stepWidth: 0,
                stepHeight: 0, frameRates: rates, frameRateRange: nil)
        }
        XCTAssertEqual(
            mode([discrete(1280, 720, [10]), discrete(640, 480, [30]), discrete(320, 240, [30])]),
            CameraRank.Mode(width: 640, height: 480, framesPerSecond: 30))
        XCTAssertEqual(
            mode([discrete(800, 600, [20]), discrete(1920, 1080, [30])]),
            CameraRank.Mode(width: 800, height: 600, framesPerSecond: 20))
        let range = CameraFrameSize(
            kind: .stepwise, width: 1920, height: 1080, minWidth: 48, minHeight: 32,
            stepWidth: 16, stepHeight: 8, frameRates: [], frameRateRange: 1...30)
        XCTAssertEqual(mode([range]), CameraRank.Mode(width: 640, height: 480, framesPerSecond: 30))
        XCTAssertNil(mode([discrete(640, 480, [])]), "no rate listed: no mode")
        XCTAssertNil(mode([]))
    }

    func testDevicesShowsEachNodesPlaceAndWhy() throws {
        let fake = try makeDev(["video0", "video2", "video4"], nodes: laptop)
        let devices = CameraDevice.list(directory: directory, ops: fake.ops)
        let lines = CameraDeviceText.human(devices).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("  choice ") },
            [
                "  choice 3: infrared (its name says IR), at best 640x360 at 30 fps (less than 640x480 at 15 fps)",
                "  choice 2: colour, virtual (another program's picture), 1280x720 at 30 fps",
                "  choice 1: colour, 640x480 at 30 fps",
            ], "in the nodes' order, each with its place")
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(CameraDeviceText.json(devices, problems: []).utf8)) as? [String: Any])
        let items = try XCTUnwrap(json["devices"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["rank"] as? Int }, [3, 2, 1])
        XCTAssertEqual(items.map { $0["kind"] as? String }, ["infrared", "colour", "colour"])
        XCTAssertEqual(items.map { $0["virtual"] as? Bool }, [false, true, false])
        XCTAssertEqual(items.map { $0["fastEnough"] as? Bool }, [false, true, true])
        let mode = try XCTUnwrap(items[2]["mode"] as? [String: Any])
        XCTAssertEqual(mode["width"] as? Int, 640)
        XCTAssertEqual(mode["fps"] as? Int, 30)
        XCTAssertEqual(
            items[0]["reasons"] as? [String],
            ["infrared (its name says IR)", "at best 640x360 at 30 fps (less than 640x480 at 15 fps)"])
    }

    /// Key d's choice is remembered by the camera's by-id name: the next run opens it though another ranks first,
    /// and forgets it once that camera is gone (or when a node without a stable name is chosen).
    func testThePersonsChoiceIsRememberedByItsStableNameAndOpenedNextTime() throws {
        let fake = try makeDev([], nodes: [:])
        let byID = directory + "/v4l/by-id", state = directory + "/state/facecap/camera"
        try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)
        let second = FakeV4L2Device.Node(card: "USB Camera", driver: "uvcvideo", bus: "usb-9", formats: [.yuyv])
        // Each node a link to a character device of its own, as /dev/v4l's links resolve to distinct nodes.
        for (name, node) in [("video0", "/dev/null"), ("video2", "/dev/zero"), ("video6", "/dev/full")] {
            try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(name)", withDestinationPath: node)
        }
        fake.nodes = [
            "\(directory)/video0": .webcam, "\(directory)/video2": second,
            "\(directory)/video6": laptop["video0"]!,
        ]
        try FileManager.default.createSymbolicLink(
            atPath: byID + "/usb-Acme_USB_Camera-video-index0",
            withDestinationPath: "../../video2")
        try FileManager.default.createSymbolicLink(
            atPath: byID + "/usb-Acme_IR-video-index0",
            withDestinationPath: "../../video6")
        let memory = CameraMemory(file: state, linkDirectories: [byID, directory + "/v4l/by-path"])
        // The fake nodes give no frames: the look at the first frames of a camera chosen by rank beside another
        // colour one (`hasFlatChroma`) gives up after the stall timeout, 5 s by default. What is opened does not
        // depend on it, so the test waits a fifth of a second per opening instead.
        var camera = CameraConfiguration()
        camera.stallTimeout = 0.2
        func opened() throws -> String? {
            let source = try SourceOpener(
                source: .camera(path: nil), camera: camera,
                directory: directory, ops: fake.ops, memory: memory
            ).open()
            defer { source.close() }
            return (source as? Camera)?.path
        }
        XCTAssertEqual(try opened(), "\(directory)/video0", "nothing remembered: the first in rank")

        let opener = SourceOpener(
            source: .camera(path: nil), camera: camera, directory: directory,
            ops: fake.ops, memory: memory)
        opener.choose("\(directory)/video2")
        XCTAssertEqual(try String(contentsOfFile: state, encoding: .utf8), "by-id/usb-Acme_USB_Camera-video-index0\n")
        var info = stat()
        XCTAssertEqual(stat(state, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(directory + "/state/facecap", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(try opened(), "\(directory)/video2", "the next run opens the camera chosen")
        XCTAssertEqual(
            SourceOpener(
                source: .camera(path: nil), camera: camera, directory: directory,
                ops: fake.ops, memory: memory
            ).cameras().first { $0.isCurrent }?.path,
            "\(directory)/video2")

        // An infrared node remembered is not opened by itself: the person chose it once, for that run.
        opener.choose("\(directory)/video6")
        XCTAssertEqual(try opened(), "\(directory)/video0")
        // Unplugged (its by-id link gone): ranked again.
        opener.choose("\(directory)/video2")
        try FileManager.default.removeItem(atPath: byID + "/usb-Acme_USB_Camera-video-index0")
        XCTAssertNil(memory.remembered(among: CameraDevice.list(directory: directory, ops: fake.ops)))
        XCTAssertEqual(try opened(), "\(directory)/video0")
        // A node without a stable name forgets the last choice rather than keep an older one.
        opener.choose("\(directory)/video0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: state))
        // A name that leaves the link folders is never followed.
        try "by-id/../../video2\n".write(toFile: state, atomically: true, encoding: .utf8)
        XCTAssertNil(memory.remembered())
    }

    func testTheStandardMemoryIsInTheStateHome() {
        XCTAssertEqual(
            CameraMemory.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.file,
            "/s/facecap/camera")
        XCTAssertEqual(CameraMemory.standard(environment: ["HOME": "/h"])?.file, "/h/.local/state/facecap/camera")
        XCTAssertEqual(
            CameraMemory.standard(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])?.file,
            "/h/.local/state/facecap/camera", "a relative XDG path is ignored, as the specification says")
        XCTAssertNil(CameraMemory.standard(environment: [:]))
    }

    /// `makeDev` in a folder of its own under the test's directory.
    func makeDevIn(subfolder: String, _ names: [String], nodes: [String: FakeV4L2Device.Node]) throws
        -> (folder: String, fake: FakeV4L2Device)
    {
        let folder = directory + "/" + subfolder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(name)", withDestinationPath: "/dev/null")
        }
        let fake = FakeV4L2Device(
            nodes: Dictionary(uniqueKeysWithValues: nodes.map { ("\(folder)/\($0.key)", $0.value) }))
        fakes.append(fake)
        return (folder, fake)
    }

    /// The `CameraFormat` a fake format enumerates as (discrete sizes, its rates).
    func cameraFormat(_ format: FakeV4L2Device.Format) -> CameraFormat {
        CameraFormat(
            fourcc: CameraSupport.fourccString(format.fourcc), description: format.description,
            isCompressed: format.compressed, isEmulated: format.emulated,
            sizes: format.sizes.map { size in
                CameraFrameSize(
                    kind: .discrete, width: size.width, height: size.height, minWidth: size.width,
                    minHeight: size.height, stepWidth: 0, stepHeight: 0,
                    frameRates: format.rates.map(Double.init).sorted(by: >), frameRateRange: nil)
            })
    }
}
