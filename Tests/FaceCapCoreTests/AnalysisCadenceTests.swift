import XCTest

@testable import FaceCapCore

/// Which camera frames the live wizard analyses (`AnalysisCadence`), and the tracker's intervals at that rate.
final class AnalysisCadenceTests: XCTestCase {
    /// The frames admitted out of `count` at `fps`, each `jitter(i)` seconds off its nominal time.
    private func admitted(fps: Double, count: Int, jitter: (Int) -> Double = { _ in 0 }) -> [Int] {
        var cadence = AnalysisCadence(frameRate: fps)
        var admitted: [Int] = []
        for i in 0..<count {
            let t = Double(i) / fps + jitter(i)
            if cadence.isDue(t) {
                cadence.analysed(t)
                admitted.append(i)
            } else {
                cadence.skipped()
            }
        }
        return admitted
    }

    func testAbout15FramesASecondAreAnalysedWhateverTheCameraSends() {
        XCTAssertEqual(admitted(fps: 30, count: 30), Array(stride(from: 0, to: 30, by: 2)))
        XCTAssertEqual(admitted(fps: 15, count: 15), Array(0..<15))
        XCTAssertEqual(admitted(fps: 20, count: 20), Array(0..<20))
        XCTAssertEqual(admitted(fps: 60, count: 60), Array(stride(from: 0, to: 60, by: 3)))
        XCTAssertEqual(admitted(fps: 25, count: 25), Array(stride(from: 0, to: 25, by: 2)))
        // A 20 fps camera's timestamps a few ms off still have every frame analysed.
        XCTAssertEqual(admitted(fps: 20, count: 40) { i in i % 2 == 0 ? 0.002 : -0.002 }, Array(0..<40))
        // A 30 fps camera that jitters is still read every other frame, never two frames in a row.
        let jittered = admitted(fps: 30, count: 300) { i in [0.004, -0.003, 0.001, -0.004][i % 4] }
        XCTAssertEqual(Double(jittered.count), 150, accuracy: 3)
        XCTAssertFalse(zip(jittered, jittered.dropFirst()).contains { $1 - $0 < 2 }, "\(jittered)")
    }

    func testTheFirstFrameAfterAResetAndAFrameWhoseTimeWentBackAreAnalysed() {
        var cadence = AnalysisCadence(frameRate: 30)
        XCTAssertTrue(cadence.isDue(5))
        cadence.analysed(5)
        XCTAssertFalse(cadence.isDue(5 + 1.0 / 30))
        XCTAssertTrue(cadence.isDue(0), "a looped clip starts again")
        cadence.reset()
        XCTAssertTrue(cadence.isDue(5 + 1.0 / 30))
        XCTAssertTrue(cadence.isDue(5 + 2.0 / 30), "due is not analysed: nothing recorded")
    }

    /// A camera whose driver clock stepped back keeps handing out its old maximum timestamp (`Camera` never lets
    /// time go back) until the clock passes it: the analysis goes on at its rate, by the frames skipped, rather than
    /// waiting for the clock (which could last past the flow's "no new picture" second).
    func testFramesWithAFrozenTimestampAreAnalysedAtTheRateAnyway() {
        for (fps, every) in [(30.0, 2), (60.0, 3), (25.0, 2), (15.0, 1)] {
            var cadence = AnalysisCadence(frameRate: fps)
            var admitted: [Int] = []
            for i in 0..<Int(fps) {
                // Moving for five frames, then frozen at the fifth frame's time.
                let t = Double(min(i, 4)) / fps
                if cadence.isDue(t) {
                    cadence.analysed(t)
                    admitted.append(i)
                } else {
                    cadence.skipped()
                }
            }
            XCTAssertEqual(admitted, Array(stride(from: 0, to: Int(fps), by: every)), "\(fps) fps")
        }
    }

    /// The tracker's intervals are durations: today's frame counts at 30 fps, the same number of seconds at the rate
    /// frames are analysed.
    func testTheTrackersIntervalsKeepTheirSecondsAtTheRateAnalysed() {
        func intervals(_ fps: Double) -> [Int] {
            var cadence = AnalysisCadence(frameRate: fps)
            for i in 0..<Int(fps * 2) {
                let t = Double(i) / fps
                if cadence.isDue(t) { cadence.analysed(t) }
            }
            let i = cadence.intervals
            return [i.detection, i.eyes, i.eyesFixing, i.hand, i.handFixing]
        }
        XCTAssertEqual(
            intervals(30), [5, 2, 4, 3, 6], "15 Hz: 0.33 s, 0.13 s (0.1 s rounded up), 0.27 s, 0.2 s, 0.4 s")
        XCTAssertEqual(intervals(15), [5, 2, 4, 3, 6])
        XCTAssertEqual(intervals(20), [7, 2, 5, 4, 8])
        var cadence = AnalysisCadence(frameRate: 30)
        XCTAssertEqual(cadence.gap, 2.0 / 30, accuracy: 1e-12, "from the frame rate before any frame")
        XCTAssertEqual(AnalysisCadence.expectedGap(frameRate: 60), 3.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(AnalysisCadence.expectedGap(frameRate: 0), 1.0 / 15, accuracy: 1e-12)
        // A camera that stalls for seconds says nothing about the rate.
        cadence.analysed(0)
        cadence.analysed(10)
        XCTAssertEqual(cadence.gap, 2.0 / 30, accuracy: 1e-12)
        // Were every frame of a 30 fps source analysed, the gap comes down to 1/30 s: the tracker's own defaults.
        for i in 0..<100 { cadence.analysed(10 + Double(i) / 30) }
        let every = cadence.intervals
        XCTAssertEqual(
            [every.detection, every.eyes, every.eyesFixing, every.hand, every.handFixing], [10, 3, 8, 6, 12],
            "every frame at 30 fps: the tracker's defaults")
    }
}
