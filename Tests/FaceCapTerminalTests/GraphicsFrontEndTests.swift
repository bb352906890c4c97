import CCurses
import FaceCapCore
import XCTest

@testable import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// The real ncurses and the image layer writing into one file, as they write into one terminal: what goes
/// out for each preview frame, and that the image leaves when the picture does.
final class GraphicsFrontEndTests: XCTestCase {
    private var output: UnsafeMutablePointer<FILE>?
    private var input: UnsafeMutablePointer<FILE>?
    private var path = ""
    private var read = 0

    override func setUp() {
        setenv("LC_ALL", "C.UTF-8", 1)
        input = fopen("/dev/null", "r")
        fresh()
    }

    /// A new, empty output file.
    private func fresh() {
        if let output {
            fclose(output)
            unlink(path)
        }
        path = NSTemporaryDirectory() + "facecap-graphics-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        output = fopen(path, "w+")
        read = 0
    }

    override func tearDown() {
        if let output { fclose(output) }
        if let input { fclose(input) }
        unlink(path)
        unsetenv("LC_ALL")
    }

    /// What was written since the last call.
    private func newOutput() -> [UInt8] {
        fflush(output)
        let all = (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init) ?? []
        defer { read = all.count }
        return Array(all[min(read, all.count)...])
    }

    private func frontEnd(_ kind: GraphicsProtocol?, mirror: Bool = true) throws -> CursesFrontEnd {
        let layer = kind.map { GraphicsLayer(kind: $0, cellSize: (10, 20), sixelLimit: nil, mirror: mirror) }
        return try CursesFrontEnd(
            colorMode: .auto, mirror: mirror, environment: ["TERM": "xterm-256color"],
            output: output, input: input, graphics: layer)
    }

    private func frame(_ i: Int) -> Frame {
        let phase = Double(i) / 30 * 2 * Double.pi
        return TestFrames.place(
            sergeyPhoto, scale: 0.8 + 0.04 * sin(phase), dx: Int(24 * sin(phase)), noise: 3,
            seed: UInt64(i))
    }

    private func capture(_ i: Int, help: Bool = false) -> ScreenModel {
        var model = ScreenSamples.model(.capture, help: help)
        model.picture = .livePreview(oval: .ready, stability: Double(i % 30) / 30)
        return model
    }

    /// The first sixel image in `bytes` (DCS … ST).
    private func sixel(in bytes: [UInt8]) throws -> SixelImage {
        let start = Array("\u{1B}P9;1q".utf8)
        let at = try XCTUnwrap(
            (0...(bytes.count - start.count)).first { Array(bytes[$0..<($0 + start.count)]) == start },
            "no sixel image")
        let end = try XCTUnwrap(
            (at..<(bytes.count - 1)).first { bytes[$0] == 0x1B && bytes[$0 + 1] == UInt8(ascii: "\\") })
        return try SixelImage(Array(bytes[at...(end + 1)]))
    }

    private func count(_ needle: String, in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: needle).count - 1
    }

    /// Preview cells in `bytes`: half blocks and the 256-colour raster's shade mixes (░ ▒ ▓).
    private func previewCells(in bytes: [UInt8]) -> Int {
        ["▀", "░", "▒", "▓"].reduce(0) { $0 + count($1, in: bytes) }
    }

    func testSixelIsDrawnWhereThePreviewCellsAreWithTheCellsLeftBlank() throws {
        let ui = try frontEnd(.sixel)
        defer { ui.close() }
        ui.resize(columns: 80, rows: 24)
        _ = newOutput()
        XCTAssertEqual(ui.capabilities.graphics, .sixel)
        ui.renderNow(capture(0), preview: frame(0), photo: nil)
        let first = newOutput()
        XCTAssertEqual(count("\u{1B}P", in: first), 1, "one image a frame")
        XCTAssertEqual(previewCells(in: first), 0, "no preview cells under the image")
        // The image sits at the picture's top-left cell, between a saved and a restored cursor.
        let layout = ScreenLayout(capture(0), columns: 80, rows: 24, unicode: true, pictureSize: (640, 480))
        let rect = try XCTUnwrap(layout.picture)
        let text = String(decoding: first, as: UTF8.self)
        XCTAssertTrue(text.contains("\u{1B}7\u{1B}[\(rect.y + 1);\(rect.x + 1)H\u{1B}P9;1q"), "placed at \(rect)")
        XCTAssertTrue(text.hasSuffix("\u{1B}\\\u{1B}8"))
        let image = try sixel(in: first)
        XCTAssertEqual(image.width, rect.width * 10)
        XCTAssertLessThanOrEqual(image.height, rect.height * 20)
        XCTAssertGreaterThan(image.height, rect.height * 20 - 6)
        // The oval guide is in the pixels: the ready state's open outline, green (0, 135, 0), which the photo
        // itself has none of: registers of no red, no blue and at least half the green.
        func isGuideGreen(_ register: Int) -> Bool { register / 42 == 0 && register % 6 == 0 && register / 6 % 7 >= 3 }
        let guidePixels = image.pixels.values.filter(isGuideGreen).count
        XCTAssertGreaterThan(guidePixels, 2 * (rect.width + rect.height), "the guide's green is drawn into the image")

        // The same frame again: nothing new to send.
        ui.renderNow(capture(0), preview: frame(0), photo: nil)
        XCTAssertLessThan(newOutput().count, 64, "a still scene sends nothing")
    }

    func testHelpAndAnotherScreenTakeTheImageAwayAndItComesBack() throws {
        for kind in [GraphicsProtocol.sixel, .kitty] {
            fresh()
            let ui = try frontEnd(kind)
            ui.resize(columns: 80, rows: 24)
            ui.renderNow(capture(0), preview: frame(0), photo: nil)
            _ = newOutput()
            // Help: the image would cover the box; the preview goes back to cells behind it.
            ui.renderNow(capture(1, help: true), preview: frame(1), photo: nil)
            let help = newOutput()
            XCTAssertEqual(count("\u{1B}P9;1q", in: help) + count("a=T", in: help), 0, "\(kind): no image behind help")
            XCTAssertGreaterThan(count("▀", in: help), 100, "\(kind): the preview in cells behind help")
            if kind == .kitty {
                XCTAssertEqual(count("\u{1B}_Ga=d,d=I,q=2,i=7351\u{1B}\\", in: help), 1)
            } else {
                // ncurses repaints every cell (clear screen first), over the sixel.
                XCTAssertEqual(count("\u{1B}[H\u{1B}[2J", in: help), 1, "\(kind): a full repaint")
            }
            ui.renderNow(capture(2), preview: frame(2), photo: nil)
            let back = newOutput()
            XCTAssertEqual(count("\u{1B}P9;1q", in: back) + count("a=T", in: back), 1, "\(kind): the image is back")
            // Another screen: no picture.
            ui.renderNow(ScreenSamples.model(.uploading), preview: nil, photo: nil)
            let other = newOutput()
            if kind == .kitty {
                XCTAssertEqual(count("a=d,d=I", in: other), 1)
            } else {
                XCTAssertEqual(count("\u{1B}[2J", in: other), 1)
            }
            // A resize removes it too; closing the front end deletes a kitty image.
            ui.renderNow(capture(3), preview: frame(3), photo: nil)
            _ = newOutput()
            ui.resize(columns: 100, rows: 32)
            let resized = newOutput()
            XCTAssertEqual(count(kind == .kitty ? "a=d,d=I" : "\u{1B}[2J", in: resized), 1, "\(kind): resize")
            ui.renderNow(capture(4), preview: frame(4), photo: nil)
            XCTAssertEqual(count(kind == .kitty ? "a=T" : "\u{1B}P9;1q", in: newOutput()), 1)
            ui.close()
            if kind == .kitty { XCTAssertEqual(count("a=d,d=I", in: newOutput()), 1, "closed: deleted") }
        }
    }

    /// The success and retry thumbnails are real pixels too where the preview is: one image over the photo's
    /// cells (left blank), never mirrored, sent once for a screen that stays, taken away with the screen.
    func testThumbnailsAreImagesWhereThePreviewIsOne() throws {
        var rgb = [UInt8](repeating: 0, count: 640 * 480 * 3)
        for y in 0..<480 { for x in 320..<640 { for c in 0..<3 { rgb[(y * 640 + x) * 3 + c] = 240 } } }
        let split = Frame(format: .rgb24, width: 640, height: 480, data: rgb)
        for kind in [GraphicsProtocol.sixel, .kitty] {
            fresh()
            let ui = try frontEnd(kind, mirror: true)
            ui.resize(columns: 80, rows: 24)
            for name in [ScreenName.retry, .success] {
                ui.renderNow(capture(0), preview: frame(0), photo: nil)
                _ = newOutput()
                let model = ScreenSamples.model(name)
                ui.renderNow(model, preview: nil, photo: ShownPhoto(split, generation: 1))
                let bytes = newOutput()
                let rect = try XCTUnwrap(
                    ScreenLayout(
                        model, columns: 80, rows: 24, unicode: true,
                        pictureSize: (640, 480)
                    ).picture)
                let text = String(decoding: bytes, as: UTF8.self)
                XCTAssertEqual(
                    count(kind == .kitty ? "a=T" : "\u{1B}P9;1q", in: bytes), 1, "\(kind) \(name): one image")
                XCTAssertTrue(
                    text.contains("\u{1B}7\u{1B}[\(rect.y + 1);\(rect.x + 1)H"), "\(kind) \(name): placed at \(rect)")
                XCTAssertEqual(previewCells(in: bytes), 0, "\(kind) \(name): no preview cells under the image")
                if kind == .sixel {
                    let image = try sixel(in: bytes)
                    XCTAssertEqual(image.width, rect.width * 10)
                    func level(_ x: Int) -> Int { SixelEncoder.percentages(max(0, image[x, image.height / 2])).r }
                    XCTAssertLessThan(level(image.width / 10), level(image.width * 9 / 10), "the photo is not mirrored")
                }
                // The same screen again (a countdown's second): the image stays, nothing of it is sent again.
                ui.renderNow(model, preview: nil, photo: ShownPhoto(split, generation: 1))
                XCTAssertEqual(
                    count(kind == .kitty ? "a=T" : "\u{1B}P9;1q", in: newOutput()), 0, "\(kind) \(name): kept")
                // Back to the capture: the thumbnail goes, the preview's image comes.
                ui.renderNow(capture(1), preview: frame(1), photo: nil)
                let back = newOutput()
                XCTAssertEqual(
                    count(kind == .kitty ? "a=d,d=I" : "\u{1B}[2J", in: back), 1, "\(kind): the thumbnail removed")
                XCTAssertEqual(count(kind == .kitty ? "a=T" : "\u{1B}P9;1q", in: back), 1, "\(kind): the preview drawn")
            }
            ui.close()
        }
    }

    /// A photo screen drawn again (a countdown's second, a key) renders its photo once, in cells and as an image,
    /// until the photo or its rectangle changes (issue 18: it was rendered at pixel resolution on every render
    /// only to find the bytes unchanged).
    func testAPhotoScreenRendersItsPhotoOnceUntilThePhotoOrItsPlaceChanges() throws {
        let photo = frame(0), other = frame(7)
        for kind in [GraphicsProtocol?.none, .sixel, .kitty] {
            fresh()
            let ui = try frontEnd(kind)
            ui.resize(columns: 80, rows: 24)
            var model = ScreenSamples.model(.retry)
            model.countdown = "Again in 6 s"
            ui.renderNow(model, preview: nil, photo: ShownPhoto(photo, generation: 1))
            XCTAssertEqual(ui.photoRenders, 1, "\(String(describing: kind))")
            for second in 0..<5 {
                var next = model
                next.countdown = "Again in \(5 - second) s"
                ui.renderNow(next, preview: nil, photo: ShownPhoto(photo, generation: 1))
            }
            XCTAssertEqual(ui.photoRenders, 1, "\(String(describing: kind)): redrawn, not rendered again")
            // A copy of the same photo is the same photo: the session's generation says which photo it is.
            let copy = Frame(
                format: photo.format, width: photo.width, height: photo.height,
                colorRange: photo.colorRange, timestamp: photo.timestamp, data: photo.data)
            ui.renderNow(model, preview: nil, photo: ShownPhoto(copy, generation: 1))
            XCTAssertEqual(ui.photoRenders, 1, "\(String(describing: kind))")
            ui.resize(columns: 100, rows: 32)
            XCTAssertEqual(ui.photoRenders, 2, "\(String(describing: kind)): a resize renders it again")
            ui.renderNow(model, preview: nil, photo: ShownPhoto(photo, generation: 1))
            XCTAssertEqual(ui.photoRenders, 2, "\(String(describing: kind))")
            ui.renderNow(model, preview: nil, photo: ShownPhoto(other, generation: 2))
            XCTAssertEqual(ui.photoRenders, 3, "\(String(describing: kind)): another photo")
            // A new photo whose pixels equal the last one's is still a new photo: the generation says so.
            ui.renderNow(model, preview: nil, photo: ShownPhoto(other, generation: 3))
            XCTAssertEqual(ui.photoRenders, 4, "\(String(describing: kind)): a new generation")
            if kind != nil {
                // Behind the help the photo is drawn in cells (once), and back as an image without a new render.
                var help = model
                help.showsHelp = true
                help.helpLines = ["q  quit"]
                ui.renderNow(help, preview: nil, photo: ShownPhoto(other, generation: 3))
                XCTAssertEqual(ui.photoRenders, 5)
                _ = newOutput()
                ui.renderNow(model, preview: nil, photo: ShownPhoto(other, generation: 3))
                XCTAssertEqual(ui.photoRenders, 5)
                XCTAssertEqual(count(kind == .kitty ? "a=T" : "\u{1B}P9;1q", in: newOutput()), 1, "the image is back")
            }
            ui.close()
        }
    }

    /// The photo's image over the cells the preview takes next goes at once (issue 18: Retry → the capture at the
    /// same rectangle left the photo on screen until the first camera frame); the preview's own image stays.
    func testThePhotoGoesWhenThePreviewTakesItsRectangle() {
        let rect = CellRect(x: 10, y: 1, width: 60, height: 20)
        let toLive = ImagePicture.plan(
            shown: rect, shownIsPhoto: true, wanted: rect, isPhoto: false,
            stale: false, hasFrame: false)
        XCTAssertTrue(toLive.remove, "the photo goes")
        XCTAssertNil(toLive.draw, "no frame yet: nothing drawn")
        let live = ImagePicture.plan(
            shown: rect, shownIsPhoto: false, wanted: rect, isPhoto: false,
            stale: false, hasFrame: false)
        XCTAssertFalse(live.remove, "the preview's own image stays until the next frame")
        XCTAssertEqual(live.draw, rect, "kept where it is")
        let toPhoto = ImagePicture.plan(
            shown: rect, shownIsPhoto: false, wanted: rect, isPhoto: true,
            stale: false, hasFrame: false)
        XCTAssertTrue(toPhoto.remove)
        XCTAssertEqual(toPhoto.draw, rect)
    }

    func testTheImageIsMirroredWhenThePreviewIs() throws {
        // A frame dark on the left half, light on the right.
        var rgb = [UInt8](repeating: 0, count: 640 * 480 * 3)
        for y in 0..<480 { for x in 320..<640 { for c in 0..<3 { rgb[(y * 640 + x) * 3 + c] = 240 } } }
        let split = Frame(format: .rgb24, width: 640, height: 480, data: rgb)
        var results: [Bool: (left: Int, right: Int)] = [:]
        for mirror in [true, false] {
            fresh()
            let ui = try frontEnd(.sixel, mirror: mirror)
            ui.resize(columns: 80, rows: 24)
            _ = newOutput()
            var model = ScreenSamples.model(.capture)
            model.picture = .livePreview(oval: .searching, stability: 0)
            ui.renderNow(model, preview: split, photo: nil)
            let bytes = newOutput()
            let image = try sixel(in: bytes)
            // Brightness register levels at a pixel a tenth in from either side, mid-height.
            func level(_ x: Int) -> Int { SixelEncoder.percentages(max(0, image[x, image.height / 2])).r }
            results[mirror] = (level(image.width / 10), level(image.width * 9 / 10))
            ui.close()
        }
        XCTAssertLessThan(results[false]!.left, results[false]!.right, "unmirrored: dark left")
        XCTAssertGreaterThan(results[true]!.left, results[true]!.right, "mirrored: dark right")
    }

    /// Bytes and time per preview frame of a moving face at 80×24, cells (256 colours), sixel and kitty
    /// (10×20-pixel cells): the figures the README quotes.
    func testBytesAndTimePerFrameOfEachMode() throws {
        var figures: [String: (bytes: Int, milliseconds: Double)] = [:]
        for kind in [GraphicsProtocol?.none, .sixel, .kitty] {
            fresh()
            let ui = try frontEnd(kind)
            ui.resize(columns: 80, rows: 24)
            ui.renderNow(capture(0), preview: frame(0), photo: nil)
            _ = newOutput()
            var sizes: [Int] = [], times: [Double] = []
            let frames = (1...30).map(frame)
            for (i, f) in frames.enumerated() {
                let start = SystemClock().now()
                ui.renderNow(capture(i + 1), preview: f, photo: nil)
                times.append(SystemClock().now() - start)
                sizes.append(newOutput().count)
            }
            // A still scene: the same frame again (the first time it is new).
            ui.renderNow(capture(31), preview: frames.last!, photo: nil)
            _ = newOutput()
            for _ in 0..<3 { ui.renderNow(capture(31), preview: frames.last!, photo: nil) }
            let still = newOutput().count / 3
            ui.close()
            let name = kind?.rawValue ?? "cells"
            figures[name] = (sizes.sorted()[sizes.count / 2], times.sorted()[times.count / 2] * 1000)
            print(
                "80×24 \(name): median \(figures[name]!.bytes) bytes and \(String(format: "%.2f", figures[name]!.milliseconds)) ms "
                    + "per moving frame; \(still) bytes per still frame")
            XCTAssertLessThan(still, 1024, "\(name): a still scene stays under 1 KB a frame")
        }
        XCTAssertLessThanOrEqual(figures["cells"]!.bytes, 16 * 1024)
        XCTAssertGreaterThan(figures["sixel"]!.bytes, figures["cells"]!.bytes, "pixels cost more bytes than cells")
    }
}
