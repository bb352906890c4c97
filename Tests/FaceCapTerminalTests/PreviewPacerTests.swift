import XCTest

@testable import FaceCapCore
@testable import FaceCapTerminal

/// The preview's pacing alone, without a terminal (`CursesOutputTests` drives it through the front end): only an
/// update that brings nothing but a new frame waits, and only until four fifths of the interval since the last frame
/// drawn; the interval is three times an update's time, between 1/30 s and a second, and recovers faster than it
/// grows. Decided on the times given.
final class PreviewPacerTests: XCTestCase {
    private let capture = ScreenSamples.model(.capture)

    private func withStability(_ stability: Double) -> ScreenModel {
        var model = capture
        model.picture = .livePreview(oval: .ready, stability: stability)
        return model
    }

    func testOnlyANewFrameWaitsAndOnlyUntilItsSlot() {
        var pacer = PreviewPacer()
        let last = withStability(0.2), next = withStability(0.3)
        XCTAssertFalse(pacer.holdsBack(next, after: last, hasFrame: true, at: 10), "nothing drawn yet")
        pacer.drew(at: 10)
        XCTAssertTrue(pacer.holdsBack(next, after: last, hasFrame: true, at: 10.01))
        XCTAssertFalse(pacer.holdsBack(next, after: last, hasFrame: true, at: 10 + 0.81 * pacer.interval))
        XCTAssertFalse(pacer.holdsBack(next, after: last, hasFrame: false, at: 10.01), "no frame: a redraw")
        var words = next
        words.primary = "Hold still"
        XCTAssertFalse(pacer.holdsBack(words, after: last, hasFrame: true, at: 10.01), "words are drawn at once")
        XCTAssertFalse(pacer.holdsBack(next, after: nil, hasFrame: true, at: 10.01), "a first screen is drawn")
        var oval = next
        oval.picture = .livePreview(oval: .searching, stability: 0.3)
        XCTAssertFalse(pacer.holdsBack(oval, after: last, hasFrame: true, at: 10.01), "the oval's state is seen")
    }

    func testTheIntervalFollowsTheUpdateTimeWithinItsBounds() {
        var pacer = PreviewPacer()
        XCTAssertEqual(pacer.interval, 1.0 / 30, accuracy: 1e-12)
        pacer.noteUpdate(seconds: 0.1)
        XCTAssertEqual(pacer.interval, 0.3, accuracy: 1e-12, "three times the first update")
        for _ in 0..<40 { pacer.noteUpdate(seconds: 2) }
        XCTAssertEqual(pacer.interval, 1, accuracy: 1e-12, "never slower than a second")
        var slow = 0, fast = 0
        var growing = PreviewPacer(), shrinking = PreviewPacer()
        for _ in 0..<20 { shrinking.noteUpdate(seconds: 0.2) }
        growing.noteUpdate(seconds: 0.001)
        while growing.interval < 0.5 {
            growing.noteUpdate(seconds: 0.2)
            slow += 1
        }
        while shrinking.interval > 1.0 / 30 {
            shrinking.noteUpdate(seconds: 0.001)
            fast += 1
        }
        XCTAssertLessThan(fast, slow, "a clear link is believed sooner than a slow one")
        XCTAssertEqual(shrinking.interval, 1.0 / 30, accuracy: 1e-12, "and never faster than 1/30 s")
    }
}
