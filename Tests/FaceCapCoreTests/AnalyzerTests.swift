import XCTest

@testable import FaceCapCore

/// The stateful part: persistence of messages, stability window, sharpest frame, manual fallback.
final class AnalyzerTests: XCTestCase {
    /// Feeds 30 fps measures from `start` for `seconds`, changed per frame by `change`.
    private func feed(
        _ analyzer: inout Analyzer, from start: Double, seconds: Double, warmUp: Bool = false,
        _ change: (Int, inout FrameMetrics) -> Void = { _, _ in }
    ) -> [AnalyzerOutput] {
        var outputs: [AnalyzerOutput] = []
        let frames = Int((seconds * 30).rounded())
        for i in 0..<frames {
            var metrics = AnalysisFixtures.goodMetrics(at: start + Double(i) / 30)
            change(i, &metrics)
            outputs.append(analyzer.decide(metrics, isWarmUp: warmUp))
        }
        return outputs
    }

    private func primaryChanges(_ outputs: [AnalyzerOutput]) -> Int {
        zip(outputs, outputs.dropFirst()).filter { $0.primary != $1.primary }.count
    }

    func testAutoCaptureAfterTheStabilityWindowWithTheSharpestFrame() throws {
        var analyzer = Analyzer()
        let outputs = feed(&analyzer, from: 10, seconds: 2) { i, m in
            m.face!.sharpness = i == 12 ? 900 : 400 + Double(i)
        }
        let captureIndex = try XCTUnwrap(outputs.firstIndex { $0.capture != nil })
        XCTAssertEqual(captureIndex, 30, "ready from frame 0, window 1.0 s at 30 fps")
        XCTAssertEqual(outputs[captureIndex].capture?.frameTimestamp ?? 0, 10 + 12.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(outputs[captureIndex].capture?.sharpness, 900)
        XCTAssertTrue(outputs[12].keepFrame)
        XCTAssertFalse(outputs[13].keepFrame, "a less sharp frame after the best is not kept")
        XCTAssertEqual(outputs[15].stability, 0.5, accuracy: 1e-9)
        XCTAssertEqual(outputs.filter { $0.capture != nil }.count, 1, "one capture per session")
        XCTAssertEqual(outputs.last?.primary, .ready)
    }

    func testAnInterruptionRestartsTheWindow() throws {
        var analyzer = Analyzer()
        let outputs = feed(&analyzer, from: 0, seconds: 3) { i, m in
            if i == 25 { m.motion!.centreSpeed = 0.08 }
        }
        let captureIndex = try XCTUnwrap(outputs.firstIndex { $0.capture != nil })
        // The jolt at frame 25 switches holdStill on; it clears from frame 26, then 1.0 s more.
        XCTAssertEqual(captureIndex, 56)
        XCTAssertEqual(outputs[25].stability, 0)
    }

    /// After a refusal that names no measure (a server's own code), the same still face is not captured again
    /// a stability window later: only after a visible change, or after `unmeasuredRetryHold` of `ready`.
    func testARefusalNamingNoMeasureWaitsForAVisibleChange() throws {
        XCTAssertTrue(Analyzer.awaitsChange(reasons: ["myServersOwn", "faceUnclear"]))
        XCTAssertTrue(Analyzer.awaitsChange(reasons: []))
        XCTAssertFalse(Analyzer.awaitsChange(reasons: ["myServersOwn", "tooDark"]))
        // A fresh session captures a still face after the window; after such a refusal not before the hold.
        var fresh = Analyzer()
        XCTAssertEqual(feed(&fresh, from: 0, seconds: 5).firstIndex { $0.capture != nil }, 30)
        var still = Analyzer()
        still.reset(awaitChange: true)
        let held = feed(&still, from: 0, seconds: 6)
        let index = try XCTUnwrap(held.firstIndex { $0.capture != nil }, "a long hold still captures")
        XCTAssertEqual(index, 120, "ready held for unmeasuredRetryHold (4 s), not the 1 s window")
        XCTAssertEqual(held[60].stability, 0.5, accuracy: 1e-9, "the ring fills over the hold")
        // A change: the face gone for 0.6 s (long enough to be said), then back: one window after it is back.
        var moved = Analyzer()
        moved.reset(awaitChange: true)
        let outputs = feed(&moved, from: 0, seconds: 4) { i, m in
            if (15..<33).contains(i) { m.face = nil }
        }
        XCTAssertFalse(moved.awaitChange)
        XCTAssertEqual(outputs.firstIndex { $0.capture != nil }, 63, "back at frame 33, then 1.0 s")
        // A blip shorter than a message's persistence is no change.
        var blip = Analyzer()
        blip.reset(awaitChange: true)
        let blipped = feed(&blip, from: 0, seconds: 3) { i, m in
            if (15..<20).contains(i) { m.face = nil }
        }
        XCTAssertNil(blipped.firstIndex { $0.capture != nil })
        XCTAssertTrue(blip.awaitChange)
    }

    func testAFaceThatKeepsMovingIsNotCaptured() {
        var analyzer = Analyzer()
        let outputs = feed(&analyzer, from: 0, seconds: 5) { _, m in m.motion!.centreSpeed = 0.03 }
        XCTAssertTrue(outputs.allSatisfy { $0.capture == nil })
        XCTAssertEqual(outputs.last?.primary, .holdStill)
    }

    func testWarmUpFramesDoNotCount() {
        var analyzer = Analyzer()
        let warm = feed(&analyzer, from: 0, seconds: 1.5, warmUp: true)
        XCTAssertTrue(warm.allSatisfy { $0.capture == nil && $0.stability == 0 })
        let live = feed(&analyzer, from: 1.5, seconds: 1.1)
        XCTAssertEqual(live.firstIndex { $0.capture != nil }, 30)
    }

    func testANewMessageNeedsToPersist() {
        var analyzer = Analyzer()
        _ = feed(&analyzer, from: 0, seconds: 2)
        // One frame of moveCloser does not change the message…
        let blip = feed(&analyzer, from: 2, seconds: 1) { i, m in if i == 0 { m.face!.widthRatio = 0.2 } }
        XCTAssertTrue(blip.allSatisfy { $0.primary == .ready })
        XCTAssertEqual(blip[0].active, [.moveCloser])
        // …a lasting one does, after 0.5 s and not before.
        let lasting = feed(&analyzer, from: 3, seconds: 1) { _, m in m.face!.widthRatio = 0.2 }
        let switchIndex = lasting.firstIndex { $0.primary == .moveCloser }
        XCTAssertEqual(switchIndex, 15)
        XCTAssertTrue(lasting[15].guidanceChanged)
        XCTAssertFalse(lasting[16].guidanceChanged)
    }

    /// Issue 35: a direction word leaves the screen on the first frame its condition clears — no persistence, no
    /// minimum display — and what is true then takes its place at once (here `holdStill`, then `ready`).
    func testADirectionWordGoesOnTheFrameItClears() {
        var analyzer = Analyzer()
        // Too high for 0.2 s (shown at once: nothing was shown before), moving down fast; inside the limit and its
        // margin from frame 6, still moving; still from frame 12.
        let outputs = feed(&analyzer, from: 0, seconds: 2) { i, m in
            m.face!.offsetY = i < 6 ? -0.15 : -0.05
            m.motion!.centreSpeed = i < 12 ? 0.03 : 0
        }
        XCTAssertEqual(outputs[5].primary, .moveDown)
        XCTAssertEqual(outputs[6].primary, .holdStill, "withdrawn after 0.2 s, not held 0.8 s")
        XCTAssertTrue(outputs[6].guidanceChanged)
        XCTAssertEqual(outputs[12].primary, .ready, "gone as soon as the face is still")
        // Then the stability window from frame 12: 30 frames, or 31 where 42/30 − 12/30 rounds below 1.0.
        XCTAssertTrue((42...43).contains(outputs.firstIndex { $0.capture != nil } ?? 0))
        // Between two live problems the persistence holds: moveCloser while the face is still off the oval.
        var two = Analyzer()
        let both = feed(&two, from: 0, seconds: 2) { i, m in
            m.face!.offsetX = -0.15
            if i >= 3 { m.face!.widthRatio = 0.2 }
        }
        XCTAssertEqual(both[0].primary, .moveLeft)
        XCTAssertEqual(both.firstIndex { $0.primary == .moveCloser }, 24, "after 0.5 s wanted and 0.8 s shown")
    }

    /// "Hold still — image is blurry" tells the person to stop as `holdStill` does, so it too goes the frame the
    /// face is sharp again (issue 35: "Hold still" only while the face moves), not 0.8 s later.
    func testBlurryGoesOnTheFrameTheFaceIsSharpAgain() {
        var analyzer = Analyzer()
        _ = feed(&analyzer, from: 0, seconds: 0.5) { _, m in m.face!.sharpness = 400 }
        // Blurry from 0.5 s (after the persistence it is the message), sharp past the hysteresis from frame 20.
        let outputs = feed(&analyzer, from: 0.5, seconds: 1.5) { i, m in m.face!.sharpness = i < 20 ? 60 : 400 }
        XCTAssertEqual(outputs[15].primary, .blurry)
        XCTAssertEqual(outputs[19].primary, .blurry)
        XCTAssertEqual(outputs[20].primary, .ready, "withdrawn on the first sharp frame")
        XCTAssertTrue(outputs[20].guidanceChanged)
    }

    /// One frame's noise changes no word (issue 35's review): a face missed once does not turn "Move down" into
    /// "Position your face in the oval", and one blurry frame does not flash over "Perfect"; a word taken up
    /// without its persistence is withdrawn the frame it clears.
    func testOneFramesNoiseChangesNoWord() {
        var analyzer = Analyzer()
        let missed = feed(&analyzer, from: 0, seconds: 2) { i, m in
            m.face!.offsetY = -0.15
            if i == 30 { m.face = nil }
        }
        XCTAssertEqual(Set(missed[1...].map(\.primary)), [.moveDown], "no noFace for a face missed once")

        var steady = Analyzer()
        let blurred = feed(&steady, from: 0, seconds: 2) { i, m in
            if i == 30 { m.face!.sharpness = 0 }
        }
        XCTAssertEqual(Set(blurred.map(\.primary)), [.ready], "one blurry frame shows nothing new")

        // Into the oval on a blurry frame: the blur is shown for that frame only, then what is true.
        var arriving = Analyzer()
        let arrived = feed(&arriving, from: 0, seconds: 2) { i, m in
            m.face!.offsetY = i < 15 ? -0.15 : 0
            if i == 15 { m.face!.sharpness = 0 }
        }
        XCTAssertEqual(arrived[14].primary, .moveDown)
        XCTAssertEqual(arrived[15].primary, .blurry)
        XCTAssertEqual(arrived[16].primary, .ready, "the provisional word withdrawn the frame it clears")
        XCTAssertTrue(arrived[16].guidanceChanged)
    }

    /// A direction on screen is always true of the frame it is shown with: a face that crosses the oval from one
    /// side to the other is never told the way it came from.
    func testADirectionIsNeverShownPointingAway() {
        var analyzer = Analyzer()
        // Swinging left and right across the oval, ±0.2 of the frame, 1.5 s a swing, too fast and too slow.
        for period in [20.0, 45.0, 90.0] {
            let outputs = feed(&analyzer, from: 0, seconds: 6) { i, m in
                let x = 0.2 * sin(2 * Double.pi * Double(i) / period)
                m.face!.offsetX = x
                m.face!.offsetY = 0.5 * x
                m.motion!.centreSpeed = abs(0.2 * 2 * Double.pi / period * 3 * cos(2 * Double.pi * Double(i) / period))
            }
            for out in outputs {
                let face = out.metrics.face!
                switch out.primary {
                case .moveLeft: XCTAssertLessThan(face.offsetX, 0, "period \(period)")
                case .moveRight: XCTAssertGreaterThan(face.offsetX, 0, "period \(period)")
                case .moveUp: XCTAssertGreaterThan(face.offsetY, 0, "period \(period)")
                case .moveDown: XCTAssertLessThan(face.offsetY, 0, "period \(period)")
                default: break
                }
                for hint in out.hints where hint.isDirection { XCTAssertTrue(out.active.contains(hint)) }
            }
            analyzer.reset()
        }
    }

    /// Near the oval the direction is graded ("A little to the left"), further off plain; the band has its
    /// margin, so a face at its edge does not switch the words back and forth.
    func testDirectionsAreGradedNearTheOval() {
        let t = AnalyzerThresholds()
        var analyzer = Analyzer()
        let near = feed(&analyzer, from: 0, seconds: 0.5) { _, m in m.face!.offsetX = -0.15 }
        XCTAssertEqual(near.last?.primary, .moveLeft)
        XCTAssertEqual(near.last?.slight, [.moveLeft])
        analyzer.reset()
        let far = feed(&analyzer, from: 0, seconds: 0.5) { _, m in m.face!.offsetY = t.farCentreOffsetY + 0.05 }
        XCTAssertEqual(far.last?.primary, .moveUp)
        XCTAssertEqual(far.last?.slight, [])
        // Wobbling just inside the far limit after plain words: plain until inside by the margin.
        let edge = feed(&analyzer, from: 0.5, seconds: 1) { i, m in
            m.face!.offsetY = t.farCentreOffsetY - (i % 2 == 0 ? 0.005 : 0.015)
        }
        XCTAssertTrue(edge.allSatisfy { $0.slight.isEmpty })
        let inside = feed(&analyzer, from: 1.5, seconds: 0.2) { _, m in m.face!.offsetY = t.farCentreOffsetY - 0.05 }
        XCTAssertEqual(inside.last?.slight, [.moveUp])
        XCTAssertEqual(Messages.guidance(.moveUp, slight: true), "A little higher")
        XCTAssertEqual(Messages.guidance(.moveDown, slight: true), "A little lower")
        XCTAssertEqual(Messages.guidance(.moveLeft, slight: true), "A little to the left")
        XCTAssertEqual(Messages.guidance(.moveRight, slight: true), "A little to the right")
    }

    func testAShownMessageStaysAtLeast800Milliseconds() {
        var analyzer = Analyzer()
        // moveCloser from the start (shown at once, nothing was shown before), then tooDark from 0.1 s.
        let outputs = feed(&analyzer, from: 0, seconds: 2) { i, m in
            m.face!.widthRatio = 0.2
            if i >= 3 { m.face!.light!.meanLuma = 40 }
        }
        XCTAssertEqual(outputs[0].primary, .moveCloser)
        // tooDark has persisted 0.5 s at frame 18, but moveCloser has only been up 0.6 s: wait to 0.8 s.
        XCTAssertEqual(outputs.firstIndex { $0.primary == .tooDark }, 24)
        XCTAssertEqual(outputs[30].hints, [.moveCloser])
    }

    func testHintsAreTheNextTwoSettledCodesInPriorityOrder() {
        var analyzer = Analyzer()
        let outputs = feed(&analyzer, from: 0, seconds: 1) { _, m in
            m.face!.widthRatio = 0.2
            m.face!.pose!.roll = 20
            m.face!.sharpness = 20
            m.motion!.centreSpeed = 0.1
        }
        XCTAssertEqual(outputs.last?.primary, .moveCloser)
        XCTAssertEqual(outputs.last?.hints, [.keepHeadLevel, .blurry])
        XCTAssertEqual(outputs.last?.active, [.moveCloser, .keepHeadLevel, .blurry, .holdStill])
    }

    func testAShownHintStaysAtLeast800MillisecondsToo() {
        var analyzer = Analyzer()
        // moveCloser throughout; a tilted head for the first 0.6 s only. keepHeadLevel settles at 0.5 s
        // (frame 15) and becomes a hint; its condition clears at frame 18, but the hint stays to 0.8 s.
        let outputs = feed(&analyzer, from: 0, seconds: 2) { i, m in
            m.face!.widthRatio = 0.2
            if i < 18 { m.face!.pose!.roll = 20 }
        }
        XCTAssertEqual(outputs[14].hints, [])
        XCTAssertEqual(outputs[15].hints, [.keepHeadLevel])
        XCTAssertEqual(outputs[18].active, [.moveCloser])
        XCTAssertEqual(outputs[18].hints, [.keepHeadLevel])
        XCTAssertEqual(outputs[38].hints, [.keepHeadLevel])
        XCTAssertEqual(outputs[40].hints, [])
        XCTAssertTrue(outputs[15].guidanceChanged)
        XCTAssertEqual(outputs.dropFirst(16).filter(\.guidanceChanged).count, 1, "only the hint going away")
        XCTAssertTrue(outputs.allSatisfy { $0.primary == .moveCloser })
    }

    func testAMeasureOscillatingAroundAThresholdDoesNotFlicker() {
        for seed in 0..<3 {
            var analyzer = Analyzer()
            // Face width alternating 0.27 / 0.29 around the 0.28 threshold, every frame or every few.
            let period = [1, 2, 5][seed]
            let outputs = feed(&analyzer, from: 0, seconds: 6) { i, m in
                m.face!.widthRatio = (i / period) % 2 == 0 ? 0.27 : 0.29
            }
            XCTAssertLessThanOrEqual(primaryChanges(outputs), 1, "period \(period)")
            XCTAssertEqual(Set(outputs.dropFirst(2).map(\.active)), [[.moveCloser]], "period \(period)")
            XCTAssertTrue(outputs.allSatisfy { $0.capture == nil })
        }
        // Light wobbling around 60 and sharpness around its threshold: the same.
        var analyzer = Analyzer()
        let outputs = feed(&analyzer, from: 0, seconds: 6) { i, m in
            m.face!.light!.meanLuma = i % 2 == 0 ? 58 : 63
            m.face!.sharpness = i % 3 == 0 ? 145 : 160
        }
        XCTAssertLessThanOrEqual(primaryChanges(outputs), 1)
        XCTAssertEqual(outputs.last?.primary, .tooDark)
        XCTAssertEqual(outputs.last?.hints, [], "light first: no sharpness in too little light")
        // Well lit, the wobbling sharpness is the message, held as steadily.
        var lit = Analyzer()
        let blurred = feed(&lit, from: 0, seconds: 6) { i, m in m.face!.sharpness = i % 3 == 0 ? 145 : 160 }
        XCTAssertLessThanOrEqual(primaryChanges(blurred), 1)
        XCTAssertEqual(blurred.last?.primary, .blurry)
        // Light wobbling around the far limit (45): the gentle and the plain words do not flicker either.
        var dim = Analyzer()
        let words = feed(&dim, from: 0, seconds: 3) { i, m in m.face!.light!.meanLuma = i % 2 == 0 ? 43 : 48 }
        XCTAssertTrue(words.dropFirst().allSatisfy { $0.slight.isEmpty }, "plain from the first frame at 43")
    }

    func testManualFallbackAfterTimeoutOrWithoutAFace() {
        var thresholds = AnalyzerThresholds()
        thresholds.manualAfter = 4
        var analyzer = Analyzer(thresholds: thresholds)
        let moving = feed(&analyzer, from: 100, seconds: 5) { _, m in m.motion!.centreSpeed = 0.05 }
        XCTAssertNil(moving[118].manualFallback)
        XCTAssertEqual(moving[120].manualFallback, .timeout)
        XCTAssertEqual(moving.last?.manualFallback, .timeout)

        var lonely = Analyzer()
        let empty = feed(&lonely, from: 0, seconds: 12) { _, m in m.face = nil }
        XCTAssertNil(empty[298].manualFallback)
        XCTAssertEqual(empty[300].manualFallback, .noConfidentFace)
        XCTAssertEqual(empty.last?.primary, .noFace)

        // A face seen now and then resets the no-face clock; the timeout still applies.
        var sometimes = Analyzer()
        let flickering = feed(&sometimes, from: 0, seconds: 12) { i, m in
            if i % 150 != 0 { m.face = nil }
        }
        XCTAssertTrue(flickering.allSatisfy { $0.manualFallback == nil })
    }

    func testResetStartsANewSessionAndTimeGoingBackwardsToo() throws {
        var analyzer = Analyzer()
        let first = feed(&analyzer, from: 0, seconds: 1.2)
        XCTAssertNotNil(first.first { $0.capture != nil })
        analyzer.reset()
        let second = feed(&analyzer, from: 5, seconds: 1.2)
        XCTAssertEqual(second.firstIndex { $0.capture != nil }, 30)
        // A looped clip starts again at 0: a fresh session, not negative durations.
        let looped = feed(&analyzer, from: 0, seconds: 1.2)
        XCTAssertEqual(looped.firstIndex { $0.capture != nil }, 30)
    }

    func testASecondFaceSeenEveryFewFramesStaysCounted() throws {
        // While tracking, the detector (and so the second face) shows up only every 10th frame.
        var analyzer = Analyzer()
        let (frame, face) = AnalysisFixtures.frame(.init(faceWidth: 0.3, centreX: 0.3))
        var other = face
        other.landmarks = nil
        other.detection.box.x += 250
        other.detection.score = 0.9
        var outputs: [AnalyzerOutput] = []
        for i in 0..<60 {
            var current = frame
            current.timestamp = Double(i) / 30
            outputs.append(analyzer.process(current, faces: i % 10 == 0 ? [face, other] : [face]))
        }
        XCTAssertTrue(outputs.allSatisfy { $0.active.first == .multipleFaces })
        XCTAssertEqual(outputs.last?.primary, .multipleFaces)
        // Gone for longer than `secondFaceMemory`: no longer counted.
        for i in 60..<100 {
            var current = frame
            current.timestamp = Double(i) / 30
            outputs.append(analyzer.process(current, faces: [face]))
        }
        XCTAssertFalse(try XCTUnwrap(outputs.last).active.contains(.multipleFaces))
    }

    func testAFaceScoreWobblingAroundTheCutKeepsTheFace() {
        var thresholds = AnalyzerThresholds()
        thresholds.minFaceScore = 0.8
        var analyzer = Analyzer(thresholds: thresholds)
        var outputs: [AnalyzerOutput] = []
        for i in 0..<90 {
            let (frame, found) = AnalysisFixtures.frame(.init(), timestamp: Double(i) / 30)
            var face = found
            face.detection.score = i == 0 ? 0.9 : (i % 2 == 0 ? 0.82 : 0.77)
            outputs.append(analyzer.process(frame, faces: [face]))
        }
        XCTAssertTrue(outputs.allSatisfy { $0.metrics.face != nil })
        XCTAssertFalse(outputs.contains { $0.active.contains(.noFace) })
        // A fresh analyzer (no face seen yet) applies the plain cut.
        var fresh = Analyzer(thresholds: thresholds)
        let (frame, found) = AnalysisFixtures.frame(.init())
        var face = found
        face.detection.score = 0.77
        XCTAssertEqual(fresh.process(frame, faces: [face]).active, [.noFace])
    }

    func testProcessMeasuresRealPixelsAndTracksMotion() throws {
        var analyzer = Analyzer()
        var outputs: [AnalyzerOutput] = []
        // Sergey approaches (face 0.22 → 0.38 of the width over 1 s), then holds still for 1.5 s.
        for i in 0..<75 {
            let t = Double(i) / 30
            let width = i < 30 ? 0.22 + 0.16 * Double(i) / 30 : 0.38
            let (frame, face) = AnalysisFixtures.frame(.init(faceWidth: width), format: .yuyv, timestamp: t)
            outputs.append(analyzer.process(frame, faces: [face]))
        }
        XCTAssertEqual(outputs[5].active.first, .moveCloser)
        XCTAssertTrue(outputs[20].active.contains(.holdStill), "growing ~2 % per frame is movement")
        let capture = try XCTUnwrap(outputs.firstIndex { $0.capture != nil })
        XCTAssertGreaterThan(capture, 30 + 29, "not before the face has held still for the window")
        XCTAssertLessThan(capture, 75)
        XCTAssertEqual(outputs[capture].primary, .ready)
    }
}
