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
    }

    func testLongAndOddDurations() {
        var histogram = LatencyHistogram()
        histogram.record(-0.5)
        histogram.record(3)
        histogram.record(.nan)
        histogram.record(1e300)
        XCTAssertEqual(histogram.percentile(0.25)!, 0.0001, accuracy: 1e-9, "a negative duration counts as 0")
        XCTAssertEqual(histogram.percentile(1), 1e300, "past 1 s: the longest one seen")
    }
}
