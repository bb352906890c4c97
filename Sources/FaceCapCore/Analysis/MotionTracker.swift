/// Remembers where the face was over the last fraction of a second, to tell how fast it moves.
///
/// A fixed ring of samples: no allocation per frame.
public struct MotionTracker: Sendable {
    private struct Sample { var time: Double; var x: Double; var y: Double; var width: Double }
    private static let capacity = 64
    private var samples = [Sample](repeating: Sample(time: 0, x: 0, y: 0, width: 0), count: capacity)
    private var start = 0
    private var count = 0

    public init() {}

    /// Forgets the face (it was lost, or the session restarts).
    public mutating func reset() { count = 0 }

    /// Adds the face box centre (frame widths/heights) and width (frame widths) seen at `time`, and
    /// returns the motion over at least `lookBack` seconds, or nil until that much history exists.
    public mutating func update(
        time: Double, centreX: Double, centreY: Double, width: Double,
        frameAspect: Double, lookBack: Double
    ) -> MotionMetrics? {
        if count > 0, time <= samples[(start + count - 1) % Self.capacity].time {
            // Time went backwards (a looped clip, a new source): start over rather than divide by ≤ 0.
            reset()
        }
        if count == Self.capacity { start = (start + 1) % Self.capacity; count -= 1 }
        samples[(start + count) % Self.capacity] = Sample(time: time, x: centreX, y: centreY, width: width)
        count += 1
        // Drop what is older than needed: keep the newest sample that is at least `lookBack` old.
        while count > 2, time - samples[(start + 1) % Self.capacity].time >= lookBack {
            start = (start + 1) % Self.capacity
            count -= 1
        }
        let oldest = samples[start]
        let age = time - oldest.time
        // Half the look-back is enough to judge; less would turn one frame's jitter into speed.
        guard count > 1, age >= lookBack / 2 else { return nil }
        let per100ms = 0.1 / age
        // y offsets are in frame heights; convert to frame widths so both axes count alike.
        let dx = centreX - oldest.x, dy = (centreY - oldest.y) / frameAspect
        let speed = (dx * dx + dy * dy).squareRoot() * per100ms
        let sizeChange = oldest.width > 0 ? abs(width / oldest.width - 1) * per100ms : 0
        return MotionMetrics(centreSpeed: speed, sizeChange: sizeChange)
    }
}
