import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

/// The formats laptop cameras give (issue 31): YUYV, NV12 (AMD's ISP, Ubuntu's relay), YU12/YV12, RGB24, BGR24
/// and 32-bit RGB (libcamera's software ISP), each read as it is, a format forced with --format, and a relay that
/// refuses S_FMT used as it is; a real face photo reaches the analyser with the same guidance through each.
extension CameraDeviceTests {
    /// `rgb` in a camera format (`CameraFormatSamples.encode`), rows `padding` bytes longer than they need be.
    func encode(_ rgb: [UInt8], width: Int, height: Int, as fourcc: UInt32, padding: Int = 0) -> [UInt8] {
        CameraFormatSamples.encode(rgb, width: width, height: height, as: fourcc, padding: padding)
    }

    static let formatCases: [(fourcc: UInt32, name: String, frame: PixelFormat)] = [
        (CV4L2_PIX_FMT_YUYV, "YUYV", .yuyv), (CV4L2_PIX_FMT_NV12, "NV12", .yuv420p),
        (CV4L2_PIX_FMT_YUV420, "YU12", .yuv420p), (CV4L2_PIX_FMT_YVU420, "YV12", .yuv420p),
        (CV4L2_PIX_FMT_RGB24, "RGB3", .rgb24), (CV4L2_PIX_FMT_BGR24, "BGR3", .rgb24),
        (CV4L2_PIX_FMT_XBGR32, "XR24", .rgb24), (CV4L2_PIX_FMT_XRGB32, "BX24", .rgb24),
        (CV4L2_PIX_FMT_RGBX32, "XB24", .rgb24),
    ]

    /// One frame of `picture` through a fake camera that gives only `fourcc`, rows padded; returns the camera too.
    func readThrough(
        _ fourcc: UInt32, picture: [UInt8], width: Int, height: Int, padding: Int = 8,
        forced: String? = nil, node adjust: (inout FakeV4L2Device.Node) -> Void = { _ in }
    )
        throws -> (frame: Frame, camera: Camera, fake: FakeV4L2Device)
    {
        let compressed = fourcc == CV4L2_PIX_FMT_MJPEG
        var node = FakeV4L2Device.Node(
            card: "Format Camera", driver: "fake", bus: "platform:fake-1",
            formats: [
                FakeV4L2Device.Format(
                    fourcc: fourcc, description: "picture",
                    compressed: compressed,
                    sizes: [(width, height)])
            ])
        node.rowPadding = padding
        adjust(&node)
        let name = "video\(fakes.count)"
        let fake = try makeDev([name], nodes: [name: node])
        let bytes = encode(picture, width: width, height: height, as: fourcc, padding: padding)
        fake.script = [.frame(FakeV4L2Device.FrameSpec(bytes: bytes, bytesUsed: compressed ? bytes.count : nil))]
        var configuration = CameraConfiguration(width: width, height: height)
        configuration.pixelFormat = forced
        let camera = try Camera(path: "\(directory)/\(name)", configuration: configuration, ops: fake.ops)
        var frame = Frame(format: .yuyv, width: 0, height: 0, colorRange: .limited, timestamp: 0, data: [])
        for _ in 0..<10 {
            if case .frame = try camera.nextFrame(into: &frame, timeout: 1) { return (frame, camera, fake) }
        }
        XCTFail("no frame from the \(CameraSupport.fourccString(fourcc)) camera")
        return (frame, camera, fake)
    }

    func testEachFormatIsReadAsItIsIntoTheAnalysersLayout() throws {
        // A small picture with every channel different, an odd size left out (V4L2's 4:2:0 formats are even).
        let width = 10, height = 6
        let picture = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 37 + $0 / 3) }
        let yuyv = try readThrough(CV4L2_PIX_FMT_YUYV, picture: picture, width: width, height: height)
        yuyv.camera.close()
        for (fourcc, name, layout) in Self.formatCases {
            let (frame, camera, _) = try readThrough(fourcc, picture: picture, width: width, height: height)
            defer { camera.close() }
            XCTAssertEqual(camera.fourcc, name)
            XCTAssertFalse(camera.isConverted, name)
            XCTAssertEqual(frame.format, layout, name)
            XCTAssertEqual(camera.format, layout, name)
            XCTAssertEqual(frame.data.count, layout.byteCount(width: width, height: height), name)
            XCTAssertEqual(camera.colorRange, layout == .rgb24 ? .full : .limited, name)
            switch layout {
            case .rgb24: XCTAssertEqual(frame.data, picture, "\(name): the RGB channels in order, padding dropped")
            case .yuv420p:
                // The luma is YUYV's; the chroma planes are U then V, whatever order the camera kept them in.
                let luma = Array(frame.data[0..<(width * height)])
                XCTAssertEqual(
                    luma, stride(from: 0, to: yuyv.frame.data.count, by: 2).map { yuyv.frame.data[$0] }, name)
                let expected = encode(picture, width: width, height: height, as: CV4L2_PIX_FMT_YUV420)
                XCTAssertEqual(Array(frame.data[(width * height)...]), Array(expected[(width * height)...]), name)
            default: XCTAssertEqual(frame.data, yuyv.frame.data, name)
            }
            XCTAssertTrue(camera.label.contains(name), camera.label)
        }
    }

    func testAFormatForcedWithFormatIsTheOneAskedForOrAClearError() throws {
        let both = FakeV4L2Device.Node(
            card: "Two Formats", driver: "fake", bus: "platform:fake-2",
            formats: [.yuyv, format("NV12", [(640, 480)]), .mjpeg, .emulatedRGB])
        let fake = try makeDev(["video0"], nodes: ["video0": both])
        var configuration = CameraConfiguration()
        let automatic = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(automatic.fourcc, "YUYV", "the camera's own YUYV first")
        automatic.close()
        configuration.pixelFormat = "NV12"
        let nv12 = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(nv12.fourcc, "NV12")
        XCTAssertEqual(nv12.format, .yuv420p)
        nv12.close()
        // MJPEG is asked of the camera as it is and decoded by facecap itself, to planar 4:2:2.
        configuration.pixelFormat = "MJPG"
        let mjpeg = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(mjpeg.fourcc, "MJPG")
        XCTAssertEqual(fake.lastRequestedFourcc, CV4L2_PIX_FMT_MJPEG)
        XCTAssertFalse(mjpeg.isConverted)
        XCTAssertEqual(mjpeg.format, .yuv422p)
        XCTAssertTrue(mjpeg.label.contains("MJPG 640×480"), mjpeg.label)
        mjpeg.close()
        configuration.pixelFormat = "H264"
        XCTAssertThrowsError(try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)) {
            let error = $0 as? CameraError
            XCTAssertEqual(
                error,
                .unsupportedFormat(
                    path: "\(directory)/video0", offered: ["YUYV", "NV12", "MJPG", "RGB3"],
                    asked: "H264"))
            XCTAssertEqual(
                error?.message,
                "\(directory)/video0 does not give H264 (it offers YUYV, NV12, MJPG, RGB3) — "
                    + "leave out --format, or name one of those")
        }
        XCTAssertTrue(fake.openFds.isEmpty)
    }

    /// Without --size: the smallest size of at least 640×480 the camera lists at 15 fps or more, not the size
    /// nearest 640×480 (a 640×360 one).
    func testWithoutASizeTheSmallestOfAtLeast640x480At15FramesASecondIsAskedFor() throws {
        let wide = FakeV4L2Device.Node(
            card: "Wide Camera", driver: "uvcvideo", bus: "usb-4",
            formats: [format("YUYV", [(640, 360), (1280, 720), (1920, 1080)], rates: [30])])
        let fake = try makeDev(["video0"], nodes: ["video0": wide])
        var configuration = CameraConfiguration()
        let asked = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual([asked.width, asked.height], [640, 360], "640×480 asked for: the driver's nearest")
        asked.close()
        configuration.automaticSize = true
        let automatic = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual([automatic.width, automatic.height], [1280, 720])
        XCTAssertEqual([automatic.requestedWidth, automatic.requestedHeight], [1280, 720])
        XCTAssertFalse(automatic.wasSizeAdjusted)
        automatic.close()
        XCTAssertTrue(fake.openFds.isEmpty)
    }

    /// A USB 2 camera: YUYV only at 1280×720 and 10 fps, MJPEG at 30. Without --size the size and the format come
    /// together: MJPEG (decoded by facecap) at 640×480, not YUYV at 10 fps.
    func testWithoutASizeTheFormatThatKeepsTheRateIsTaken() throws {
        let usb2 = FakeV4L2Device.Node(
            card: "USB2 Camera", driver: "uvcvideo", bus: "usb-5",
            formats: [format("YUYV", [(1280, 720)], rates: [10]), .mjpeg, .emulatedRGB])
        let fake = try makeDev(["video0"], nodes: ["video0": usb2])
        let rank = CameraRank(of: CameraDevice.list(directory: directory, ops: fake.ops)[0])
        XCTAssertEqual(rank.format, "MJPG")
        XCTAssertEqual(rank.mode, CameraRank.Mode(width: 640, height: 480, framesPerSecond: 30))
        var configuration = CameraConfiguration()
        let fixed = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(fixed.fourcc, "YUYV", "with a size given, the camera's own YUYV first, as before")
        fixed.close()
        configuration.automaticSize = true
        let automatic = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(automatic.fourcc, "MJPG")
        XCTAssertFalse(automatic.isConverted)
        XCTAssertEqual([automatic.width, automatic.height], [640, 480])
        XCTAssertEqual(automatic.frameRate, 30)
        XCTAssertTrue(automatic.label.contains("MJPG 640×480"), automatic.label)
        automatic.close()
    }

    /// The smallest good mode across the formats, not the first format that has one: a camera whose YUYV starts at
    /// 1280×720 (at 30 fps) where MJPEG gives 640×480 is read as MJPEG at 640×480 (a quarter of the pixels to convert
    /// and analyse); where both give 640×480, the preferred format (YUYV) is kept.
    func testTheSmallestGoodModeIsChosenAcrossFormats() throws {
        let wideYUYV = FakeV4L2Device.Node(
            card: "HD Camera", driver: "uvcvideo", bus: "usb-6",
            formats: [
                format("YUYV", [(1280, 720), (1920, 1080)], rates: [30]),
                .mjpeg, .emulatedRGB,
            ])
        let level = FakeV4L2Device.Node(
            card: "VGA Camera", driver: "uvcvideo", bus: "usb-7",
            formats: [
                format("YUYV", [(640, 480), (1280, 720)], rates: [30]),
                .mjpeg, .emulatedRGB,
            ])
        let fake = try makeDev(["video0", "video1"], nodes: ["video0": wideYUYV, "video1": level])
        let devices = CameraDevice.list(directory: directory, ops: fake.ops)
        let wide = CameraRank(of: try XCTUnwrap(devices.first { $0.path.hasSuffix("video0") }))
        XCTAssertEqual(wide.format, "MJPG")
        XCTAssertEqual(wide.mode, CameraRank.Mode(width: 640, height: 480, framesPerSecond: 30))
        let equal = CameraRank(of: try XCTUnwrap(devices.first { $0.path.hasSuffix("video1") }))
        XCTAssertEqual(equal.format, "YUYV", "equal sizes: the format facecap prefers")
        XCTAssertEqual(equal.mode, CameraRank.Mode(width: 640, height: 480, framesPerSecond: 30))
        var configuration = CameraConfiguration()
        configuration.automaticSize = true
        let camera = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(camera.fourcc, "MJPG")
        XCTAssertEqual([camera.width, camera.height], [640, 480])
        camera.close()
    }

    func testARelayThatRefusesSetFormatIsUsedAsItIs() throws {
        let width = 64, height = 36
        let picture = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let (frame, camera, fake) = try readThrough(
            CV4L2_PIX_FMT_NV12, picture: picture, width: width, height: height,
            padding: 0
        ) { $0.refusesSetFormat = true }
        defer { camera.close() }
        XCTAssertEqual(camera.fourcc, "NV12")
        XCTAssertEqual(frame.format, .yuv420p)
        XCTAssertEqual(
            [camera.width, camera.height], [width, height], "the relay's one size, not the 640×480 asked for")
        XCTAssertEqual(fake.events("S_FMT", "G_FMT"), ["S_FMT", "G_FMT"])
    }
}
