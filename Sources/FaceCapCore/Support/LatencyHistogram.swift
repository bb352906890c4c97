/// Durations counted in 0.1 ms buckets up to 1 s (longer ones in the last bucket), for percentiles over
/// a long run without keeping every sample: one array allocated once, nothing per `record`.
public struct LatencyHistogram: Sendable {
    /// Bucket width and the number of buckets: 0.1 ms up to 1 s, then one bucket for everything longer.
    public static let bucketSeconds = 0.0001
    static let buckets = 10_001
    private var counts = [UInt32](repeating: 0, count: LatencyHistogram.buckets)
    public private(set) var count = 0
    public private(set) var maximum = 0.0

    public init() {}

    /// Counts one duration in seconds (negative ones, from a clock step, count as 0).
    public mutating func record(_ seconds: Double) {
        let last = Self.buckets - 1
        let bucket = seconds.isFinite ? min(last, max(0, Int(min(seconds, 1e6) / Self.bucketSeconds))) : last
        counts[bucket] &+= 1
        count += 1
        maximum = max(maximum, seconds)
    }

    /// The buckets that hold any sample, as (index, count); bucket i counts durations from i × 0.1 ms up to
    /// (i + 1) × 0.1 ms, the last one everything from 1 s on. Two snapshots of a run give, by difference, the
    /// exact histogram of the stretch between them.
    public var occupiedBuckets: [(index: Int, count: Int)] {
        counts.enumerated().compactMap { $0.element > 0 ? (index: $0.offset, count: Int($0.element)) : nil }
    }

    /// The duration `fraction` (0...1) of the samples are at most, to the upper edge of its bucket; nil
    /// before any sample.
    public func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (bucket, n) in counts.enumerated() {
            seen += Int(n)
            if seen >= rank { return bucket == Self.buckets - 1 ? maximum : Double(bucket + 1) * Self.bucketSeconds }
        }
        return maximum
    }
}
