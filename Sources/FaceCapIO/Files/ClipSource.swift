import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Replays a `.y4m` clip as a `FrameSource`, at the clip's own frame rate (or as fast as asked).
///
/// Frames come out in the clip's planar format (yuv420p, yuv422p, yuv444p or gray) and are read
/// straight into the caller's `Frame`, so replay allocates nothing per frame. Timestamps are clip time
/// (frame number ÷ frame rate), still increasing across loops.
public final class ClipSource: FrameSource {
    public enum Pacing {
        /// Each frame waits for its time on `clock`; if the consumer falls behind, the schedule restarts
        /// from the late frame instead of bursting to catch up (replay slows down, as a loaded camera would).
        case realTime(any MonotonicClock)
        /// Every call delivers the next frame at once (analysis, tests).
        case unpaced
    }

    public let path: String
    public let loop: Bool
    public var width: Int { reader.header.width }
    public var height: Int { reader.header.height }
    public var format: PixelFormat { reader.header.pixelFormat }
    public var frameRate: Double { reader.header.frameRate.value }
    public var label: String {
        let rate = reader.header.frameRate
        let fps = rate.denominator == 1 ? "\(rate.numerator)" : "\((rate.value * 100).rounded() / 100)"
        let space = reader.header.colorSpace.rawValue
        return "\(path) (clip, C\(space) \(width)×\(height) @ \(fps) fps\(loop ? ", looped" : ""))"
    }
    /// The stream header of the clip.
    public var header: Y4MHeader { reader.header }
    /// Frames delivered so far, over all loops.
    public private(set) var framesDelivered = 0

    private let reader: Y4MFileReader
    private let pacing: Pacing
    private var scheduleStart: Double?
    private var scheduleFrame = 0

    /// Opens the clip; throws `InputFileError` (exit 66) when it is missing or its header is bad.
    public init(
        path: String, loop: Bool = false, pacing: Pacing = .realTime(SystemClock()),
        limits: ImageLimits = .clip
    ) throws(InputFileError) {
        self.path = path
        self.loop = loop
        self.pacing = pacing
        reader = try Y4MFileReader(path: path, limits: limits)
    }

    /// Nil: a clip has no descriptor to poll; its pace is `secondsUntilNextFrame`.
    public var pollDescriptor: Int32? { nil }

    /// Seconds until the next frame is due on the replay clock (0 when due now, and always 0 unpaced).
    public var secondsUntilNextFrame: Double? {
        guard case .realTime(let clock) = pacing, let start = scheduleStart else { return 0 }
        let due = start + Double(framesDelivered - scheduleFrame) / frameRate
        return max(0, due - clock.now())
    }

    /// Waits until the next frame is due (at most `timeout` seconds; 0 never waits) and reads it into
    /// `frame`. Throws `.clipEnded` at the end without `loop`, `.unreadable` for a broken clip.
    public func nextFrame(into frame: inout Frame, timeout: Double) throws(FrameSourceError) -> FrameReadResult {
        if case .realTime(let clock) = pacing {
            let now = clock.now()
            let period = 1 / frameRate
            let wait = timeout.isNaN ? 0 : max(0, timeout)
            if let start = scheduleStart {
                let due = start + Double(framesDelivered - scheduleFrame) * period
                if due - now > wait {
                    // Not due within the wait: a zero wait (a poll loop's call) returns without sleeping.
                    if wait > 0 { clock.sleep(wait) }
                    return .noFrameYet
                }
                if due > now {
                    clock.sleep(due - now)
                } else if now - due > period {
                    scheduleStart = now
                    scheduleFrame = framesDelivered
                }
            } else {
                scheduleStart = now
                scheduleFrame = framesDelivered
            }
        }
        try read(into: &frame)
        frame.timestamp = Double(framesDelivered) / frameRate
        framesDelivered += 1
        return .frame
    }

    /// The clip rule of `Y4MFileReader.readWholeFrame`: up to the last whole frame; no whole frame is exit 66.
    private func read(into frame: inout Frame) throws(FrameSourceError) {
        let more: Bool
        do { more = try reader.readWholeFrame(into: &frame) } catch { throw Self.unreadable(error) }
        if more { return }
        guard loop else {
            throw .clipEnded(
                ClipEndedError(
                    path: path, framesPlayed: framesDelivered,
                    lastFrameTruncated: reader.endedWithTruncatedFrame))
        }
        do throws(InputFileError) {
            try reader.rewind()
            guard try reader.readWholeFrame(into: &frame) else {
                throw InputFileError(path: path, problem: .data(.malformed(.noFrames)))
            }
        } catch {
            throw Self.unreadable(error)
        }
    }

    private static func unreadable(_ error: InputFileError) -> FrameSourceError {
        .unreadable(message: error.message, exitCode: error.exitCode)
    }

    public func close() { reader.close() }
}
