import FaceCapCore
import XCTest

@testable import FaceCapTerminal

/// The picture's renderer alone, without a terminal: what it sends and when. Cells never send bytes of their own;
/// an image is sent with a frame, kept over a key press, taken away when it must go, and sent again after a resize.
final class PictureRendererTests: XCTestCase {
    private let rect = CellRect(x: 2, y: 1, width: 20, height: 10)

    private func scene(frame: Frame?, rect: CellRect?) -> PictureScene {
        var model = ScreenSamples.model(.capture)
        model.picture = .livePreview(oval: .ready, stability: 0.5)
        return PictureScene(model: model, rect: rect, frame: frame, photo: nil, photoID: 0, columns: 80, rows: 24)
    }

    /// The bytes one update sends: just before curses' update, and after it.
    private func update(
        _ renderer: inout some PictureRenderer, _ scene: PictureScene,
        painter: inout CursesPainter
    ) -> (before: Int, after: Int) {
        var before: [UInt8] = [], after: [UInt8] = []
        renderer.paint(scene, painter: &painter)
        renderer.sendBefore(into: &before)
        renderer.send(scene, into: &after)
        return (before.count, after.count)
    }

    func testAnImageIsSentWithAFrameKeptOverAKeyAndTakenAwayWhenItMustGo() {
        let cells = CellPicture(palette: .truecolor, unicode: true, mirror: false, cellAspect: 2)
        var painter = CursesPainter(palette: .truecolor, unicode: true, directColor: true, pairs: .none)
        let layer = GraphicsLayer(kind: .kitty, cellSize: (10, 20), sixelLimit: nil, mirror: false)
        var image = ImagePicture(layer: layer, cells: cells)
        XCTAssertEqual(image.kind, .kitty)
        let frame = TestFrames.solid(200, 120, 90)
        let first = update(&image, scene(frame: frame, rect: rect), painter: &painter)
        XCTAssertEqual(first.before, 0)
        XCTAssertGreaterThan(first.after, 0, "the image goes out with the frame")
        let key = update(&image, scene(frame: nil, rect: rect), painter: &painter)
        XCTAssertEqual([key.before, key.after], [0, 0], "a key press keeps the image on screen")
        image.invalidate()
        let again = update(&image, scene(frame: frame, rect: rect), painter: &painter)
        XCTAssertGreaterThan(again.before, 0, "after a resize the old image goes first")
        XCTAssertGreaterThan(again.after, 0, "and the picture is sent again")
        let gone = update(&image, scene(frame: frame, rect: nil), painter: &painter)
        XCTAssertGreaterThan(gone.before, 0, "no room for the picture: the image goes")
        XCTAssertEqual(gone.after, 0)
        // Before the terminal goes back to the shell: the image shown goes, and nothing when none is.
        var removal: [UInt8] = []
        image.remove(into: &removal)
        XCTAssertEqual(removal, [])
        XCTAssertGreaterThan(update(&image, scene(frame: frame, rect: rect), painter: &painter).after, 0)
        image.remove(into: &removal)
        XCTAssertGreaterThan(removal.count, 0)
    }

    func testCellsSendNothingOfTheirOwn() {
        var cells = CellPicture(palette: .truecolor, unicode: true, mirror: false, cellAspect: 2)
        var painter = CursesPainter(palette: .truecolor, unicode: true, directColor: true, pairs: .none)
        XCTAssertNil(cells.kind)
        cells.invalidate()
        // No rectangle: nothing painted (painting needs curses' window), nothing sent.
        XCTAssertEqual(update(&cells, scene(frame: TestFrames.solid(9, 9, 9), rect: nil), painter: &painter).after, 0)
        var removal: [UInt8] = []
        cells.remove(into: &removal)
        XCTAssertEqual(removal, [])
        XCTAssertEqual(cells.photoRenders, 0)
    }
}
