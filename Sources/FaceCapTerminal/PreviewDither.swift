// The preview's error diffusion (Floyd–Steinberg in linear light): chafa's `chafa_dither_color`, one call a pixel.

import FaceCapCore

/// Error diffusion over the preview's pixels, in 256 colours: the colour nearest what a pixel wants plus the error
/// the pixels before it left. A pixel whose input has not moved keeps its colour (and passes on the error it now
/// leaves), so a still scene repaints nothing and nothing cascades. The carried error may take a channel a little
/// below 0 (or above 1, `PreviewRaster.errorReach`): clamped at the ends, the error a dark pixel owes was dropped,
/// and dark skin came out bluer (hue 7° off, 4.9-5.4 ΔE).
struct ErrorDiffusion {
    let quantiser: Quantiser
    /// The raster's storage (`RasterStorage`): what each pixel showed and was worked out from, and the error each
    /// receives.
    let shown: UnsafeMutableBufferPointer<Int32>
    let lastInput: UnsafeMutableBufferPointer<SIMD3<Float>>
    let diffusion: UnsafeMutableBufferPointer<SIMD3<Float>>
    let hysteresis: Float
    let pixelsWide: Int, pixelsHigh: Int

    /// The colour of the pixel at `index` (`column`, row `py`) for `rgb`, its error shared out to the pixels after
    /// it. `upperHalf`: the upper pixel of a half-block cell, whose lower pixel comes next (then the next column),
    /// so no error goes down-left.
    @inline(__always)
    func colour(_ rgb: SIMD3<Float>, at index: Int, column: Int, py: Int, upperHalf: Bool) -> Int32 {
        let own = ColourSpace.linear(rgb)
        let wanted = (own + diffusion[index])
            .clamped(
                lowerBound: SIMD3(repeating: -PreviewRaster.errorReach),
                upperBound: SIMD3(repeating: 1 + PreviewRaster.errorReach))
        let d = rgb - lastInput[index]
        let colour: Int32
        // (A mix code in `shown` is a shade cell's, not this pixel's colour.)
        if shown[index] >= 0, shown[index] < PaletteTables.mixFlag, (d * d).sum() <= hysteresis * hysteresis {
            colour = shown[index]
        } else {
            colour = quantiser.nearest(linear: wanted, own: own)
            shown[index] = colour
            lastInput[index] = rgb
        }
        let e = wanted - quantiser.linear(of: colour)
        let right = column + 1 < pixelsWide
        if upperHalf {
            if right { diffusion[index + 1] += e * (7.0 / 16) }
            diffusion[index + pixelsWide] += e * (8.0 / 16)
            if right { diffusion[index + pixelsWide + 1] += e * (1.0 / 16) }
        } else {
            Self.spread(e, at: index, width: pixelsWide, column: column, below: py + 1 < pixelsHigh, into: diffusion)
        }
        return colour
    }

    /// Floyd–Steinberg: `e`, the error left at `index` (in a grid `width` wide, at `column`), shared out to the
    /// right (7/16) and, when there is a row `below`, down-left (3/16), down (5/16) and down-right (1/16); one
    /// spread for the pixels, the shade mixes and the shade cells.
    @inline(__always)
    static func spread(
        _ e: SIMD3<Float>, at index: Int, width: Int, column: Int, below: Bool,
        into diffusion: UnsafeMutableBufferPointer<SIMD3<Float>>
    ) {
        let right = column + 1 < width
        if right { diffusion[index + 1] += e * (7.0 / 16) }
        guard below else { return }
        let next = index + width
        if column > 0 { diffusion[next - 1] += e * (3.0 / 16) }
        diffusion[next] += e * (5.0 / 16)
        if right { diffusion[next + 1] += e * (1.0 / 16) }
    }
}
