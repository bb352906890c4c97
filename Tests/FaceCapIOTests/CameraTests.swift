import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// The camera against a scripted fake device: negotiation, streaming, every fault of SPEC §9, and the
/// release order (STREAMOFF, then munmap, then close) on every path.
final class CameraTests: XCTestCase {
    let path = "/dev/fake-video0"
    /// The ops table points at its fake without retaining it: the test case keeps every fake alive
    /// until the cameras using it are gone.
    var fakes: [FakeV4L2Device] = []

    func makeFake(_ node: FakeV4L2Device.Node = .webcam, script: [FakeV4L2Device.Event] = []) -> FakeV4L2Device {
        keep(FakeV4L2Device(nodes: [path: node], script: script))
    }

    func keep(_ fake: FakeV4L2Device) -> FakeV4L2Device {
        fakes.append(fake)
        return fake
    }

    func frames(_ count: Int, fill: UInt8 = 0x80) -> [FakeV4L2Device.Event] {
        Array(repeating: .frame(FakeV4L2Device.FrameSpec(fill: fill)), count: count)
    }

    func emptyFrame() -> Frame { Frame(format: .gray, width: 1, height: 1, data: []) }

    /// Reads `camera` with `timeout` (then `pause` µs) until a read throws or `seconds` pass: the camera error it
    /// threw (nil for none), and what the reads before it returned.
    func readUntilError(
        _ camera: Camera, _ frame: inout Frame, timeout: Double, pause: UInt32 = 0,
        within seconds: Double
    ) -> (error: CameraError?, results: [FrameReadResult]) {
        var results: [FrameReadResult] = []
        let start = SystemClock().now()
        while SystemClock().now() - start < seconds {
            do { results.append(try camera.nextFrame(into: &frame, timeout: timeout)) } catch {
                return (error.camera, results)
            }
            if pause > 0 { usleep(pause) }
        }
        return (nil, results)
    }

    /// After the last open: STREAMOFF (when buffers were requested), every mapped buffer unmapped, then close.
    func assertReleasedInOrder(
        _ fake: FakeV4L2Device, streamed: Bool, mapped: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let lastOpen = fake.log.lastIndex { $0.hasPrefix("open ") } ?? 0
        let closing = fake.log[lastOpen...]
            .filter { $0.hasPrefix("STREAMOFF") || $0.hasPrefix("munmap") || $0 == "close" }
        var expected = streamed ? ["STREAMOFF"] : []
        expected += Array(repeating: "munmap", count: mapped) + ["close"]
        XCTAssertEqual(closing.map { $0.components(separatedBy: " ")[0] }, expected, file: file, line: line)
        XCTAssertTrue(fake.openFds.isEmpty, "device left open", file: file, line: line)
        XCTAssertFalse(fake.buffers.contains { $0.mapped }, "buffer left mapped", file: file, line: line)
    }

    func testStreamsYUYVAtTheRequestedModeAndReleasesInOrder() throws {
        let fake = makeFake(script: frames(3, fill: 0x42))
        let camera = try Camera(path: path, ops: fake.ops)
        XCTAssertEqual(camera.format, .yuyv)
        XCTAssertEqual(camera.width, 640)
        XCTAssertEqual(camera.height, 480)
        XCTAssertEqual(camera.frameRate, 30)
        XCTAssertEqual(camera.colorRange, .limited)
        XCTAssertFalse(camera.wasSizeAdjusted)
        XCTAssertFalse(camera.isConverted)
        XCTAssertEqual(camera.card, "Fake Camera")
        XCTAssertEqual(camera.label, "\(path) (Fake Camera, YUYV 640×480 @ 30 fps)")
        XCTAssertEqual(fake.lastRequestedFourcc, CV4L2_PIX_FMT_YUYV)
        XCTAssertEqual(fake.buffers.count, 4)
        XCTAssertEqual(fake.events("mmap").count, 4)

        var frame = emptyFrame()
        for _ in 0..<3 {
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            XCTAssertEqual(frame.format, .yuyv)
            XCTAssertEqual(frame.width, 640)
            XCTAssertEqual(frame.height, 480)
            XCTAssertEqual(frame.data.count, 640 * 480 * 2)
            XCTAssertTrue(frame.data.allSatisfy { $0 == 0x42 })
        }
        XCTAssertEqual(camera.statistics.framesDelivered, 3)
        XCTAssertEqual(camera.statistics.dropped, 0)
        XCTAssertEqual(fake.maxUserOwned, 1, "one buffer at a time leaves the queue")
        camera.close()
        camera.close()
        XCTAssertEqual(fake.userOwnedAtStreamOff, 0, "every dequeued buffer went back")
        XCTAssertEqual(fake.dequeued, 3)
        XCTAssertEqual(fake.requeued, 3)
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 0.1)) { error in
            XCTAssertEqual((error as? FrameSourceError)?.camera, .closed(path: path))
        }
    }

    func testPollDescriptorIsTheStreamingDescriptorUntilClose() throws {
        let fake = makeFake(script: frames(1))
        let camera = try Camera(path: path, ops: fake.ops)
        let fd = try XCTUnwrap(camera.pollDescriptor)
        XCTAssertEqual(fake.openFds[fd], path, "the descriptor the device was opened as")
        XCTAssertEqual(fake.openFds.count, 1)
        XCTAssertNil(camera.secondsUntilNextFrame, "a camera is paced by its descriptor")
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .frame)
        XCTAssertEqual(camera.pollDescriptor, fd)
        camera.close()
        XCTAssertNil(camera.pollDescriptor, "nothing to poll once closed")
        XCTAssertTrue(fake.openFds.isEmpty)
    }

    func testOddTimeoutsDoNotCrash() throws {
        let fake = makeFake(script: frames(3))
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        for timeout in [Double.nan, -1, .infinity] {
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: timeout), .frame)
        }
    }

    func testReusesTheCallersFrameStorage() throws {
        let fake = makeFake(script: frames(4))
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        _ = try camera.nextFrame(into: &frame, timeout: 1)
        let first = frame.data.withUnsafeBufferPointer { $0.baseAddress }
        for _ in 0..<3 {
            _ = try camera.nextFrame(into: &frame, timeout: 1)
            XCTAssertEqual(frame.data.withUnsafeBufferPointer { $0.baseAddress }, first)
        }
    }

    func testSkipStaleFramesDeliversTheNewestWaitingFrame() throws {
        let waiting: [FakeV4L2Device.Event] = [1, 2, 3].map {
            .frame(FakeV4L2Device.FrameSpec(fill: $0, time: 0.1 * Double($0)))
        }
        var configuration = CameraConfiguration()
        configuration.skipStaleFrames = true
        let fake = makeFake(script: waiting + [.pollTimeout] + frames(1, fill: 9))
        let camera = try Camera(path: path, configuration: configuration, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertTrue(frame.data.allSatisfy { $0 == 3 }, "the newest of the three waiting frames")
        XCTAssertEqual(frame.timestamp, 0.3, accuracy: 0.02)
        XCTAssertEqual(camera.statistics.staleFramesSkipped, 2)
        XCTAssertEqual(camera.statistics.framesDelivered, 3)
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertTrue(frame.data.allSatisfy { $0 == 9 })
        camera.close()
        XCTAssertEqual(fake.userOwnedAtStreamOff, 0)
        XCTAssertEqual(fake.requeued, fake.dequeued)

        // Without it, every frame comes in order.
        let inOrder = makeFake(script: waiting)
        let recorder = try Camera(path: path, ops: inOrder.ops)
        for fill: UInt8 in [1, 2, 3] {
            XCTAssertEqual(try recorder.nextFrame(into: &frame, timeout: 1), .frame)
            XCTAssertEqual(frame.data[0], fill)
        }
    }

    func testAcceptsTheDriverAdjustedSizeAndFrameRate() throws {
        let fake = makeFake(script: frames(1))
        var configuration = CameraConfiguration(width: 800, height: 600, frameRate: 20)
        configuration.bufferCount = 4
        let camera = try Camera(path: path, configuration: configuration, ops: fake.ops)
        XCTAssertEqual(fake.lastRequestedSize?.width, 800)
        XCTAssertEqual(camera.width, 640)
        XCTAssertEqual(camera.height, 480)
        XCTAssertTrue(camera.wasSizeAdjusted)
        XCTAssertEqual(camera.requestedWidth, 800)
        XCTAssertEqual(camera.frameRate, 15, "the driver's nearest rate to 20 fps")
        XCTAssertEqual(fake.lastTimePerFrame?.denominator, 15)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.width, 640)
        XCTAssertEqual(frame.data.count, 640 * 480 * 2)
    }

    func testSkipsSettingTheRateWithoutTimePerFrame() throws {
        var node = FakeV4L2Device.Node.webcam
        node.timePerFrame = false
        let fake = makeFake(node)
        let camera = try Camera(path: path, configuration: CameraConfiguration(frameRate: 15), ops: fake.ops)
        XCTAssertNil(fake.lastTimePerFrame, "no S_PARM without V4L2_CAP_TIMEPERFRAME")
        XCTAssertEqual(camera.frameRate, 30, "the rate G_PARM reports")
    }

    func testAFormatFacecapDoesNotReadStreamsRGB24ConvertedByLibv4l2() throws {
        let fake = makeFake(FakeV4L2Device.Node(formats: [.uyvy, .emulatedRGB]), script: frames(1, fill: 9))
        let camera = try Camera(path: path, ops: fake.ops)
        XCTAssertEqual(fake.lastRequestedFourcc, CV4L2_PIX_FMT_RGB24)
        XCTAssertEqual(camera.format, .rgb24)
        XCTAssertTrue(camera.isConverted)
        XCTAssertEqual(camera.colorRange, .full)
        XCTAssertTrue(camera.label.contains("RGB24 via libv4l2"))
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.format, .rgb24)
        XCTAssertEqual(frame.data.count, 640 * 480 * 3)
        XCTAssertTrue(frame.data.allSatisfy { $0 == 9 })
    }

    func testFallsBackToRGB24WhenTheDriverRefusesYUYVAtS_FMT() throws {
        // The camera lists YUYV, but S_FMT answers with UYVY: libv4l2's RGB24 is asked for instead.
        var node = FakeV4L2Device.Node(formats: [.uyvy, .yuyv, .emulatedRGB])
        node.refusedFourcc = CV4L2_PIX_FMT_YUYV
        let fake = makeFake(node)
        let camera = try Camera(path: path, ops: fake.ops)
        XCTAssertEqual(fake.events("S_FMT").count, 2)
        XCTAssertEqual(camera.format, .rgb24)
        XCTAssertTrue(camera.isConverted)
    }

    func testACameraWithNoReadableFormatIsAClearError() {
        let fake = makeFake(FakeV4L2Device.Node(formats: [.uyvy]))
        XCTAssertThrowsError(try Camera(path: path, ops: fake.ops)) { error in
            XCTAssertEqual(error as? CameraError, .unsupportedFormat(path: path, offered: ["UYVY"]))
            XCTAssertEqual((error as? CameraError)?.exitCode, .noCamera)
            XCTAssertTrue((error as? CameraError)?.message.contains("offers no picture format") ?? false)
        }
        XCTAssertTrue(fake.openFds.isEmpty)
    }

    func testRemovesRowPadding() throws {
        var node = FakeV4L2Device.Node.webcam
        node.rowPadding = 64
        let fake = makeFake(node, script: [.frame(FakeV4L2Device.FrameSpec(rowPattern: true))])
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(frame.data.count, 640 * 480 * 2)
        XCTAssertFalse(frame.data.contains(0xEE), "padding bytes must not reach the frame")
        for row in [0, 1, 199, 200, 479] {
            XCTAssertEqual(frame.data[row * 1280], UInt8(row % 200))
            XCTAssertEqual(frame.data[row * 1280 + 1279], UInt8(row % 200))
        }
    }

    func testTimestampsCountFromStreamStartAndTheFirstHalfSecondIsWarmUp() throws {
        let times = [0.1, 0.4, 0.6, 1.5]
        let fake = makeFake(script: times.map { .frame(FakeV4L2Device.FrameSpec(time: $0)) })
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        var seen: [(Double, Bool)] = []
        for _ in times {
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            seen.append((frame.timestamp, frame.isWarmUp))
        }
        for (index, time) in times.enumerated() {
            XCTAssertEqual(seen[index].0, time, accuracy: 0.02)
        }
        XCTAssertEqual(seen.map(\.1), [true, true, false, false])
    }

    func testTimestampsNeverGoBackwards() throws {
        // A driver whose clock steps back (or that mixes stamped and unstamped buffers) must not hand the
        // analysis a negative time step.
        let times = [0.3, 0.2, 0.25, 0.6]
        let fake = makeFake(script: times.map { .frame(FakeV4L2Device.FrameSpec(time: $0)) })
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        var seen: [Double] = []
        for _ in times {
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            seen.append(frame.timestamp)
        }
        XCTAssertEqual(seen[0], 0.3, accuracy: 0.02)
        XCTAssertEqual(seen[3], 0.6, accuracy: 0.02)
        for index in 1..<seen.count {
            XCTAssertGreaterThanOrEqual(seen[index], seen[index - 1], "frame \(index) went back in time: \(seen)")
        }
    }

    func testFlaggedAndShortBuffersAreDroppedCountedAndRequeued() throws {
        let fake = makeFake(script: [
            .frame(FakeV4L2Device.FrameSpec(fill: 1, errorFlag: true)),
            .frame(FakeV4L2Device.FrameSpec(fill: 2, bytesUsed: 1000)),
            .frame(FakeV4L2Device.FrameSpec(fill: 3, bytesUsed: 0)),
            .frame(FakeV4L2Device.FrameSpec(fill: 4)),
        ])
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertTrue(frame.data.allSatisfy { $0 == 4 }, "only the good frame is passed on")
        XCTAssertEqual(camera.statistics.droppedErrorFlag, 1)
        XCTAssertEqual(camera.statistics.droppedBadSize, 2)
        XCTAssertEqual(camera.statistics.dropped, 3)
        XCTAssertEqual(camera.statistics.framesDelivered, 1)
        XCTAssertEqual(fake.dequeued, 4)
        XCTAssertEqual(fake.requeued, 4, "dropped buffers go back to the driver too")
        camera.close()
        XCTAssertEqual(fake.userOwnedAtStreamOff, 0)
    }

    func testDriverSkippedFramesAreCountedApartFromDamagedOnes() throws {
        let fake = makeFake(script: [
            .frame(FakeV4L2Device.FrameSpec(sequence: 0)), .frame(FakeV4L2Device.FrameSpec(sequence: 1)),
            .frame(FakeV4L2Device.FrameSpec(errorFlag: true, sequence: 2)),
            .frame(FakeV4L2Device.FrameSpec(sequence: 3)),
            .frame(FakeV4L2Device.FrameSpec(sequence: 7)),
        ])
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        for _ in 0..<4 { _ = try camera.nextFrame(into: &frame, timeout: 1) }
        XCTAssertEqual(camera.statistics.skippedByDriver, 3, "4, 5 and 6 never came")
        XCTAssertEqual(camera.statistics.droppedErrorFlag, 1, "2 came damaged: dropped, not skipped")
    }

    func testEAGAINIsNoFrameYetAndEINTRIsRetried() throws {
        let fake = makeFake(script: [
            .dqbufError(EAGAIN), .pollInterrupted, .dqbufError(EINTR),
            .frame(FakeV4L2Device.FrameSpec(fill: 5)),
        ])
        fake.ioctlErrors[CV4L2_VIDIOC_S_FMT] = [EINTR]
        let camera = try Camera(path: path, ops: fake.ops)
        XCTAssertEqual(fake.events("S_FMT").count, 2, "S_FMT retried after EINTR")
        var frame = emptyFrame()
        let start = SystemClock().now()
        // EAGAIN: keep waiting; a signal (EINTR at poll) hands control back at once so callers can check flags.
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 5), .noFrameYet)
        // Well short of the 5-s timeout it would otherwise wait out; the margin is for a loaded machine.
        XCTAssertLessThan(SystemClock().now() - start, 4)
        XCTAssertEqual(camera.statistics.wouldBlock, 1)
        XCTAssertEqual(camera.statistics.interrupted, 1)
        // EINTR at DQBUF: retried within the same call.
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 5), .frame)
        XCTAssertTrue(frame.data.allSatisfy { $0 == 5 })
    }

    func testEIOIsRetriedThenGivesUpAfterFiveInARow() throws {
        let fake = makeFake(
            script: [.dqbufError(EIO), .dqbufError(EIO), .frame(FakeV4L2Device.FrameSpec())]
                + Array(repeating: .dqbufError(EIO), count: 5))
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame, "two EIOs are retried")
        XCTAssertEqual(camera.statistics.ioErrors, 2)
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 1)) { error in
            XCTAssertEqual((error as? FrameSourceError)?.camera, .ioError(path: path, attempts: 5))
            XCTAssertEqual(((error as? FrameSourceError)?.camera)?.exitCode, .failure)
            XCTAssertTrue(((error as? FrameSourceError)?.camera)?.message.contains("5 times in a row") ?? false)
        }
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 1)) { error in
            XCTAssertEqual(
                (error as? FrameSourceError)?.camera, .ioError(path: path, attempts: 5), "the same error again")
        }
    }

    func testABufferLostInAnEIOIsQueuedAgain() throws {
        let fake = makeFake(script: [.dqbufErrorLosingBuffer, .frame(FakeV4L2Device.FrameSpec())])
        let camera = try Camera(path: path, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(camera.statistics.recoveredBuffers, 1)
        camera.close()
        XCTAssertEqual(fake.userOwnedAtStreamOff, 0)
    }

    func testUnplugMidStreamIsDisconnected() throws {
        for unplug in [FakeV4L2Device.Event.disconnect, .dqbufError(ENODEV)] {
            let fake = makeFake(script: frames(2) + [unplug])
            let camera = try Camera(path: path, ops: fake.ops)
            var frame = emptyFrame()
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
            XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 1)) { error in
                XCTAssertEqual((error as? FrameSourceError)?.camera, .disconnected(path: path))
                XCTAssertEqual(((error as? FrameSourceError)?.camera)?.exitCode, .failure)
                XCTAssertTrue(((error as? FrameSourceError)?.camera)?.message.hasPrefix("camera disconnected") ?? false)
            }
            assertReleasedInOrder(fake, streamed: true, mapped: 4)
        }
    }

    func testPollTimeoutsAreNoFrameYetUntilTheStallTimeout() throws {
        let fake = makeFake(script: [.pollTimeout, .pollTimeout, .frame(FakeV4L2Device.FrameSpec())])
        var configuration = CameraConfiguration()
        configuration.stallTimeout = 0.3
        let camera = try Camera(path: path, configuration: configuration, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .noFrameYet)
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertGreaterThanOrEqual(camera.statistics.pollTimeouts, 1)
        // Now nothing more arrives: short waits report "not yet", then the stall becomes an error.
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0.02), .noFrameYet)
        let stalled = readUntilError(camera, &frame, timeout: 0.05, within: 3).error
        XCTAssertEqual(stalled, .stalled(path: path, seconds: 0.3))
        XCTAssertTrue(stalled?.message.contains("no frame from \(path) for 0.3 s") ?? false)
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
    }

    func testACallerBusyPastTheStallTimeoutIsNotToldOfAStallByADamagedBuffer() throws {
        // The wizard reads without waiting (timeout 0) and analyses in between; on a slow machine one frame's
        // analysis can outlast the stall timeout. Damaged buffers at the head of the queue then are no stall: the
        // good frame behind them is read next. A camera silent after them is stalled a stall timeout later.
        let fake = makeFake(script: [
            .frame(FakeV4L2Device.FrameSpec(fill: 1)),
            .frame(FakeV4L2Device.FrameSpec(errorFlag: true)),
            .frame(FakeV4L2Device.FrameSpec(errorFlag: true)),
            .frame(FakeV4L2Device.FrameSpec(fill: 2)),
            .frame(FakeV4L2Device.FrameSpec(errorFlag: true)),
        ])
        var configuration = CameraConfiguration()
        configuration.stallTimeout = 0.2
        let camera = try Camera(path: path, configuration: configuration, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .frame)
        usleep(300_000)  // the caller analyses
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .noFrameYet, "a damaged buffer")
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .noFrameYet, "a damaged buffer")
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .frame)
        XCTAssertTrue(frame.data.allSatisfy { $0 == 2 })
        usleep(300_000)
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .noFrameYet, "a damaged buffer")
        let damagedAt = SystemClock().now()
        let stalled = readUntilError(camera, &frame, timeout: 0.05, within: 2).error
        XCTAssertEqual(stalled, .stalled(path: path, seconds: 0.2), "then nothing: a stall")
        XCTAssertGreaterThanOrEqual(SystemClock().now() - damagedAt, 0.19)
        XCTAssertEqual(camera.statistics.droppedErrorFlag, 3)
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
    }

    func testACameraSendingOnlyDamagedBuffersIsStalled() throws {
        // Read as the wizard reads (timeout 0, whenever the camera is readable): damaged buffers keep coming, but
        // past the queue's worth of them they no longer restart the stall clock.
        let fake = makeFake(
            script: frames(1)
                + Array(
                    repeating: .frame(FakeV4L2Device.FrameSpec(errorFlag: true)),
                    count: 2000))
        var configuration = CameraConfiguration()
        configuration.stallTimeout = 0.2
        let camera = try Camera(path: path, configuration: configuration, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 0), .frame)
        let start = SystemClock().now()
        let (stalled, results) = readUntilError(camera, &frame, timeout: 0, pause: 1_000, within: 3)
        XCTAssertTrue(results.allSatisfy { $0 == .noFrameYet }, "\(Set(results.map { "\($0)" }))")
        XCTAssertEqual(stalled, .stalled(path: path, seconds: 0.2))
        // Before readUntilError's own 3-s limit, which a stall clock restarted by every damaged buffer would reach;
        // the margin over the 0.2-s timeout is for a loaded machine.
        XCTAssertLessThan(SystemClock().now() - start, 2.5, "reported about a stall timeout after the frame")
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
    }

    func testALongWaitStillEndsAtTheStallTimeout() throws {
        // A caller may wait long for a frame; a camera that goes silent must still be reported after the
        // stall timeout, so no single poll may wait past it.
        let fake = makeFake(script: [.frame(FakeV4L2Device.FrameSpec())])
        var configuration = CameraConfiguration()
        configuration.stallTimeout = 0.3
        let camera = try Camera(path: path, configuration: configuration, ops: fake.ops)
        var frame = emptyFrame()
        XCTAssertEqual(try camera.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertThrowsError(try camera.nextFrame(into: &frame, timeout: 60)) { error in
            XCTAssertEqual((error as? FrameSourceError)?.camera, .stalled(path: path, seconds: 0.3))
        }
        XCTAssertLessThanOrEqual(fake.longestPollTimeout, 301, "a poll waited past the stall timeout")
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
    }

    func testPermissionDeniedNamesOwnerGroupsAndTheFix() {
        // /dev/null exists on every Linux machine, so stat has an owner and group to report.
        let fake = keep(FakeV4L2Device(nodes: ["/dev/null": .webcam]))
        fake.openErrors["/dev/null"] = EACCES
        XCTAssertThrowsError(try Camera(path: "/dev/null", ops: fake.ops)) { error in
            guard case .permissionDenied(let path, let access) = error as? CameraError else {
                return XCTFail("expected permissionDenied, got \(error)")
            }
            XCTAssertEqual(path, "/dev/null")
            XCTAssertEqual(access.owner, "root")
            XCTAssertEqual(access.mode, "crw-rw-rw-")
            XCTAssertFalse(access.userGroups.isEmpty)
            let camera = error as! CameraError
            XCTAssertEqual(camera.exitCode, .permissionDenied)
            XCTAssertTrue(camera.message.contains("cannot open /dev/null: permission denied (owner root"))
            XCTAssertTrue(camera.message.contains("sudo usermod -aG video $USER"))
            XCTAssertTrue(camera.message.contains("newgrp video"))
        }
        fake.openErrors["/dev/null"] = EPERM
        XCTAssertThrowsError(try Camera(path: "/dev/null", ops: fake.ops)) { error in
            XCTAssertEqual((error as? CameraError)?.exitCode, .permissionDenied)
        }
    }

    func testBusyAtEachStageNamesTheHolderAndReleasesInOrder() throws {
        let proc = try makeProcRoot(holders: [(4242, "cheese", path)])
        defer { try? FileManager.default.removeItem(atPath: proc) }
        let cases: [(request: UInt, streamed: Bool, mapped: Int)] = [
            (CV4L2_VIDIOC_S_FMT, false, 0), (CV4L2_VIDIOC_REQBUFS, false, 0), (CV4L2_VIDIOC_STREAMON, true, 4),
        ]
        for (request, streamed, mapped) in cases {
            let fake = makeFake()
            fake.ioctlErrors[request] = [EBUSY]
            var configuration = CameraConfiguration()
            configuration.procRoot = proc
            XCTAssertThrowsError(try Camera(path: path, configuration: configuration, ops: fake.ops)) { error in
                XCTAssertEqual(
                    error as? CameraError,
                    .busy(path: path, holders: [DeviceHolder(pid: 4242, command: "cheese")]))
                XCTAssertEqual((error as? CameraError)?.exitCode, .noCamera)
                XCTAssertTrue((error as? CameraError)?.message.contains("in use by cheese (pid 4242)") ?? false)
            }
            assertReleasedInOrder(fake, streamed: streamed, mapped: mapped)
            XCTAssertEqual(fake.userOwnedAtStreamOff ?? 0, 0)
        }
    }

    func testNoUSBBandwidthAtSTREAMONSaysToLowerTheMode() {
        let fake = makeFake()
        fake.ioctlErrors[CV4L2_VIDIOC_STREAMON] = [ENOSPC]
        XCTAssertThrowsError(try Camera(path: path, ops: fake.ops)) { error in
            XCTAssertEqual(error as? CameraError, .noBandwidth(path: path))
            XCTAssertTrue((error as? CameraError)?.message.contains("try a smaller --size or --fps") ?? false)
        }
        assertReleasedInOrder(fake, streamed: true, mapped: 4)
    }

    func testMmapFailureReleasesWhatWasMapped() {
        let fake = makeFake()
        fake.mmapError = ENOMEM
        XCTAssertThrowsError(try Camera(path: path, ops: fake.ops)) { error in
            XCTAssertEqual(error as? CameraError, .system(path: path, operation: "mmap", errno: ENOMEM))
            XCTAssertTrue((error as? CameraError)?.message.contains("mmap failed: Cannot allocate memory") ?? false)
        }
        assertReleasedInOrder(fake, streamed: true, mapped: 3)
    }

    func testMetadataNodeAndNonV4L2PathsAreNotCaptureDevices() throws {
        let fake = keep(FakeV4L2Device(nodes: [path: .metadata]))
        XCTAssertThrowsError(try Camera(path: path, ops: fake.ops)) { error in
            guard case .notCaptureDevice(_, let reason) = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, .noVideoCapture)
            XCTAssertTrue(reason.text.contains("metadata"))
        }
        assertReleasedInOrder(fake, streamed: false, mapped: 0)

        // The real libv4l2 ops on paths that are not cameras.
        XCTAssertThrowsError(try Camera(path: "/dev/null")) { error in
            XCTAssertEqual(
                error as? CameraError,
                .notCaptureDevice(path: "/dev/null", reason: .noV4L2))
            XCTAssertEqual(
                (error as? CameraError)?.message,
                "/dev/null is not a video capture device (it does not answer V4L2 requests) — run 'facecap "
                    + "devices' to list cameras")
            XCTAssertEqual((error as? CameraError)?.exitCode, .noCamera)
        }
        let file = NSTemporaryDirectory() + "facecap-not-a-camera-\(getpid())"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertThrowsError(try Camera(path: file)) { error in
            XCTAssertEqual(error as? CameraError, .notCaptureDevice(path: file, reason: .notDeviceNode))
            XCTAssertEqual(NotCaptureReason.notDeviceNode.text, "it is not a device node")
        }
        XCTAssertThrowsError(try Camera(path: NSTemporaryDirectory())) { error in
            guard case .notCaptureDevice(_, let reason) = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, .directory)
            XCTAssertEqual(reason.text, "it is a directory")
        }
        XCTAssertThrowsError(try Camera(path: "/dev/facecap-no-such-video9")) { error in
            XCTAssertEqual(error as? CameraError, .noSuchDevice(path: "/dev/facecap-no-such-video9"))
            XCTAssertTrue((error as? CameraError)?.message.contains("facecap devices") ?? false)
        }
    }
}

/// A fake /proc: PID/comm and PID/fd/N symlinks, for the busy-device scan.
func makeProcRoot(holders: [(pid: Int, command: String, target: String)]) throws -> String {
    let root = NSTemporaryDirectory() + "facecap-proc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let files = FileManager.default
    for holder in holders {
        try files.createDirectory(atPath: "\(root)/\(holder.pid)/fd", withIntermediateDirectories: true)
        try "\(holder.command)\n".write(toFile: "\(root)/\(holder.pid)/comm", atomically: false, encoding: .utf8)
        try files.createSymbolicLink(atPath: "\(root)/\(holder.pid)/fd/3", withDestinationPath: "/dev/pts/0")
        try files.createSymbolicLink(atPath: "\(root)/\(holder.pid)/fd/7", withDestinationPath: holder.target)
    }
    // A process holding something else, and entries that are not processes.
    try files.createDirectory(atPath: "\(root)/99/fd", withIntermediateDirectories: true)
    try files.createSymbolicLink(atPath: "\(root)/99/fd/0", withDestinationPath: "/dev/null")
    try files.createDirectory(atPath: "\(root)/self/fd", withIntermediateDirectories: true)
    try "x".write(toFile: "\(root)/uptime", atomically: false, encoding: .utf8)
    return root
}
