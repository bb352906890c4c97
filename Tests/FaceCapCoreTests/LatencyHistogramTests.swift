import XCTest

@testable import FaceCapCore

final class LatencyHistogramTests: XCTestCase {
    func testPercentilesToTheBucketEdge() {
        var histogram = LatencyHistogram()
        XCTAssertNil(histogram.percentile(0.5))
        for ms in 1...100 { histogram.record(Double(ms) / 1000) }
        XCTAssertEqual(histogram.count, 100)
        XCTAssertEqual(histogram.percentile(0.5)!, 0.0501, accuracy: 1e-9)
        XCTAssertEqual(histogram.percentile(0.99)!, 0.0991, accuracy: 1e-9)
        XCTAssertEqual(histogram.maximum, 0.1)
        let buckets = histogram.occupiedBuckets
        XCTAssertEqual(buckets.count, 100)
        XCTAssertEqual(buckets.first?.index, 10, "1 ms falls into the bucket from 1.0 to 1.1 ms")
        XCTAssertEqual(buckets.map(\.count).reduce(0, +), 100)
    }

    func testLongAndOddDurations() {
        var histogram = LatencyHistogram()
        histogram.record(-0.5)
        histogram.record(3)
        histogram.record(.nan)
        histogram.record(1e300)
        XCTAssertEqual(histogram.percentile(0.25)!, 0.0001, accuracy: 1e-9, "a negative duration counts as 0")
        XCTAssertEqual(histogram.percentile(1), 1e300, "past 1 s: the longest one seen")
        XCTAssertEqual(histogram.occupiedBuckets.map(\.index), [0, LatencyHistogram.buckets - 1])
        XCTAssertEqual(histogram.occupiedBuckets.map(\.count), [1, 3])
    }
}
