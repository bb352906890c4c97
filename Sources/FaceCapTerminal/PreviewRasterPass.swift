// One frame's pass of PreviewRaster over its cell grid: each cell's pixels sampled, coloured, and the cell's symbol.

import FaceCapCore

/// The colour of each preview pixel of the picture (not of the oval's outline), in the frame's pass: the tone gain
/// and the dimmed surround applied, then the palette colour by the palette's dither. A pixel keeps the colour it
/// showed until its input moves further than the palette's hysteresis. With shade cells or shade mixes a pixel's
/// colour is left to its cell (`deferred`).
struct PixelColours {
    /// A pixel whose colour its cell chooses, once both its pixels are read (`ShadeCells`, `ShadeMixer`).
    static let deferred: Int32 = -3

    let quantiser: Quantiser
    let dither: ErrorDiffusion
    let palette: PreviewPalette
    /// Cells chosen whole (`ShadeCells`) / a cell may be a shade mix (`ShadeMixer`).
    let shadeCells: Bool, mixes: Bool
    /// Whether a dark face is brightened (`PreviewRaster.toneMaps`), by `gain`; the face region it is measured on.
    let toneMaps: Bool, gain: Float
    let faceRegion: UnsafeMutableBufferPointer<Bool>
    /// Without colour: the brightness histogram the ramp's stretch is taken from.
    let histogram: UnsafeMutableBufferPointer<Int>
    let monochrome: Bool, diffuses: Bool

    init(
        quantiser: Quantiser, dither: ErrorDiffusion, palette: PreviewPalette, shadeCells: Bool, mixes: Bool,
        toneMaps: Bool, gain: Float, storage: RasterStorage
    ) {
        self.quantiser = quantiser
        self.dither = dither
        self.palette = palette
        self.shadeCells = shadeCells
        self.mixes = mixes
        self.toneMaps = toneMaps
        self.gain = gain
        faceRegion = storage.faceRegion
        histogram = storage.histogram
        monochrome = palette == .monochrome
        diffuses = palette.diffuses
    }

    /// `rgb` as the pixel at `index` (mask `m`) is drawn: brightened by the tone gain, darkened outside the oval;
    /// counted in the face region's light (`face`) and, without colour, in the histogram.
    @inline(__always)
    func adjusted(_ rgb: SIMD3<Float>, mask m: Int16, at index: Int, face: inout FaceLight) -> SIMD3<Float> {
        var rgb = rgb
        if toneMaps {
            let l = ColourSpace.linear(rgb)
            if faceRegion[index] {
                face.luminance += 0.2126 * l.x + 0.7152 * l.y + 0.0722 * l.z
                face.count += 1
            }
            if gain > 1 {
                let b = l * gain
                rgb = SIMD3(ColourSpace.srgb(b.x), ColourSpace.srgb(b.y), ColourSpace.srgb(b.z))
            }
        }
        if m == -2 { rgb *= 0.6 }
        if monochrome {
            let luma = 0.299 * rgb.x + 0.587 * rgb.y + 0.114 * rgb.z
            histogram[Int(max(0, min(255, luma)))] += 1
        }
        return rgb
    }

    /// The colour of the pixel at `index` (`column`, row `py`, mask `m`) for its adjusted `rgb`, or `deferred`.
    /// `upperHalf`: the upper pixel of a half-block cell.
    @inline(__always)
    func colour(_ rgb: SIMD3<Float>, mask m: Int16, at index: Int, column: Int, py: Int, upperHalf: Bool) -> Int32 {
        if shadeCells || (mixes && m != -2) { return Self.deferred }
        if diffuses && m != -2 {
            return dither.colour(rgb, at: index, column: column, py: py, upperHalf: upperHalf)
        }
        let shown = dither.shown, lastInput = dither.lastInput, hysteresis = dither.hysteresis
        let d = rgb - lastInput[index]
        if shown[index] >= 0, (d * d).sum() <= hysteresis * hysteresis { return shown[index] }
        // Outside the oval the dimmed surround is flat (the nearest colour): calm, so the eye goes to the face.
        let colour = m == -2 && !monochrome ? quantiser.nearest(rgb) : quantiser.dither(rgb, x: column, y: py)
        shown[index] = colour
        lastInput[index] = rgb
        return colour
    }

    /// The pixel at `index` shows the outline: the picture under it is quantised afresh when it shows again.
    @inline(__always)
    func forget(_ index: Int) { dither.shown[index] = -1 }
}

/// The face region's luminance (linear) summed over a frame, and its pixel count: the tone gain's measure.
struct FaceLight {
    var luminance: Float = 0
    var count = 0
}

/// What makes a cell once its pixels are read and coloured (`RasterPass`): `colours` are its pixels' colours
/// (`PixelColours.deferred`: the picture's, left to the cell), `halves` the picture's colours of its two pixels,
/// `outside`: both lie in the dimmed surround. One per palette and mode, chosen once a frame: `SymbolCells`,
/// `ShadeMixer` (256 colours), `ShadeCells` (16 and 8 colours).
protocol CellChoice {
    func cell(
        row: Int, column: Int, colours: (Int32, Int32), halves: (SIMD3<Float>, SIMD3<Float>), guideCell: Bool,
        outside: Bool
    ) -> PreviewCell
}

/// Walks the cell grid for one frame: samples each cell's pixels (`GridSampler`), draws the oval's outline over
/// them (`OvalGuide`), colours the rest (`PixelColours`), and makes the cell (a `CellChoice`).
struct RasterPass<Source: PixelSource> {
    let sampler: GridSampler<Source>
    let guide: OvalGuide
    let pixels: PixelColours
    let mask: UnsafeMutableBufferPointer<Int16>
    let pixelsWide: Int
    /// Pixels a cell: 2 with half blocks, else 1.
    let perCell: Int

    /// Draws every cell into `cells` (`rows` rows), each made by `choice`; returns the face region's light in the
    /// frame.
    func draw<Choice: CellChoice>(
        with choice: Choice, into cells: UnsafeMutableBufferPointer<PreviewCell>,
        rows: Int
    ) -> FaceLight {
        var face = FaceLight()
        for row in 0..<rows {
            for column in 0..<pixelsWide {
                cells[row * pixelsWide + column] = cell(row: row, column: column, choice: choice, face: &face)
            }
        }
        return face
    }

    /// The cell at `row`, `column`.
    @inline(__always)
    private func cell<Choice: CellChoice>(row: Int, column: Int, choice: Choice, face: inout FaceLight) -> PreviewCell {
        var colours = (Int32(-1), Int32(-1))
        var guideCell = false
        // With shade cells or mixes: each half's picture colour, for the cell to choose from.
        var halves = (SIMD3<Float>.zero, SIMD3<Float>.zero)
        var outside = true
        for half in 0..<perCell {
            let py = row * perCell + half
            let index = py * pixelsWide + column
            let m = mask[index]
            var colour: Int32
            if let g = guide.colour(mask: m) {
                colour = pixels.quantiser.nearest(g)
                guideCell = true
                pixels.forget(index)
            } else {
                let rgb = pixels.adjusted(sampler.rgb(column: column, py: py), mask: m, at: index, face: &face)
                colour = pixels.colour(
                    rgb, mask: m, at: index, column: column, py: py,
                    upperHalf: perCell == 2 && half == 0)
                if colour == PixelColours.deferred {
                    if half == 0 { halves.0 = rgb } else { halves.1 = rgb }
                    if m != -2 { outside = false }
                }
            }
            if half == 0 { colours.0 = colour } else { colours.1 = colour }
        }
        return choice.cell(
            row: row, column: column, colours: colours, halves: halves, guideCell: guideCell,
            outside: outside)
    }
}

/// Cells whose pixels chose their own colours: with half blocks "▀", foreground the upper pixel's colour. One pixel a
/// cell: without colour, the ramp character of its level (`colours.0`); in colour, a space on its colour; "o" on the
/// oval's outline.
struct SymbolCells: CellChoice {
    let perCell: Int
    let monochrome: Bool
    /// `PreviewRaster.ramp`.
    let ramp: [UInt8]

    @inline(__always)
    func cell(
        row: Int, column: Int, colours: (Int32, Int32), halves: (SIMD3<Float>, SIMD3<Float>), guideCell: Bool,
        outside: Bool
    ) -> PreviewCell {
        if perCell == 2 {
            return PreviewCell(character: "▀", foreground: colours.0, background: colours.1, isGuide: guideCell)
        }
        if monochrome {
            let character = guideCell ? Unicode.Scalar("o") : Unicode.Scalar(ramp[Int(colours.0)])
            return PreviewCell(character: character, isGuide: guideCell)
        }
        return PreviewCell(
            character: guideCell ? "o" : " ", foreground: colours.0, background: colours.0,
            isGuide: guideCell)
    }
}
