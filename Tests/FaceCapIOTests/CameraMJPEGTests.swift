import CV4L2
import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// MJPEG read by facecap itself (issue 31): asked of the camera as it is, decoded by the project's libjpeg-turbo
/// decoder to planar 4:2:2; a frame cut short or corrupt is counted as damaged and skipped. And a real face photo
/// through every format facecap reads, at 640×480 and 1280×720: the same guidance as through YUYV.
extension CameraDeviceTests {
    static func webcamJPEG(_ rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        let jpeg = CameraFormatSamples.webcamJPEG(rgb, width: width, height: height)
        precondition(!jpeg.isEmpty, "the JPEG encoder failed")
        return jpeg
    }

    /// A picture with shapes and colour in it, `width` × `height` RGB.
    private func testPicture(width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                rgb[i] = UInt8(x * 255 / max(width - 1, 1))
                rgb[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                rgb[i + 2] = (x / 40 + y / 40) % 2 == 0 ? 200 : 40
            }
        }
        return rgb
    }

    func testAnMJPEGOnlyCameraIsDecodedByFacecapAndItsDamagedFramesAreCountedAndSkipped() throws {
        let width = 640, height = 480
        let picture = testPicture(width: width, height: height)
        let jpeg = Self.webcamJPEG(picture, width: width, height: height)
        var mjpeg = FakeV4L2Device.Format.mjpeg
        mjpeg.sizes = [(width, height)]
        let node = FakeV4L2Device.Node(card: "MJPEG Camera", driver: "uvcvideo", bus: "usb-7", formats: [mjpeg])
        let fake = try makeDev(["video0"], nodes: ["video0": node])
        let whole = FakeV4L2Device.FrameSpec(bytes: jpeg, bytesUsed: jpeg.count)
        // Cut short in its entropy-coded data, as a USB transfer that lost its end delivers it; then garbage.
        let cut = FakeV4L2Device.FrameSpec(bytes: Array(jpeg.prefix(jpeg.count / 2)), bytesUsed: jpeg.count / 2)
        let garbage = FakeV4L2Device.FrameSpec(fill: 0x5A, bytesUsed: 4000)
        fake.script = [.frame(whole), .frame(cut), .frame(garbage), .frame(whole)]
        let camera = try Camera(path: "\(directory)/video0", configuration: CameraConfiguration(), ops: fake.ops)
        defer { camera.close() }
        XCTAssertEqual(fake.lastRequestedFourcc, CV4L2_PIX_FMT_MJPEG, "asked of the camera as it is")
        XCTAssertEqual(camera.fourcc, "MJPG")
        XCTAssertFalse(camera.isConverted)
        XCTAssertEqual(camera.format, .yuv422p)
        XCTAssertEqual(camera.colorRange, .full)

        var frame = Frame.empty()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.format, .yuv422p)
        XCTAssertEqual([frame.width, frame.height], [width, height])
        XCTAssertEqual(frame.data.count, PixelFormat.yuv422p.byteCount(width: width, height: height))
        // The luma is the picture's (BT.601, full range), within the JPEG's loss.
        let toYUV = RGBToYUV(range: .full)
        var difference = 0
        for index in 0..<(width * height) {
            let y = toYUV.yuv(r: picture[3 * index], g: picture[3 * index + 1], b: picture[3 * index + 2]).y
            difference += abs(Int(frame.data[index]) - Int(y))
        }
        XCTAssertLessThan(Double(difference) / Double(width * height), 3, "mean luma error")
        let first = frame.data

        // The cut and the garbage frame are skipped and counted; the next whole one comes through.
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.data, first)
        XCTAssertEqual(camera.statistics.droppedUndecodable, 2)
        XCTAssertEqual(camera.statistics.dropped, 2)
        XCTAssertEqual(camera.statistics.framesDelivered, 2)
        XCTAssertEqual(fake.dequeued, 4)
        // record's last line says which of the damaged frames were JPEGs that would not decode.
        let report = RecordingSummary(framesWritten: 2, stop: .finished).report(camera: camera, output: "c.y4m")
        XCTAssertTrue(
            report.hasSuffix(
                "dropped 2 damaged frames (0 flagged, 0 short), the driver skipped 0;"
                    + " 2 of them JPEGs that would not decode"), report)
    }

    func testAnMJPEGFrameOfAnotherSizeThanTheStreamIsDamagedNotACrash() throws {
        let jpeg = Self.webcamJPEG(testPicture(width: 320, height: 240), width: 320, height: 240)
        var mjpeg = FakeV4L2Device.Format.mjpeg
        mjpeg.sizes = [(640, 480)]
        let fake = try makeDev(["video0"], nodes: ["video0": FakeV4L2Device.Node(formats: [mjpeg])])
        fake.script = [.frame(FakeV4L2Device.FrameSpec(bytes: jpeg, bytesUsed: jpeg.count)), .pollTimeout]
        let camera = try Camera(path: "\(directory)/video0", ops: fake.ops)
        defer { camera.close() }
        var frame = Frame.empty()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0.05), .noFrameYet)
        XCTAssertEqual(camera.statistics.droppedUndecodable, 1)
    }

    /// A camera that sends every JPEG at another size than the one it agreed to is said as such once
    /// `Camera.otherSizeLimit` of them came in a row, naming both sizes (for --size), not as a camera that stopped; a
    /// good frame between them starts the count again.
    func testACameraThatSendsEveryFrameAtAnotherSizeIsToldAsSuch() throws {
        let other = Self.webcamJPEG(testPicture(width: 320, height: 240), width: 320, height: 240)
        let good = Self.webcamJPEG(testPicture(width: 640, height: 480), width: 640, height: 480)
        var mjpeg = FakeV4L2Device.Format.mjpeg
        mjpeg.sizes = [(640, 480)]
        let fake = try makeDev(["video0"], nodes: ["video0": FakeV4L2Device.Node(formats: [mjpeg])])
        let limit = Camera.otherSizeLimit
        let otherFrame = FakeV4L2Device.Event.frame(FakeV4L2Device.FrameSpec(bytes: other, bytesUsed: other.count))
        fake.script =
            Array(repeating: otherFrame, count: limit - 1)
            + [.frame(FakeV4L2Device.FrameSpec(bytes: good, bytesUsed: good.count))]
            + Array(repeating: otherFrame, count: limit)
        let camera = try Camera(path: "\(directory)/video0", ops: fake.ops)
        defer { camera.close() }
        var frame = Frame.empty()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 5), .frame, "the good frame after \(limit - 1)")
        XCTAssertEqual(camera.statistics.droppedUndecodable, limit - 1)
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 5)) { error in
            XCTAssertEqual(
                (error as? FrameSourceError)?.camera,
                .unsupportedFormat(path: "\(directory)/video0", offered: ["MJPG 320x240"], asked: "MJPG 640x480"))
        }
        XCTAssertEqual(camera.statistics.droppedUndecodable, 2 * limit - 2, "the last one throws before it is counted")
    }

    /// `facecap bench --formats` reads each format without a device (`CameraFormatSamples.Reader`): the frames are
    /// the camera path's, byte for byte.
    func testTheBenchReaderReadsEachFormatAsTheCameraDoes() throws {
        let width = 64, height = 48
        let picture = testPicture(width: width, height: height)
        for (fourcc, name) in Self.guidanceFormats {
            let (frame, camera, _) = try readThrough(fourcc, picture: picture, width: width, height: height, padding: 0)
            camera.close()
            var read = Frame.empty()
            let bytes = CameraFormatSamples.encode(picture, width: width, height: height, fourcc: name)
            XCTAssertTrue(
                CameraFormatSamples.Reader().read(
                    bytes, fourcc: name, width: width, height: height,
                    into: &read), name)
            XCTAssertEqual(read.format, frame.format, name)
            XCTAssertEqual(read.colorRange, frame.colorRange, name)
            XCTAssertEqual(read.data, frame.data, name)
        }
        var read = Frame.empty()
        XCTAssertFalse(
            CameraFormatSamples.Reader().read(
                [1, 2, 3], fourcc: "NV12", width: width, height: height,
                into: &read), "too short for a frame")
        XCTAssertFalse(
            CameraFormatSamples.Reader().read(
                [0xFF, 0xD8, 0xFF, 0xD9], fourcc: "MJPG", width: width,
                height: height, into: &read), "no picture in it")
    }

    /// Every sampling a JPEG can have reaches 4:2:2 planes whose luma is the picture's: the fuzz corpus's frames (4:2:2,
    /// 4:2:0, 4:4:4, 4:4:0, grey, progressive), against the JPEG file decoder's RGB; the frame cut short is refused.
    func testEverySamplingDecodesToTheSameLumaAsTheFileDecoder() throws {
        let folder = fixturesDirectory.deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/mjpeg")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names.count, 7)
        let toYUV = RGBToYUV(range: .full)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            var frame = Frame.empty()
            let read = CameraFormatSamples.Reader().read(bytes, fourcc: "MJPG", width: 64, height: 48, into: &frame)
            if name.contains("cut") {
                XCTAssertFalse(read, name)
                continue
            }
            XCTAssertTrue(read, name)
            var rgb = Frame.empty()
            try ImageFile.decode(bytes).convertToRGB24(into: &rgb)
            var difference = 0
            for index in 0..<(64 * 48) {
                let y = toYUV.yuv(r: rgb.data[3 * index], g: rgb.data[3 * index + 1], b: rgb.data[3 * index + 2]).y
                difference += abs(Int(frame.data[index]) - Int(y))
            }
            XCTAssertLessThan(Double(difference) / Double(64 * 48), 1.5, name)
            // Grey frames get neutral chroma; colour ones do not.
            let chroma = frame.data[(64 * 48)...]
            XCTAssertEqual(chroma.allSatisfy { $0 == 128 }, name.contains("gray"), name)
        }
    }

    /// The formats a camera's frames reach the analyser through, YUYV first (the reference).
    static var guidanceFormats: [(fourcc: UInt32, name: String)] {
        formatCases.map { ($0.fourcc, $0.name) } + [(CV4L2_PIX_FMT_MJPEG, "MJPG")]
    }

    static func facePicture(_ photo: Frame, width: Int, height: Int, scale: Double) -> [UInt8] {
        CameraFormatSamples.facePicture(photo, width: width, height: height, scale: scale)
    }

    /// A real face photo through each format, at 640×480 and 1280×720: a face of a good size that reads ready, and
    /// the same face far away (a known problem: move closer). Every format gives the YUYV frame's guidance codes and
    /// primary word, and its face box within 1.5 pixels (MJPEG, lossy at a webcam's quality, within 2).
    func testAFacePhotoGetsTheSameGuidanceThroughEveryFormat() throws {
        let models = try XCTUnwrap(try? ModelFiles.loadAllFaceModels(), "face models missing: run 'make test'")
        let photo = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual(photo.format, .rgb24)
        let thresholds = AnalyzerThresholds()
        func analyse(_ frame: Frame) throws -> (codes: [GuidanceCode], box: Rect?) {
            let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks)
            let faces = tracker.process(frame)
            let metrics = FaceMeasures.measure(frame: frame, faces: faces, thresholds: thresholds)
            return (GuidanceRules.activeCodes(metrics, thresholds: thresholds), faces.first.map(FaceMeasures.faceBox))
        }
        for (width, height) in [(640, 480), (1280, 720)] {
            for (scale, primary) in [(0.8, GuidanceCode.ready), (0.3, .moveCloser)] {
                let picture = Self.facePicture(photo, width: width, height: height, scale: scale)
                let (reference, camera, _) = try readThrough(
                    CV4L2_PIX_FMT_YUYV, picture: picture, width: width,
                    height: height)
                camera.close()
                let expected = try analyse(reference)
                let at = "\(width)×\(height), scale \(scale)"
                XCTAssertEqual(expected.codes.min() ?? .ready, primary, "YUYV at \(at): \(expected.codes)")
                let box = try XCTUnwrap(expected.box, "the photo's face is found through YUYV at \(at)")
                for (fourcc, name) in Self.guidanceFormats.dropFirst() {
                    let (frame, camera, _) = try readThrough(fourcc, picture: picture, width: width, height: height)
                    camera.close()
                    let found = try analyse(frame)
                    XCTAssertEqual(found.codes, expected.codes, "\(name) at \(at)")
                    XCTAssertEqual(found.codes.min() ?? .ready, primary, "\(name) at \(at)")
                    let other = try XCTUnwrap(found.box, "\(name) at \(at)")
                    let tolerance: Float = fourcc == CV4L2_PIX_FMT_MJPEG ? 2 : 1.5
                    for (a, b) in [
                        (other.x, box.x), (other.y, box.y), (other.width, box.width),
                        (other.height, box.height),
                    ] {
                        XCTAssertEqual(a, b, accuracy: tolerance, "\(name) at \(at): face box \(other) against \(box)")
                    }
                }
            }
        }
    }
}
