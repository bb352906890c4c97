import FaceCapCore
import XCTest

@testable import FaceCapTerminal

final class PreviewRasterTests: XCTestCase {
    /// The colour of preview pixel (x, y): the upper or lower half of a half-block cell.
    private func pixel(_ raster: PreviewRaster, _ x: Int, _ y: Int) -> Int32 {
        let cell = raster[x, y / 2]
        return y % 2 == 0 ? cell.foreground : cell.background
    }

    func testMirroringMovesALeftSidePatchToTheRight() {
        var rgb = [UInt8](repeating: 10, count: 64 * 48 * 3)
        for y in 16..<32 { for x in 4..<16 { for c in 0..<3 { rgb[(y * 64 + x) * 3 + c] = 250 } } }
        let frame = TestFrames.encode(rgb, width: 64, height: 48, format: .yuyv)
        func brightColumns(mirror: Bool) -> [Int] {
            var raster = PreviewRaster(palette: .truecolor, unicode: true, mirror: mirror)
            raster.render(frame, columns: 32, rows: 12)
            return (0..<32).filter { x in (0..<24).contains { y in pixel(raster, x, y) >= 0xF00000 } }
        }
        XCTAssertEqual(brightColumns(mirror: false), Array(2..<8))
        XCTAssertEqual(brightColumns(mirror: true), Array(24..<30))
    }

    func testFitKeepsTheFramesAspect() {
        let area = CellRect(x: 3, y: 2, width: 80, height: 22)
        let wide = PreviewRaster.fit(frameWidth: 640, frameHeight: 480, in: area)
        // Cells are twice as tall as wide: 4:3 in pixels is width / (2 · height) in cells.
        XCTAssertEqual(Double(wide.width) / Double(2 * wide.height), 4.0 / 3.0, accuracy: 0.05)
        XCTAssertEqual(wide.height, 22)
        XCTAssertTrue(area.contains(wide))
        let square = PreviewRaster.fit(frameWidth: 600, frameHeight: 600, in: area)
        XCTAssertEqual(square.width, 2 * square.height)
        let tall = PreviewRaster.fit(
            frameWidth: 480, frameHeight: 640,
            in: CellRect(x: 0, y: 0, width: 200, height: 10))
        XCTAssertEqual(Double(tall.width) / Double(2 * tall.height), 0.75, accuracy: 0.1)
        for size in [(1, 1), (3, 1), (1, 7), (0, 5)] {
            let r = PreviewRaster.fit(
                frameWidth: 640, frameHeight: 480,
                in: CellRect(x: 0, y: 0, width: size.0, height: size.1))
            XCTAssertTrue(CellRect(x: 0, y: 0, width: size.0, height: size.1).contains(r), "\(size) → \(r)")
        }
    }

    func testACircleStaysRound() {
        // A white disc of radius 120 in a 640×480 frame, drawn at the aspect-correct size.
        var rgb = [UInt8](repeating: 0, count: 640 * 480 * 3)
        for y in 0..<480 {
            for x in 0..<640 where (x - 320) * (x - 320) + (y - 240) * (y - 240) <= 120 * 120 {
                for c in 0..<3 { rgb[(y * 640 + x) * 3 + c] = 255 }
            }
        }
        let frame = TestFrames.encode(rgb, width: 640, height: 480, format: .yuv420p)
        let rect = PreviewRaster.fit(frameWidth: 640, frameHeight: 480, in: CellRect(x: 0, y: 0, width: 80, height: 22))
        var raster = PreviewRaster(palette: .truecolor, unicode: true, mirror: true)
        raster.render(frame, columns: rect.width, rows: rect.height)
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<(rect.height * 2) {
            for x in 0..<rect.width where pixel(raster, x, y) > 0x808080 {
                xs.append(x)
                ys.append(y)
            }
        }
        let width = xs.max()! - xs.min()! + 1, height = ys.max()! - ys.min()! + 1
        XCTAssertLessThanOrEqual(abs(width - height), 1, "disc drawn \(width)×\(height) pixels")
    }

    /// The wall colour of `TestFrames.solid(0, 0, 128)` in truecolor; any other pixel is the guide.
    private let wall: Int32 = 0x000084

    func testTheOvalIsWhereTheAnalyzerWantsTheFace() throws {
        let frame = TestFrames.solid(0, 0, 128, width: 640, height: 480)
        func guidePixels(mirror: Bool, thresholds: AnalyzerThresholds) -> [(x: Int, y: Int)] {
            var raster = PreviewRaster(palette: .truecolor, unicode: true, mirror: mirror)
            raster.render(
                frame, columns: 80, rows: 30,
                overlay: PreviewOverlay(
                    state: .searching, stability: 0, thresholds: thresholds,
                    dimsOutside: false))
            var points: [(Int, Int)] = []
            for y in 0..<60 { for x in 0..<80 where pixel(raster, x, y) != wall { points.append((x, y)) } }
            return points
        }
        let standard = guidePixels(mirror: true, thresholds: AnalyzerThresholds())
        XCTAssertFalse(standard.isEmpty)
        let minX = standard.map(\.x).min()!, maxX = standard.map(\.x).max()!
        let minY = standard.map(\.y).min()!, maxY = standard.map(\.y).max()!
        // 80 preview pixels across: the target face width is (0.28 + 0.52) / 2 of it, centred on (0.5, 0.5).
        XCTAssertEqual(Double(maxX - minX + 1), 0.4 * 80, accuracy: 2)
        XCTAssertEqual(Double(minX + maxX + 1) / 2, 40, accuracy: 1)
        XCTAssertEqual(Double(minY + maxY + 1) / 2, 30, accuracy: 1)
        XCTAssertEqual(Double(maxY - minY + 1), 0.4 * 80 * 1.25, accuracy: 2)

        var offCentre = AnalyzerThresholds()
        offCentre.ovalCentreX = 0.3
        func centreX(_ points: [(x: Int, y: Int)]) -> Double {
            Double(points.map(\.x).min()! + points.map(\.x).max()! + 1) / 2
        }
        XCTAssertEqual(centreX(guidePixels(mirror: false, thresholds: offCentre)), 0.3 * 80, accuracy: 1)
        // The preview is a mirror: a target left of centre in the camera's image is right of it on screen.
        XCTAssertEqual(centreX(guidePixels(mirror: true, thresholds: offCentre)), 0.7 * 80, accuracy: 1)
    }

    func testTheOvalFillsClockwiseWhileReadyHolds() {
        let frame = TestFrames.solid(0, 0, 128, width: 640, height: 480)
        func render(_ stability: Double) -> PreviewRaster {
            var raster = PreviewRaster(palette: .truecolor, unicode: true, mirror: true)
            raster.render(
                frame, columns: 80, rows: 30,
                overlay: PreviewOverlay(state: .ready, stability: stability, dimsOutside: false))
            return raster
        }
        // The top of the oval is filled first: its colour when full and when empty.
        let full = render(1), empty = render(0)
        let top = (0..<60).first { pixel(full, 40, $0) != wall } ?? 0
        let filled = pixel(full, 40, top), open = pixel(empty, 40, top)
        XCTAssertNotEqual(filled, open)
        XCTAssertNotEqual(open, wall)
        func count(stability: Double) -> (filled: [(Int, Int)], open: Int) {
            let raster = render(stability)
            var f: [(Int, Int)] = [], o = 0
            for y in 0..<60 {
                for x in 0..<80 {
                    let p = pixel(raster, x, y)
                    if p == filled { f.append((x, y)) } else if p == open { o += 1 }
                }
            }
            return (f, o)
        }
        XCTAssertTrue(count(stability: 0).filled.isEmpty)
        XCTAssertEqual(count(stability: 1).open, 0)
        let quarter = count(stability: 0.25)
        XCTAssertFalse(quarter.filled.isEmpty)
        // The first quarter, clockwise from the top, is the upper right of the oval.
        XCTAssertTrue(quarter.filled.allSatisfy { $0.0 >= 39 && $0.1 <= 30 }, "\(quarter.filled.prefix(8))")
        XCTAssertGreaterThan(count(stability: 0.5).filled.count, quarter.filled.count)
    }

    func testEveryPaletteQuantisesAsExpected() {
        let cases: [(PreviewPalette, (UInt8, UInt8, UInt8), Int32)] = [
            (.truecolor, (255, 0, 0), 0xFF0000),
            (.truecolor, (128, 128, 128), 0x848484),
            (.xterm256, (255, 0, 0), 196),
            (.xterm256, (118, 118, 118), 243),
            (.xterm256, (215, 135, 95), 173),
            (.xterm256, (0, 0, 0), 16),
            (.xterm256Reduced, (255, 0, 0), 196),
            (.xterm256Reduced, (175, 95, 95), 16 + 36 * 3 + 6 * 1 + 1),
            (.ansi16, (255, 0, 0), 9),
            (.ansi16, (0, 205, 0), 2),
            (.ansi16, (255, 255, 255), 15),
            (.ansi8, (205, 0, 0), 1),
            (.ansi8, (0, 0, 238), 4),
        ]
        for (palette, rgb, expected) in cases {
            var raster = PreviewRaster(palette: palette, unicode: true, mirror: false)
            raster.render(TestFrames.solid(rgb.0, rgb.1, rgb.2), columns: 4, rows: 2)
            XCTAssertEqual(raster[1, 1].foreground, expected, "\(palette) \(rgb)")
            XCTAssertEqual(raster[1, 1].background, expected, "\(palette) \(rgb)")
            XCTAssertEqual(raster[1, 1].character, "▀")
        }
        var mono = PreviewRaster(palette: .monochrome, unicode: true, mirror: false)
        mono.render(TestFrames.solid(255, 255, 255), columns: 4, rows: 2)
        XCTAssertEqual(mono[0, 0], PreviewCell(character: "B"))
        mono.render(TestFrames.solid(0, 0, 0, width: 63), columns: 4, rows: 2)
        XCTAssertEqual(mono[0, 0], PreviewCell(character: " "))
    }

    func testEveryPixelFormatGivesTheSameColour() {
        for format in PixelFormat.allCases {
            var raster = PreviewRaster(palette: .truecolor, unicode: true, mirror: true)
            raster.render(TestFrames.solid(200, 120, 100, width: 65, height: 49, format: format), columns: 7, rows: 3)
            let c = raster[3, 1].foreground
            let rgb = (Int(c >> 16 & 255), Int(c >> 8 & 255), Int(c & 255))
            if format == .gray {
                XCTAssertTrue(rgb.0 == rgb.1 && rgb.1 == rgb.2, "\(format): \(rgb)")
            } else {
                let error = max(abs(rgb.0 - 200), abs(rgb.1 - 120), abs(rgb.2 - 100))
                XCTAssertLessThanOrEqual(error, 12, "\(format): \(rgb)")
            }
        }
    }

    func testWithoutUTF8EveryCellIsASCII() {
        let frame = TestFrames.place(sergeyPhoto, noise: 3)
        for palette in PreviewPalette.allCases {
            var raster = PreviewRaster(palette: palette, unicode: false, mirror: true)
            XCTAssertFalse(raster.halfBlocks)
            raster.render(frame, columns: 60, rows: 20, overlay: PreviewOverlay(state: .adjusting, stability: 0.3))
            // Without colour a ramp character, brighter denser; with colour a space on the pixel's colour.
            XCTAssertTrue(
                raster.cells.allSatisfy {
                    $0.character.isASCII
                        && (palette == .monochrome ? $0.background == -1 : $0.background == $0.foreground)
                }, "\(palette)")
            XCTAssertTrue(raster.cells.contains { $0.isGuide && $0.character == "o" })
            // The light wall left of the face and the dark hair differ.
            if palette == .monochrome {
                XCTAssertGreaterThan(Set(raster.cells.map(\.character)).count, 4)
            } else {
                XCTAssertGreaterThan(Set(raster.cells.map(\.background)).count, 4, "\(palette)")
            }
        }
    }

    func testCameraNoiseRepaintsFewCells() {
        // The same picture with fresh ±4 noise: the hysteresis keeps almost every cell as it was.
        for palette in [PreviewPalette.xterm256, .truecolor, .ansi16] {
            var raster = PreviewRaster(palette: palette, unicode: true, mirror: true)
            raster.render(TestFrames.place(sergeyPhoto, noise: 4, seed: 1), columns: 50, rows: 19)
            let before = raster.cells
            raster.render(TestFrames.place(sergeyPhoto, noise: 4, seed: 2), columns: 50, rows: 19)
            let changed = zip(before, raster.cells).filter { $0 != $1 }.count
            XCTAssertLessThan(changed, before.count / 50, "\(palette): \(changed) of \(before.count) cells changed")
        }
    }

    func testRenderingAllocatesNothingOnceTheSizeIsSettled() {
        let frames = (0..<4).map { TestFrames.place(sergeyPhoto, dx: $0 * 8, noise: 3, seed: UInt64($0)) }
        var raster = PreviewRaster(palette: .xterm256, unicode: true, mirror: true)
        let overlay = PreviewOverlay(state: .ready, stability: 0.5)
        raster.render(frames[0], columns: 51, rows: 19, overlay: overlay)
        let storage = raster.storageAddresses
        for i in 0..<200 {
            raster.render(
                frames[i % 4], columns: 51, rows: 19,
                overlay: PreviewOverlay(state: .ready, stability: Double(i % 30) / 30))
        }
        // Every buffer is the one the first frame sized: none was reallocated or copied.
        XCTAssertEqual(raster.storageAddresses, storage)
    }

    /// The raster's storage is shared by its copies until one draws: a copy drawing another frame at another size
    /// leaves the original drawing as a raster of its own does.
    func testACopyDrawsWithoutDisturbingTheOriginal() {
        let frames = (0..<2).map { TestFrames.place(sergeyPhoto, dx: $0 * 8, noise: 3, seed: UInt64($0 + 1)) }
        for palette in [PreviewPalette.xterm256, .ansi16, .truecolor, .monochrome] {
            var original = PreviewRaster(palette: palette, unicode: true, mirror: true)
            var alone = PreviewRaster(palette: palette, unicode: true, mirror: true)
            original.render(frames[0], columns: 40, rows: 15)
            alone.render(frames[0], columns: 40, rows: 15)
            var copy = original
            copy.render(frames[1], columns: 64, rows: 24, overlay: PreviewOverlay(state: .ready, stability: 0.5))
            original.render(frames[1], columns: 40, rows: 15)
            alone.render(frames[1], columns: 40, rows: 15)
            XCTAssertEqual(original.cells.count, alone.cells.count, "\(palette)")
            XCTAssertEqual(
                zip(original.cells, alone.cells).filter { $0 != $1 }.count, 0, "cells that differ, \(palette)")
            XCTAssertEqual(copy.cells.count, 64 * 24)
        }
    }

    func testBadFramesAndSizesDrawNothingAndNeverCrash() {
        var raster = PreviewRaster(palette: .xterm256, unicode: true, mirror: true)
        let short = Frame(format: .yuyv, width: 640, height: 480, data: [UInt8](repeating: 0, count: 100))
        raster.render(short, columns: 10, rows: 4)
        XCTAssertTrue(raster.cells.allSatisfy { $0 == .blank })
        raster.render(Frame(format: .rgb24, width: 0, height: 0, data: []), columns: 10, rows: 4)
        XCTAssertTrue(raster.cells.allSatisfy { $0 == .blank })
        for (columns, rows) in [(0, 0), (1, 1), (1, 30), (300, 1), (-3, 2)] {
            raster.render(
                TestFrames.solid(9, 9, 9, width: 3, height: 2), columns: columns, rows: rows,
                overlay: PreviewOverlay(state: .capturing, stability: 2))
            XCTAssertEqual(raster.cells.count, max(0, columns) * max(0, rows))
        }
    }
}
