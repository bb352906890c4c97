import CV4L2
import FaceCapCore
@testable import FaceCapIO
import XCTest

/// The formats laptop cameras give (issue 31): YUYV, NV12 (AMD's ISP, Ubuntu's relay), YU12/YV12, RGB24, BGR24
/// and 32-bit RGB (libcamera's software ISP), each read as it is, a format forced with --format, and a relay that
/// refuses S_FMT used as it is; a real face photo reaches the analyser with the same guidance through each.
extension CameraDeviceTests {
    /// `rgb` (width × height, 3 bytes a pixel) in a camera format, rows `padding` bytes longer than they need be
    /// (chroma rows of YU12/YV12 half that); YUV in limited range, 4:2:x chroma averaged over each block.
    func encode(_ rgb: [UInt8], width: Int, height: Int, as fourcc: UInt32, padding: Int = 0) -> [UInt8] {
        let toYUV = RGBToYUV(range: .limited)
        func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
            let i = (y * width + x) * 3
            return (rgb[i], rgb[i + 1], rgb[i + 2])
        }
        func yuv(_ x: Int, _ y: Int) -> (y: UInt8, u: UInt8, v: UInt8) {
            let p = pixel(x, y)
            return toYUV.yuv(r: p.r, g: p.g, b: p.b)
        }
        /// The chroma of the 2×2 block at (cx, cy), averaged.
        func chroma(_ cx: Int, _ cy: Int) -> (u: UInt8, v: UInt8) {
            var u = 0, v = 0
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let c = yuv(min(cx * 2 + dx, width - 1), min(cy * 2 + dy, height - 1))
                u += Int(c.u)
                v += Int(c.v)
            }
            return (UInt8((u + 2) / 4), UInt8((v + 2) / 4))
        }
        let layout = FakeV4L2Device.layout(fourcc)
        let stride = width * layout.bytesPerPixel + padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * height + layout.chromaBytes(stride, height))
        for y in 0..<height {
            for x in 0..<width {
                let at = y * stride + x * layout.bytesPerPixel
                let p = pixel(x, y)
                switch fourcc {
                case CV4L2_PIX_FMT_YUYV:
                    let c = yuv(x & ~1, y), d = yuv(min(x | 1, width - 1), y)
                    bytes[at] = yuv(x, y).y
                    bytes[at + 1] = x & 1 == 0 ? UInt8((Int(c.u) + Int(d.u) + 1) / 2) : UInt8((Int(c.v) + Int(d.v) + 1) / 2)
                case CV4L2_PIX_FMT_RGB24: (bytes[at], bytes[at + 1], bytes[at + 2]) = (p.r, p.g, p.b)
                case CV4L2_PIX_FMT_BGR24: (bytes[at], bytes[at + 1], bytes[at + 2]) = (p.b, p.g, p.r)
                case CV4L2_PIX_FMT_XBGR32: (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (p.b, p.g, p.r, 0)
                case CV4L2_PIX_FMT_XRGB32: (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (0, p.r, p.g, p.b)
                case CV4L2_PIX_FMT_RGBX32: (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (p.r, p.g, p.b, 0)
                default: bytes[at] = yuv(x, y).y   // the luma plane of the 4:2:0 formats
                }
            }
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch fourcc {
        case CV4L2_PIX_FMT_NV12:
            for cy in 0..<chromaHeight {
                for cx in 0..<chromaWidth {
                    let c = chroma(cx, cy)
                    bytes[stride * height + cy * stride + cx * 2] = c.u
                    bytes[stride * height + cy * stride + cx * 2 + 1] = c.v
                }
            }
        case CV4L2_PIX_FMT_YUV420, CV4L2_PIX_FMT_YVU420:
            let half = stride / 2, first = stride * height, second = first + half * chromaHeight
            for cy in 0..<chromaHeight {
                for cx in 0..<chromaWidth {
                    let c = chroma(cx, cy)
                    let (a, b) = fourcc == CV4L2_PIX_FMT_YUV420 ? (c.u, c.v) : (c.v, c.u)
                    bytes[first + cy * half + cx] = a
                    bytes[second + cy * half + cx] = b
                }
            }
        default:
            break
        }
        return bytes
    }

    static let formatCases: [(fourcc: UInt32, name: String, frame: PixelFormat)] = [
        (CV4L2_PIX_FMT_YUYV, "YUYV", .yuyv), (CV4L2_PIX_FMT_NV12, "NV12", .yuv420p),
        (CV4L2_PIX_FMT_YUV420, "YU12", .yuv420p), (CV4L2_PIX_FMT_YVU420, "YV12", .yuv420p),
        (CV4L2_PIX_FMT_RGB24, "RGB3", .rgb24), (CV4L2_PIX_FMT_BGR24, "BGR3", .rgb24),
        (CV4L2_PIX_FMT_XBGR32, "XR24", .rgb24), (CV4L2_PIX_FMT_XRGB32, "BX24", .rgb24),
        (CV4L2_PIX_FMT_RGBX32, "XB24", .rgb24),
    ]

    /// One frame of `picture` through a fake camera that gives only `fourcc`, rows padded; returns the camera too.
    func readThrough(_ fourcc: UInt32, picture: [UInt8], width: Int, height: Int, padding: Int = 8,
                     forced: String? = nil, node adjust: (inout FakeV4L2Device.Node) -> Void = { _ in })
        throws -> (frame: Frame, camera: Camera, fake: FakeV4L2Device) {
        var node = FakeV4L2Device.Node(card: "Format Camera", driver: "fake", bus: "platform:fake-1",
                                       formats: [FakeV4L2Device.Format(fourcc: fourcc, description: "picture",
                                                                       sizes: [(width, height)])])
        node.rowPadding = padding
        adjust(&node)
        let name = "video\(fakes.count)"
        let fake = try makeDev([name], nodes: [name: node])
        fake.script = [.frame(FakeV4L2Device.FrameSpec(bytes: encode(picture, width: width, height: height, as: fourcc,
                                                                     padding: padding)))]
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
                XCTAssertEqual(luma, stride(from: 0, to: yuyv.frame.data.count, by: 2).map { yuyv.frame.data[$0] }, name)
                let expected = encode(picture, width: width, height: height, as: CV4L2_PIX_FMT_YUV420)
                XCTAssertEqual(Array(frame.data[(width * height)...]), Array(expected[(width * height)...]), name)
            default: XCTAssertEqual(frame.data, yuyv.frame.data, name)
            }
            XCTAssertTrue(camera.label.contains(name), camera.label)
        }
    }

    func testAFormatForcedWithFormatIsTheOneAskedForOrAClearError() throws {
        let both = FakeV4L2Device.Node(card: "Two Formats", driver: "fake", bus: "platform:fake-2",
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
        // MJPEG is decoded by libv4l2: asked for as its RGB24.
        configuration.pixelFormat = "MJPG"
        let mjpeg = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(mjpeg.fourcc, "RGB3")
        XCTAssertTrue(mjpeg.isConverted)
        XCTAssertTrue(mjpeg.label.contains("RGB24 via libv4l2"), mjpeg.label)
        mjpeg.close()
        configuration.pixelFormat = "H264"
        XCTAssertThrowsError(try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)) {
            let error = $0 as? CameraError
            XCTAssertEqual(error, .unsupportedFormat(path: "\(directory)/video0", offered: ["YUYV", "NV12", "MJPG", "RGB3"],
                                                     asked: "H264"))
            XCTAssertEqual(error?.message, "\(directory)/video0 does not give H264 (it offers YUYV, NV12, MJPG, RGB3) — "
                           + "leave out --format, or name one of those")
        }
        XCTAssertTrue(fake.openFds.isEmpty)
    }

    /// Without --size: the smallest size of at least 640×480 the camera lists at 15 fps or more, not the size
    /// nearest 640×480 (a 640×360 one).
    func testWithoutASizeTheSmallestOfAtLeast640x480At15FramesASecondIsAskedFor() throws {
        let wide = FakeV4L2Device.Node(card: "Wide Camera", driver: "uvcvideo", bus: "usb-4",
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
    /// together: libv4l2's RGB24 (of the MJPEG) at 640×480, not YUYV at 10 fps.
    func testWithoutASizeTheFormatThatKeepsTheRateIsTaken() throws {
        let usb2 = FakeV4L2Device.Node(card: "USB2 Camera", driver: "uvcvideo", bus: "usb-5",
                                       formats: [format("YUYV", [(1280, 720)], rates: [10]), .mjpeg, .emulatedRGB])
        let fake = try makeDev(["video0"], nodes: ["video0": usb2])
        let rank = CameraRank(of: CameraDevice.list(directory: directory, ops: fake.ops)[0])
        XCTAssertEqual(rank.format, "RGB3")
        XCTAssertEqual(rank.mode, CameraRank.Mode(width: 640, height: 480, framesPerSecond: 30))
        var configuration = CameraConfiguration()
        let fixed = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(fixed.fourcc, "YUYV", "with a size given, the camera's own YUYV first, as before")
        fixed.close()
        configuration.automaticSize = true
        let automatic = try Camera(path: "\(directory)/video0", configuration: configuration, ops: fake.ops)
        XCTAssertEqual(automatic.fourcc, "RGB3")
        XCTAssertTrue(automatic.isConverted)
        XCTAssertEqual([automatic.width, automatic.height], [640, 480])
        XCTAssertEqual(automatic.frameRate, 30)
        XCTAssertTrue(automatic.label.contains("RGB24 via libv4l2"), automatic.label)
        automatic.close()
    }

    func testARelayThatRefusesSetFormatIsUsedAsItIs() throws {
        let width = 64, height = 36
        let picture = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let (frame, camera, fake) = try readThrough(CV4L2_PIX_FMT_NV12, picture: picture, width: width, height: height,
                                                    padding: 0) { $0.refusesSetFormat = true }
        defer { camera.close() }
        XCTAssertEqual(camera.fourcc, "NV12")
        XCTAssertEqual(frame.format, .yuv420p)
        XCTAssertEqual([camera.width, camera.height], [width, height], "the relay's one size, not the 640×480 asked for")
        XCTAssertEqual(fake.events("S_FMT", "G_FMT"), ["S_FMT", "G_FMT"])
    }

    /// A real face photo, 640×480, through each format: the same guidance as through YUYV, the face within a pixel.
    func testAFacePhotoGetsTheSameGuidanceThroughEveryFormat() throws {
        let models = try XCTUnwrap(try? ModelFiles.loadAllFaceModels(), "face models missing: run 'make test'")
        let photo = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual(photo.format, .rgb24)
        // The 600×600 photo on a grey 640×480 frame, scaled to 0.8 and centred (a face of a good size).
        let width = 640, height = 480, scale = 0.8
        var picture = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let sx = Int((Double(x - width / 2) / scale + Double(photo.width) / 2).rounded(.down))
                let sy = Int((Double(y - height / 2) / scale + Double(photo.height) / 2 + 40).rounded(.down))
                guard (0..<photo.width).contains(sx), (0..<photo.height).contains(sy) else { continue }
                for k in 0..<3 { picture[(y * width + x) * 3 + k] = photo.data[(sy * photo.width + sx) * 3 + k] }
            }
        }
        let thresholds = AnalyzerThresholds()
        func analyse(_ frame: Frame) throws -> (codes: [GuidanceCode], box: Rect?) {
            let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks)
            let faces = tracker.process(frame)
            let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: thresholds)
            return (GuidanceRules.activeCodes(metrics, thresholds: thresholds), faces.first.map(FaceMeasures.faceBox))
        }
        let (reference, camera, _) = try readThrough(CV4L2_PIX_FMT_YUYV, picture: picture, width: width, height: height)
        camera.close()
        let expected = try analyse(reference)
        let box = try XCTUnwrap(expected.box, "the photo's face is found through YUYV")
        for (fourcc, name, _) in Self.formatCases.dropFirst() {
            let (frame, camera, _) = try readThrough(fourcc, picture: picture, width: width, height: height)
            camera.close()
            let found = try analyse(frame)
            XCTAssertEqual(found.codes, expected.codes, name)
            let other = try XCTUnwrap(found.box, name)
            for (a, b) in [(other.x, box.x), (other.y, box.y), (other.width, box.width), (other.height, box.height)] {
                XCTAssertEqual(a, b, accuracy: 1.5, "\(name): face box \(other) against YUYV's \(box)")
            }
        }
    }
}
