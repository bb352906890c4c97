import FaceCapCore
import XCTest

@testable import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// The preview looks like the person in every colour mode (issue 18's acceptance): measured against the
/// source frame by `PreviewFidelity`, at the preview sizes of an 80×24 and a 100×32 terminal.
final class PreviewFidelityTests: XCTestCase {
    private static let sizes = [(53, 20), (75, 28)]

    private func fidelity(
        _ palette: PreviewPalette, unicode: Bool = true, frame: Frame = FidelityFixtures.lightSkin,
        size: (Int, Int)
    ) -> PreviewFidelity {
        var raster = PreviewRaster(palette: palette, unicode: unicode, mirror: false)
        // Twice: the ramp's brightness range (no colour) is taken from the frame before.
        raster.render(frame, columns: size.0, rows: size.1)
        raster.render(frame, columns: size.0, rows: size.1)
        return PreviewFidelity.measure(raster, source: frame)
    }

    /// The fixture faces the acceptance's colour bounds hold on: light skin (sergey.png) and an older photo
    /// with its own colours (grace_hopper.jpg). Dark skin has its own test below.
    private static let faces: [(String, Frame)] = [
        ("light skin", FidelityFixtures.lightSkin),
        ("grace_hopper.jpg", FidelityFixtures.grace),
    ]

    func testColourErrorIn256And16ColoursStaysNearTruecolors() {
        // The acceptance: 256 colours at most 1.5 times truecolor's error, 16 colours at most 4 times (of
        // 2.3, one just-noticeable difference, where truecolor is better than that). With the ordered dither
        // 256 colours gave 3.1 and 4.1-4.2 here (grace_hopper.jpg over its 4.0 bound at 100×32's size); the
        // error diffusion, limited to colours near each pixel's own (no red specks), gives 2.6-2.8 and 3.2-3.4.
        for size in Self.sizes {
            for (name, frame) in Self.faces {
                let truecolor = fidelity(.truecolor, frame: frame, size: size)
                let reference = max(truecolor.colourError, 2.3)
                let c256 = fidelity(.xterm256, frame: frame, size: size)
                let c16 = fidelity(.ansi16, frame: frame, size: size)
                print("fidelity \(size), \(name): truecolor \(truecolor); 256 \(c256); 16 \(c16)")
                XCTAssertLessThanOrEqual(c256.colourError, 1.5 * reference, "\(name), 256 colours at \(size): \(c256)")
                XCTAssertLessThanOrEqual(c16.colourError, 4 * reference, "\(name), 16 colours at \(size): \(c16)")
                XCTAssertGreaterThanOrEqual(c256.lumaCorrelation, 0.9, "\(name), 256 colours at \(size): \(c256)")
            }
        }
    }

    func testDarkSkinKeepsItsColourIn256Colours() {
        // Dark skin lies where the 256-colour cube is sparsest (its levels are 0 and 95 below 135): with half
        // blocks alone, whatever mixed its hue mixed colours 23 ΔE or more from it, and what the slight blur left
        // of the pattern was the error, 4.2-4.5 ΔE against the acceptance's 1.5 × 2.3 = 3.45. The shade mixes of
        // two palette colours (`PaletteTables.shadeMix(key:)`) give the dark browns the cube lacks: 2.0-2.2.
        // Clamping the carried error at black dropped what dark pixels owed (4.9-5.4 ΔE, the hue 6-7° towards
        // blue); a little below black keeps the hue within 2°.
        for size in Self.sizes {
            let frame = FidelityFixtures.darkSkin
            let truecolor = fidelity(.truecolor, frame: frame, size: size)
            let c256 = fidelity(.xterm256, frame: frame, size: size)
            print("fidelity \(size), dark skin: truecolor \(truecolor); 256 \(c256)")
            XCTAssertLessThanOrEqual(
                c256.colourError, 1.5 * max(truecolor.colourError, 2.3), "256 colours at \(size): \(c256)")
            XCTAssertGreaterThanOrEqual(c256.lumaCorrelation, 0.9, "256 colours at \(size): \(c256)")
            XCTAssertLessThanOrEqual(c256.skinHue, 3, "256 colours at \(size): \(c256)")
            // The reduced 256 palette (ordered dither): 0.885-0.887.
            let reduced = fidelity(.xterm256Reduced, frame: frame, size: size)
            XCTAssertGreaterThanOrEqual(reduced.lumaCorrelation, 0.85, "reduced 256 at \(size): \(reduced)")
        }
    }

    func testADarkFaceKeepsItsColourAndShadingIn16Colours() {
        // The acceptance in 16 colours: at most 4 times truecolor's error (of 2.3 where truecolor is better) and
        // luma r 0.85, on dark skin too. Half blocks over the 16 colours left a dark face (L* 13-26) as sparse
        // dots: ΔE 12.9-13.3 (brightened by up to 1.6 for luma r 0.88-0.91, or 0.67-0.73 as it is). With the
        // shade glyphs' 376 cell colours (`ShadeTable`) it is drawn as it is: 8.5, luma r 0.92 (its skin hue is
        // 19° off, towards red: not an acceptance figure in 16 colours). Light faces: 3.9-5.3, 0.98-0.99.
        for size in Self.sizes {
            for (name, frame) in Self.faces + [("dark skin", FidelityFixtures.darkSkin)] {
                let reference = max(fidelity(.truecolor, frame: frame, size: size).colourError, 2.3)
                let c16 = fidelity(.ansi16, frame: frame, size: size)
                print("fidelity \(size), \(name), 16 colours: \(c16)")
                XCTAssertLessThanOrEqual(c16.colourError, 4 * reference, "\(name), 16 colours at \(size): \(c16)")
                XCTAssertGreaterThanOrEqual(c16.lumaCorrelation, 0.85, "\(name), 16 colours at \(size): \(c16)")
            }
        }
    }

    func testA16ColourTerminalWithoutUTF8StillBrightensADarkFace() {
        // Without UTF-8 there are no shade glyphs: a dark face is brightened before the dither (`toneGain`),
        // from its first frame on; a light one is left as it is.
        for size in Self.sizes {
            var raster = PreviewRaster(palette: .ansi16, unicode: false, mirror: false)
            raster.render(FidelityFixtures.darkSkin, columns: size.0, rows: size.1)
            XCTAssertGreaterThan(raster.toneGain, 1.4, "a dark face is brightened from its first frame on")
            var light = PreviewRaster(palette: .ansi16, unicode: false, mirror: false)
            light.render(FidelityFixtures.lightSkin, columns: size.0, rows: size.1)
            XCTAssertEqual(light.toneGain, 1)
            var shaded = PreviewRaster(palette: .ansi16, unicode: true, mirror: false)
            shaded.render(FidelityFixtures.darkSkin, columns: size.0, rows: size.1)
            XCTAssertEqual(shaded.toneGain, 1)
        }
    }

    func testShadeCellsMixTwoColours() {
        // A flat colour between two of the 16 (a dark brown) is drawn with shade glyphs, whose coverage mix the
        // fidelity measure counts; a palette colour itself is a half block of that colour.
        for (rgb, expectShade) in [((UInt8(60), UInt8(30), UInt8(20)), true), ((205, 0, 0), false)] {
            var data = [UInt8](repeating: 0, count: 64 * 48 * 3)
            for i in 0..<(64 * 48) { (data[3 * i], data[3 * i + 1], data[3 * i + 2]) = rgb }
            let frame = Frame(format: .rgb24, width: 64, height: 48, colorRange: .full, data: data)
            var raster = PreviewRaster(palette: .ansi16, unicode: true, mirror: false)
            raster.render(frame, columns: 32, rows: 12)
            let shades = raster.cells.filter { "░▒▓".unicodeScalars.contains($0.character) }.count
            if expectShade {
                // (Measured: 183 of 384 cells; the rest are black or dark red half blocks between them.)
                XCTAssertGreaterThan(shades, raster.cells.count / 4, "\(rgb)")
            } else {
                XCTAssertEqual(shades, 0, "\(rgb)")
                XCTAssertTrue(raster.cells.allSatisfy { $0.foreground == 1 && $0.background == 1 }, "\(rgb)")
            }
        }
    }

    func testShadeMixesIn256ColoursFillTheDarkEndOfTheCube() {
        // A flat dark brown, between the cube's levels 0 and 95, is drawn with shade glyphs mixing two palette
        // colours; a palette colour itself stays a half block of that colour; without UTF-8, and in the reduced
        // palette, there are no shade glyphs.
        func cells(_ rgb: (UInt8, UInt8, UInt8), palette: PreviewPalette = .xterm256, unicode: Bool = true)
            -> [PreviewCell]
        {
            var data = [UInt8](repeating: 0, count: 64 * 48 * 3)
            for i in 0..<(64 * 48) { (data[3 * i], data[3 * i + 1], data[3 * i + 2]) = rgb }
            var raster = PreviewRaster(palette: palette, unicode: unicode, mirror: false)
            raster.render(
                Frame(format: .rgb24, width: 64, height: 48, colorRange: .full, data: data), columns: 32, rows: 12)
            return raster.cells
        }
        func shades(_ cells: [PreviewCell]) -> Int {
            cells.filter { "░▒▓".unicodeScalars.contains($0.character) }.count
        }
        let brown = cells((60, 38, 26))
        XCTAssertGreaterThan(shades(brown), brown.count / 2)
        XCTAssertTrue(brown.allSatisfy { (16...255).contains($0.foreground) && (16...255).contains($0.background) })
        let red = cells((95, 0, 0))
        XCTAssertEqual(shades(red), 0)
        XCTAssertTrue(red.allSatisfy { $0.character == "▀" && $0.foreground == 52 && $0.background == 52 })
        XCTAssertEqual(shades(cells((60, 38, 26), unicode: false)), 0)
        XCTAssertEqual(shades(cells((60, 38, 26), palette: .xterm256Reduced)), 0)
    }

    func testADarkFaceIsRecognisableWithoutColour() {
        // The ASCII ramp is stretched to the picture's own brightness, so a dark face uses every character:
        // 0.96. Without UTF-8 (a space on its colour, one pixel a cell twice as tall as wide, 256 colours) a
        // dark face reaches 0.73-0.78, under the 0.85 the light faces meet (0.89-0.91): held here, not met.
        for size in Self.sizes {
            for (name, palette, unicode, limit) in [
                ("NO_COLOR", PreviewPalette.monochrome, true, 0.85),
                ("LANG=C, 256", .xterm256, false, 0.7),
            ] {
                let f = fidelity(palette, unicode: unicode, frame: FidelityFixtures.darkSkin, size: size)
                print("fidelity \(size), dark skin, \(name): \(f)")
                XCTAssertGreaterThanOrEqual(f.lumaCorrelation, limit, "\(name) at \(size): \(f)")
            }
        }
    }

    func testADarkFaceIn8Colours() {
        // 8 colours have black, a red (L* 43) and nothing between for a dark face (L* 13-26): with half blocks its
        // pattern hid the shading (luma r 0.47). The shade glyphs' 92 cell colours, a dark face brightened up to twice (`toneGain`), meet the
        // acceptance's 0.85.
        for size in Self.sizes {
            let f = fidelity(.ansi8, frame: FidelityFixtures.darkSkin, size: size)
            print("fidelity \(size), dark skin, 8 colours: \(f)")
            XCTAssertGreaterThanOrEqual(f.lumaCorrelation, 0.85, "8 colours at \(size): \(f)")
        }
    }

    func testSkinHueIsRightIn256ColoursOnLightAndDarkSkin() {
        for size in Self.sizes {
            for (name, frame) in Self.faces + [("dark skin", FidelityFixtures.darkSkin)] {
                let c256 = fidelity(.xterm256, frame: frame, size: size)
                XCTAssertLessThanOrEqual(c256.skinHue, 10, "\(name) at \(size): \(c256)")
                let reduced = fidelity(.xterm256Reduced, frame: frame, size: size)
                XCTAssertLessThanOrEqual(reduced.skinHue, 10, "\(name), reduced 256 at \(size): \(reduced)")
            }
        }
    }

    func testTheErrorDiffusionStaysStillWhereOnlyPartOfThePictureMoves() {
        // A pixel whose input has not moved keeps its colour even when the pixels before it changed: the
        // error they pass on changes, but no change runs on across the still part of the picture.
        var raster = PreviewRaster(palette: .xterm256, unicode: true, mirror: false)
        let still = FidelityFixtures.lightSkin
        raster.render(still, columns: 53, rows: 20)
        let before = raster.cells
        // The top-left quarter changes (a hand comes in); the rest of the frame is the same.
        var data = still.data
        for y in 0..<(still.height / 4) {
            for x in 0..<(still.width / 4) {
                for c in 0..<3 { data[(y * still.width + x) * 3 + c] = c == 0 ? 200 : 40 }
            }
        }
        raster.render(
            Frame(format: .rgb24, width: still.width, height: still.height, colorRange: .full, data: data),
            columns: 53, rows: 20)
        var changedOutside = 0
        for row in 0..<20 {
            for column in 0..<53 where row >= 6 || column >= 14 {
                if raster[column, row] != before[row * 53 + column] { changedOutside += 1 }
            }
        }
        XCTAssertEqual(changedOutside, 0, "cells outside the changed quarter")
    }

    func testTheFaceIsRecognisableInEveryMode() {
        for size in Self.sizes {
            let modes: [(String, PreviewPalette, Bool, Double)] = [
                ("256", .xterm256, true, 0.9), ("16", .ansi16, true, 0.85), ("8", .ansi8, true, 0.85),
                ("NO_COLOR", .monochrome, true, 0.85), ("LANG=C, 256", .xterm256, false, 0.85),
            ]
            for (name, palette, unicode, limit) in modes {
                let f = fidelity(palette, unicode: unicode, size: size)
                print("fidelity \(size) \(name): \(f)")
                XCTAssertGreaterThanOrEqual(f.lumaCorrelation, limit, "\(name) at \(size): \(f)")
            }
        }
    }

    func testTheThumbnailsAreTheSameRaster() {
        // The success and retry screens draw the photo through a PreviewRaster of the same palette, unmirrored:
        // a photo-sized thumbnail is as faithful as the preview.
        let photo = FidelityFixtures.lightSkin
        var raster = PreviewRaster(palette: .ansi16, unicode: true, mirror: false)
        raster.render(photo, columns: 32, rows: 12)
        let f = PreviewFidelity.measure(raster, source: photo)
        XCTAssertGreaterThanOrEqual(f.lumaCorrelation, 0.85, "\(f)")
    }

    func testTheDitherStaysStillOnAStillScene() {
        for palette in PreviewPalette.allCases {
            for unicode in [true, false] {
                var raster = PreviewRaster(palette: palette, unicode: unicode, mirror: true)
                raster.render(TestFrames.place(sergeyPhoto, noise: 3, seed: 1), columns: 53, rows: 20)
                raster.render(TestFrames.place(sergeyPhoto, noise: 3, seed: 2), columns: 53, rows: 20)
                let first = raster.cells
                var changed = 0
                for seed in 3..<33 {
                    raster.render(TestFrames.place(sergeyPhoto, noise: 3, seed: UInt64(seed)), columns: 53, rows: 20)
                    changed += zip(first, raster.cells).filter { $0 != $1 }.count
                }
                // Over a second of camera noise, fewer than one cell in a thousand per frame changes.
                XCTAssertLessThan(
                    Double(changed) / 30, Double(first.count) / 1000,
                    "\(palette) unicode \(unicode): \(changed) cell changes in 30 frames")
            }
        }
    }

    func testADarkFaceStaysStillIn16Colours() {
        // The tone gain comes from each frame's face region: camera noise must not move it (a gain that moves
        // repaints every cell). (Without UTF-8: with it, shade cells draw a dark face as it is.)
        var dark = sergeyPhoto
        let gains: [Float] = [0.48, 0.40, 0.32]
        for i in dark.data.indices { dark.data[i] = UInt8(Float(dark.data[i]) * gains[i % 3]) }
        var raster = PreviewRaster(palette: .ansi16, unicode: false, mirror: true)
        raster.render(TestFrames.place(dark, noise: 3, seed: 1), columns: 53, rows: 20)
        raster.render(TestFrames.place(dark, noise: 3, seed: 2), columns: 53, rows: 20)
        let first = raster.cells, gain = raster.toneGain
        XCTAssertGreaterThan(gain, 1.4)
        var changed = 0
        for seed in 3..<33 {
            raster.render(TestFrames.place(dark, noise: 3, seed: UInt64(seed)), columns: 53, rows: 20)
            XCTAssertEqual(raster.toneGain, gain)
            changed += zip(first, raster.cells).filter { $0 != $1 }.count
        }
        XCTAssertLessThan(Double(changed) / 30, Double(first.count) / 1000, "\(changed) cell changes in 30 frames")
    }

    func testShadeCellsStayStillOnAStillDarkFace() {
        // The error diffusion over shade cells: over a second of camera noise on a dark face, in 16 and 8
        // colours and with the shade mixes of 256 colours, fewer than one cell in a thousand per frame changes, and a repeated identical frame changes none.
        var dark = sergeyPhoto
        let gains: [Float] = [0.48, 0.40, 0.32]
        for i in dark.data.indices { dark.data[i] = UInt8(Float(dark.data[i]) * gains[i % 3]) }
        for palette in [PreviewPalette.ansi16, .ansi8, .xterm256] {
            var raster = PreviewRaster(palette: palette, unicode: true, mirror: true)
            raster.render(TestFrames.place(dark, noise: 3, seed: 1), columns: 53, rows: 20)
            raster.render(TestFrames.place(dark, noise: 3, seed: 2), columns: 53, rows: 20)
            let first = raster.cells
            XCTAssertTrue(first.contains { "░▒▓".unicodeScalars.contains($0.character) }, "\(palette)")
            var changed = 0
            for seed in 3..<33 {
                raster.render(TestFrames.place(dark, noise: 3, seed: UInt64(seed)), columns: 53, rows: 20)
                changed += zip(first, raster.cells).filter { $0 != $1 }.count
            }
            XCTAssertLessThan(Double(changed) / 30, Double(first.count) / 1000, "\(palette): \(changed) cell changes")
            let same = TestFrames.place(dark, noise: 3, seed: 40)
            raster.render(same, columns: 53, rows: 20)
            let before = raster.cells
            raster.render(same, columns: 53, rows: 20)
            XCTAssertEqual(before, raster.cells, "\(palette): an identical frame")
        }
    }

    func testEveryModeDithers() {
        // A smooth left-to-right ramp between two palette colours comes out as a mix of both, not a step.
        var rgb = [UInt8](repeating: 0, count: 64 * 48 * 3)
        for y in 0..<48 { for x in 0..<64 { for c in 0..<3 { rgb[(y * 64 + x) * 3 + c] = UInt8(30 + x) } } }
        let frame = Frame(format: .rgb24, width: 64, height: 48, colorRange: .full, data: rgb)
        for palette in [PreviewPalette.ansi16, .ansi8] {
            var raster = PreviewRaster(palette: palette, unicode: true, mirror: false)
            raster.render(frame, columns: 32, rows: 12)
            // A column in the middle of the ramp shows two colours, alternating down the column.
            let column = (0..<12).flatMap { [raster[16, $0].foreground, raster[16, $0].background] }
            XCTAssertGreaterThanOrEqual(Set(column).count, 2, "\(palette): \(column)")
        }
    }
}
