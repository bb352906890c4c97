/// The waits between automatic retries: 1, 2, 4 … seconds, at most `limit`.
public struct Backoff: Sendable, Equatable {
    public var first: Double
    public var limit: Double

    public init(first: Double = 1, limit: Double = 30) {
        self.first = first
        self.limit = limit
    }

    /// The wait before retry number `step` (0-based).
    public func delay(step: Int) -> Double {
        var delay = first
        for _ in 0..<min(max(step, 0), 32) { delay *= 2 }
        return min(delay, limit)
    }
}
