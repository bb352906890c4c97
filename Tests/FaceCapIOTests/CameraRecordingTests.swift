import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// `recordClip` from the fake camera into a real Y4M file: duration, unplug mid-recording, stop signals.
final class CameraRecordingTests: XCTestCase {
    let path = "/dev/fake-video0"
    var fakes: [FakeV4L2Device] = []
    var output = ""

    override func setUp() {
        output = NSTemporaryDirectory() + "facecap-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).y4m"
    }

    override func tearDown() {
        unlink(output)
    }

    func camera(
        _ script: [FakeV4L2Device.Event],
        node: FakeV4L2Device.Node = .webcam
    ) throws -> (Camera, FakeV4L2Device) {
        let fake = FakeV4L2Device(nodes: [path: node], script: script)
        fakes.append(fake)
        return (try Camera(path: path, ops: fake.ops), fake)
    }

    func frames(at times: [Double]) -> [FakeV4L2Device.Event] {
        times.enumerated().map { .frame(FakeV4L2Device.FrameSpec(fill: UInt8(16 + $0.offset), time: $0.element)) }
    }

    func writer(for camera: Camera) throws -> Y4MFileWriter {
        try Y4MFileWriter(
            path: output, width: camera.width, height: camera.height, format: camera.format,
            frameRate: camera.frameRate, colorRange: camera.colorRange)
    }

    /// The frames in the recorded file, read back with the clip reader.
    func readBack() throws -> (Y4MHeader, [Frame]) {
        let reader = try Y4MFileReader(path: output)
        var frames: [Frame] = []
        var frame = Frame(format: .gray, width: 1, height: 1, data: [])
        while try reader.readFrame(into: &frame) { frames.append(frame) }
        return (reader.header, frames)
    }

    func testRecordsFramesUntilTheDurationInSourceTime() throws {
        let (camera, fake) = try camera(frames(at: [0.05, 0.1, 0.2, 0.3, 0.4, 0.55, 0.6]))
        let clip = try writer(for: camera)
        let summary = try recordClip(from: camera, to: clip, seconds: 0.5, stopRequested: { 0 })
        try clip.close()
        camera.close()
        XCTAssertEqual(summary.stop, .finished)
        XCTAssertEqual(summary.framesWritten, 5)
        XCTAssertEqual(fake.userOwnedAtStreamOff, 0)

        let (header, recorded) = try readBack()
        XCTAssertEqual(header.width, 640)
        XCTAssertEqual(header.height, 480)
        XCTAssertEqual(header.pixelFormat, .yuv422p, "YUYV is stored as planar 4:2:2")
        XCTAssertEqual(header.frameRate.value, 30)
        XCTAssertEqual(recorded.count, 5)
        XCTAssertEqual(recorded.map { $0.data[0] }, [16, 17, 18, 19, 20], "each frame's own pixels, in order")
        XCTAssertEqual(
            summary.report(camera: camera, output: "clip.y4m"),
            "wrote 5 frames (0.2 s at 30 fps,"
                + " 640x480 YUYV) to clip.y4m; dropped 0 damaged frames (0 flagged, 0 short),"
                + " the driver skipped 0")
        var info = stat()
        XCTAssertEqual(stat(output, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "a clip of a face is private")
    }

    func testTheLengthCountsFromTheFirstFrameNotFromStreamStart() throws {
        let (camera, _) = try camera(frames(at: [1.0, 1.1, 1.2, 1.3, 1.4]))
        let clip = try writer(for: camera)
        let summary = try recordClip(from: camera, to: clip, seconds: 0.25, stopRequested: { 0 })
        try clip.close()
        XCTAssertEqual(summary.stop, .finished)
        XCTAssertEqual(summary.framesWritten, 3)
    }

    func testTheReportCountsDamagedAndSkippedFrames() throws {
        let (camera, _) = try camera([
            .frame(FakeV4L2Device.FrameSpec(time: 0.05, sequence: 0)),
            .frame(FakeV4L2Device.FrameSpec(errorFlag: true, time: 0.08, sequence: 1)),
            .frame(FakeV4L2Device.FrameSpec(time: 0.1, sequence: 4)),
            .frame(FakeV4L2Device.FrameSpec(time: 0.9, sequence: 5)),
        ])
        let clip = try writer(for: camera)
        let summary = try recordClip(from: camera, to: clip, seconds: 0.5, stopRequested: { 0 })
        try clip.close()
        XCTAssertEqual(
            summary.report(camera: camera, output: "c.y4m"),
            "wrote 2 frames (0.1 s at 30 fps, 640x480"
                + " YUYV) to c.y4m; dropped 1 damaged frame (1 flagged, 0 short), the driver skipped 2")
        let none = RecordingSummary(framesWritten: 0, stop: .finished)
        XCTAssertTrue(none.report(camera: camera, output: "c.y4m").hasPrefix("no frames recorded; c.y4m not written"))
    }

    func testAnUnplugMidRecordingKeepsTheWholeFramesSoFar() throws {
        let (camera, fake) = try camera(frames(at: [0.05, 0.1, 0.15]) + [.disconnect])
        let clip = try writer(for: camera)
        let summary = try recordClip(from: camera, to: clip, seconds: 10, stopRequested: { 0 })
        try clip.close()
        XCTAssertEqual(summary.stop, .sourceFailed)
        XCTAssertEqual(summary.error, .camera(.disconnected(path: path)))
        XCTAssertEqual(summary.framesWritten, 3)
        XCTAssertTrue(fake.openFds.isEmpty, "the camera released itself on the error")
        let (_, recorded) = try readBack()
        XCTAssertEqual(recorded.count, 3)
    }

    func testAStopSignalEndsTheRecordingBetweenFrames() throws {
        let (camera, _) = try camera(frames(at: [0.05, 0.1, 0.15, 0.2]))
        let clip = try writer(for: camera)
        var checks = 0
        let summary = try recordClip(
            from: camera, to: clip, seconds: 10,
            stopRequested: {
                checks += 1
                return checks > 2 ? SIGINT : 0
            })
        try clip.close()
        XCTAssertEqual(summary.stop, .signal(SIGINT))
        XCTAssertEqual(summary.framesWritten, 2)
        XCTAssertTrue(summary.report(camera: camera, output: "x").hasSuffix("; stopped early"))
        XCTAssertEqual(try readBack().1.count, 2)
    }

    func testRecordsTheRGB24OfACameraLibv4l2Converts() throws {
        let node = FakeV4L2Device.Node(formats: [.uyvy, .emulatedRGB])
        let (camera, _) = try camera(frames(at: [0.05, 0.1, 0.2]), node: node)
        let clip = try writer(for: camera)
        let summary = try recordClip(from: camera, to: clip, seconds: 0.12, stopRequested: { 0 })
        try clip.close()
        XCTAssertEqual(summary.framesWritten, 2)
        let (header, recorded) = try readBack()
        XCTAssertEqual(header.pixelFormat, .yuv444p)
        XCTAssertEqual(recorded.count, 2)
    }

    func testStopSignalsSetTheFlagAndInterruptAWait() throws {
        StopSignals.install()
        defer {
            Signals.restoreDefaults()
            _ = Signals.drain()
            StopSignals.reset()
        }
        XCTAssertEqual(StopSignals.received, 0)
        raise(SIGTERM)
        XCTAssertEqual(StopSignals.received, SIGTERM)
        StopSignals.reset()
        XCTAssertEqual(StopSignals.received, 0)
        raise(SIGINT)
        XCTAssertEqual(StopSignals.received, SIGINT)
    }
}
