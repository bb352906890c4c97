/// Which frames of a live source the wizard analyses, and the face tracker's intervals at that rate.
///
/// The preview shows every frame the camera sends, but the face models and the analyzer read a frame only when
/// `minimumGap` or more has passed since the last one they read (by the frames' timestamps): at 30 fps every
/// other frame (15 a second), at 15–20 fps every frame, at 60 fps every third (20 a second); a camera that slows
/// down in the dark is analysed at whatever rate it sends. A change in front of the camera waits at most one
/// skipped frame (33 ms at 30 fps) longer to be analysed.
///
/// The analyzer times everything in seconds (the stability window, motion per 100 ms, each code's persistence,
/// the eye and hand memories, the manual-capture offer), so its decisions do not depend on how many frames it
/// reads. The tracker counts the frames it is given, so its intervals (`intervals`) are set from durations —
/// today's frame counts at 30 fps, when every frame was analysed — and the measured gap between analysed frames.
public struct AnalysisCadence: Sendable, Equatable {
    /// 45 ms: above a 30 fps camera's 33 ms, so it is read every other frame; below a 20 fps camera's 50 ms with
    /// room for its timestamps' jitter, so that one is read on every frame.
    public static let minimumGap = 0.045

    /// The tracker's intervals in seconds: its frame counts at 30 fps (`FaceTracker` defaults: detection every
    /// 10th frame, eyes every 3rd, or every 8th while the face is being framed, the hand every 6th, or every 12th
    /// while the face is being framed).
    static let detectionSeconds = 10.0 / 30
    static let eyeSeconds = 3.0 / 30
    static let eyeFixingSeconds = 8.0 / 30
    static let handSeconds = 6.0 / 30
    static let handFixingSeconds = 12.0 / 30

    /// The timestamp of the last frame analysed since the start or `reset`.
    public private(set) var lastAnalysed: Double?
    /// Frames skipped since the last one analysed (`skipped()`).
    public private(set) var skippedSinceAnalysed = 0
    /// The most frames skipped in a row: the number a source at its frame rate skips between two analysed frames
    /// (1 at 30 fps, 2 at 60 fps, 0 at 15-20 fps). Beyond it a frame is analysed whatever its timestamp says: a
    /// camera's timestamps are kept from going back (`Camera`), so after a driver's clock stepped back they stay
    /// at the old maximum for a while, and the analysis must not wait for the clock.
    public private(set) var maximumSkips: Int
    /// The seconds between analysed frames, smoothed (to set the intervals): at first what the source's frame
    /// rate gives, then what the frames' timestamps say.
    public private(set) var gap: Double

    /// The cadence for a source sending `frameRate` frames a second.
    public init(frameRate: Double) {
        gap = Self.expectedGap(frameRate: frameRate)
        let rate = frameRate.isFinite && frameRate > 0 ? frameRate : 30
        maximumSkips = max(0, Int((Self.minimumGap * rate).rounded(.up)) - 1)
    }

    /// The gap between analysed frames of a source at `frameRate`: the smallest whole number of its frames that
    /// spans `minimumGap` (1/15 s for an unknown rate).
    public static func expectedGap(frameRate: Double) -> Double {
        guard frameRate.isFinite, frameRate > 0 else { return 1.0 / 15 }
        return (minimumGap * frameRate).rounded(.up) / frameRate
    }

    /// Starts over (the analysis restarted): the next frame is analysed.
    public mutating func reset() {
        lastAnalysed = nil
        skippedSinceAnalysed = 0
    }

    /// Whether the frame taken at `timestamp` is to be analysed: `minimumGap` after the last one analysed, or
    /// after `maximumSkips` frames skipped in a row; the first frame after a reset, and one whose time went back (a
    /// looped clip), always.
    public func isDue(_ timestamp: Double) -> Bool {
        guard let last = lastAnalysed, timestamp >= last else { return true }
        return timestamp - last >= Self.minimumGap || skippedSinceAnalysed >= maximumSkips
    }

    /// The frame `isDue` turned down was skipped.
    public mutating func skipped() {
        skippedSinceAnalysed += 1
    }

    /// The frame taken at `timestamp` was analysed.
    public mutating func analysed(_ timestamp: Double) {
        // A pause (a camera that stalled) says nothing about the rate: gaps over a quarter second are not counted.
        if let last = lastAnalysed, timestamp > last, timestamp - last <= 0.25 {
            gap += (timestamp - last - gap) / 4
        }
        lastAnalysed = timestamp
        skippedSinceAnalysed = 0
    }

    /// The tracker's frame intervals at the current `gap`: each duration in analysed frames, rounded to the
    /// nearest (a tie, e.g. the eyes' 0.1 s at 15 Hz, goes up: fewer runs), at least 1. Rounding to the nearest
    /// keeps a jittery gap from moving an interval; at rates where a duration is under 1.5 analysed frames it
    /// reads more often than at 30 fps (a 25 fps camera, 12.5 frames analysed a second: the eyes on every one).
    public var intervals: (detection: Int, eyes: Int, eyesFixing: Int, hand: Int, handFixing: Int) {
        func frames(_ seconds: Double) -> Int { max(1, Int((seconds / gap + 0.51).rounded(.down))) }
        return (
            frames(Self.detectionSeconds), frames(Self.eyeSeconds), frames(Self.eyeFixingSeconds),
            frames(Self.handSeconds), frames(Self.handFixingSeconds)
        )
    }

    /// Sets `tracker`'s intervals for the live analysis at the current rate. The hand runs on an eye frame too
    /// when its interval is no multiple of the eyes' (15 Hz: 3 and 2), else every other run would wait a frame.
    public func apply(to tracker: FaceTracker) {
        let intervals = intervals
        tracker.detectionInterval = intervals.detection
        tracker.eyeInterval = intervals.eyes
        tracker.eyeFixingInterval = intervals.eyesFixing
        tracker.handInterval = intervals.hand
        tracker.handFixingInterval = intervals.handFixing
        // With the eyes on every frame (a rate under ~15 Hz: a 25 fps camera, a dark one at 10) no frame is without
        // them, and a hand that waited for one would never be read again (nor a capture, which waits for a hand
        // reading at or after its kept frame).
        tracker.handOnEyeFrames = intervals.eyes <= 1 || intervals.hand % intervals.eyes != 0
    }
}
