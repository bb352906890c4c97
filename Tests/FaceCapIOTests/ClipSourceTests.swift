import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// A clock that only moves when the code under test sleeps or the test advances it.
final class ManualClock: MonotonicClock {
    var time = 100.0
    var sleeps: [Double] = []
    func now() -> Double { time }
    func sleep(_ seconds: Double) {
        sleeps.append(seconds)
        time += max(0, seconds)
    }
}

/// Clip replay as a frame source: pacing, looping, the end of the clip, broken clips, buffer reuse.
final class ClipSourceTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUpWithError() throws { temp = try TemporaryDirectory() }
    override func tearDown() { temp.remove() }

    /// A 4×2 grey clip at `fps` whose frame i is filled with the value i + 1.
    func makeClip(frames: Int, fps: Double = 10, cutLastFrameBy cut: Int = 0) throws -> String {
        let path = temp.path("clip.y4m")
        let writer = try Y4MFileWriter(
            path: path, width: 4, height: 2, format: .gray, frameRate: fps, colorRange: .full)
        for i in 0..<frames {
            try writer.write(
                Frame(
                    format: .gray, width: 4, height: 2, colorRange: .full,
                    data: [UInt8](repeating: UInt8(i + 1), count: 8)))
        }
        try writer.close()
        if cut > 0 {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.prefix(data.count - cut).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    func testUnpacedReplayDeliversEveryFrameThenEnds() throws {
        let path = try makeClip(frames: 3)
        let source = try ClipSource(path: path, pacing: .unpaced)
        XCTAssertEqual([source.width, source.height], [4, 2])
        XCTAssertEqual(source.format, .gray)
        XCTAssertEqual(source.frameRate, 10)
        XCTAssertEqual(source.label, "\(path) (clip, Cmono 4×2 @ 10 fps)")
        var frame = Frame.empty()
        for i in 0..<3 {
            XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
            XCTAssertEqual(frame.data, [UInt8](repeating: UInt8(i + 1), count: 8))
            XCTAssertEqual(frame.timestamp, Double(i) / 10, accuracy: 1e-9)
        }
        XCTAssertThrowsError(try source.nextFrame(into: &frame, timeout: 1)) { error in
            guard let ended = (error as? FrameSourceError)?.clipEnded else { return XCTFail("\(error)") }
            XCTAssertEqual(ended, ClipEndedError(path: path, framesPlayed: 3, lastFrameTruncated: false))
            XCTAssertEqual(ended.exitCode, .failure)
            XCTAssertEqual(
                ended.message, "\(path): the clip ended after 3 frames; use --loop to replay it continuously")
        }
        source.close()
        source.close()
    }

    func testLoopRestartsWithIncreasingTimestamps() throws {
        let source = try ClipSource(path: try makeClip(frames: 2), loop: true, pacing: .unpaced)
        var frame = Frame.empty()
        var values: [UInt8] = []
        var times: [Double] = []
        for _ in 0..<5 {
            XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
            values.append(frame.data[0])
            times.append(frame.timestamp)
        }
        XCTAssertEqual(values, [1, 2, 1, 2, 1])
        XCTAssertEqual(times, [0, 0.1, 0.2, 0.3, 0.4].map { $0 }, "timestamps continue across loops")
        XCTAssertEqual(source.framesDelivered, 5)
    }

    func testRealTimePacingFollowsTheClipRate() throws {
        let clock = ManualClock()
        let source = try ClipSource(path: try makeClip(frames: 4, fps: 10), pacing: .realTime(clock))
        var frame = Frame.empty()
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(clock.sleeps, [], "the first frame comes at once")
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(clock.sleeps.last ?? 0, 0.1, accuracy: 1e-9)
        // A short timeout: the frame is not due yet.
        clock.sleeps = []
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 0.03), .noFrameYet)
        XCTAssertEqual(clock.sleeps, [0.03])
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(clock.sleeps.last ?? 0, 0.07, accuracy: 1e-9)
        XCTAssertEqual(frame.data[0], 3)
        XCTAssertEqual(clock.time, 100.2, accuracy: 1e-9)
    }

    func testSecondsUntilNextFrameAndAZeroTimeoutNeverSleeps() throws {
        let clock = ManualClock()
        let source = try ClipSource(path: try makeClip(frames: 4, fps: 10), pacing: .realTime(clock))
        XCTAssertNil(source.pollDescriptor, "a clip has nothing to poll")
        XCTAssertEqual(source.secondsUntilNextFrame, 0, "the first frame is due at once")
        var frame = Frame.empty()
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 0), .frame)
        XCTAssertEqual(try XCTUnwrap(source.secondsUntilNextFrame), 0.1, accuracy: 1e-9)
        clock.time += 0.04
        XCTAssertEqual(try XCTUnwrap(source.secondsUntilNextFrame), 0.06, accuracy: 1e-9)
        // A run loop's call: the frame is not due, so it returns at once without touching the clock.
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 0), .noFrameYet)
        XCTAssertEqual(clock.sleeps, [])
        XCTAssertEqual(clock.time, 100.04, accuracy: 1e-9)
        clock.time += 0.06
        XCTAssertEqual(source.secondsUntilNextFrame, 0)
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 0), .frame)
        XCTAssertEqual(frame.data[0], 2)
        XCTAssertEqual(clock.sleeps, [], "a due frame needs no sleep")
        // Late by more than a period: due now (the schedule restarts from the late frame, no burst).
        clock.time += 1
        XCTAssertEqual(source.secondsUntilNextFrame, 0)
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 0), .frame)
        XCTAssertEqual(try XCTUnwrap(source.secondsUntilNextFrame), 0.1, accuracy: 1e-9)

        let unpaced = try ClipSource(path: try makeClip(frames: 2), pacing: .unpaced)
        XCTAssertEqual(unpaced.secondsUntilNextFrame, 0)
        XCTAssertEqual(try unpaced.nextFrame(into: &frame, timeout: 0), .frame)
        XCTAssertEqual(unpaced.secondsUntilNextFrame, 0)
    }

    func testASlowConsumerGetsNoBurst() throws {
        let clock = ManualClock()
        let source = try ClipSource(path: try makeClip(frames: 4, fps: 10), pacing: .realTime(clock))
        var frame = Frame.empty()
        _ = try source.nextFrame(into: &frame, timeout: 1)
        clock.time += 1  // the consumer stalls for a second
        clock.sleeps = []
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(clock.sleeps, [], "the late frame comes at once")
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(clock.sleeps.last ?? 0, 0.1, accuracy: 1e-9, "then the clip rate again, not a burst")
    }

    func testTruncatedLastFrameEndsTheClipAfterTheWholeOnes() throws {
        let path = try makeClip(frames: 3, cutLastFrameBy: 3)
        let source = try ClipSource(path: path, pacing: .unpaced)
        var frame = Frame.empty()
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertEqual(try source.nextFrame(into: &frame, timeout: 1), .frame)
        XCTAssertThrowsError(try source.nextFrame(into: &frame, timeout: 1)) { error in
            XCTAssertEqual(
                (error as? FrameSourceError)?.clipEnded,
                ClipEndedError(path: path, framesPlayed: 2, lastFrameTruncated: true))
            XCTAssertTrue((error as? FrameSourceError)?.message.contains("its last frame is incomplete") ?? false)
        }
        let looped = try ClipSource(path: path, loop: true, pacing: .unpaced)
        let values = try (0..<5).map { _ -> UInt8 in
            _ = try looped.nextFrame(into: &frame, timeout: 1)
            return frame.data[0]
        }
        XCTAssertEqual(values, [1, 2, 1, 2, 1])
    }

    func testClipsWithoutFramesAndBrokenClips() throws {
        let empty = try makeClip(frames: 0)
        for loop in [false, true] {
            let source = try ClipSource(path: empty, loop: loop, pacing: .unpaced)
            var frame = Frame.empty()
            XCTAssertThrowsError(try source.nextFrame(into: &frame, timeout: 1)) { error in
                let expected = InputFileError(
                    path: empty, problem: .data(.malformed(.noFrames)))
                XCTAssertEqual(error as? FrameSourceError, .unreadable(expected))
            }
        }
        let cutFirst = try makeClip(frames: 1, cutLastFrameBy: 2)
        let source = try ClipSource(path: cutFirst, loop: true, pacing: .unpaced)
        var frame = Frame.empty()
        XCTAssertThrowsError(try source.nextFrame(into: &frame, timeout: 1)) { error in
            XCTAssertEqual(
                error as? FrameSourceError,
                .unreadable(
                    InputFileError(
                        path: cutFirst, problem: .data(.truncated(.frameBytes(frame: 0, present: 6, expected: 8))))))
        }
        XCTAssertThrowsError(try ClipSource(path: temp.path("none.y4m"))) { error in
            XCTAssertEqual((error as? InputFileError)?.exitCode, .noInput)
        }
    }

    func testFrameStorageIsReusedFromFrameToFrame() throws {
        let path = temp.path("big.y4m")
        let writer = try Y4MFileWriter(
            path: path, width: 320, height: 240, format: .yuv420p, frameRate: 30,
            colorRange: .limited)
        for i in 0..<3 {
            try writer.write(
                Frame(
                    format: .yuv420p, width: 320, height: 240,
                    data: [UInt8](repeating: UInt8(i), count: 320 * 240 * 3 / 2)))
        }
        try writer.close()
        let source = try ClipSource(path: path, loop: true, pacing: .unpaced)
        var frame = Frame.empty()
        _ = try source.nextFrame(into: &frame, timeout: 1)
        let storage = frame.data.withUnsafeBufferPointer { $0.baseAddress }
        for _ in 0..<7 {
            _ = try source.nextFrame(into: &frame, timeout: 1)
            XCTAssertEqual(frame.data.withUnsafeBufferPointer { $0.baseAddress }, storage)
        }
        XCTAssertEqual(frame.format, .yuv420p)
        XCTAssertEqual(frame.colorRange, .limited)
    }
}
