// In 256 colours with UTF-8: whether a cell is one shade mix of two palette colours or a half block of two.

import FaceCapCore

/// In 256 colours with shade mixes (`PreviewPalette.mixes`): decides each cell inside the picture whole, once both
/// its pixels are read. A cell that showed a mix keeps it while its input has not moved, one that showed a half
/// block keeps that; otherwise a cell whose two pixels are within `PreviewRaster.mixCloseness` of each other is
/// drawn as the mix nearest what the two want (their own colours plus the error carried to them), and passes on
/// what each of them then misses, as two pixels would. The other cells are half blocks under the error diffusion.
struct ShadeMixer: CellChoice {
    let tables: PaletteTables
    let dither: ErrorDiffusion
    /// The mix of each 5-bit colour key (`RasterStorage.mixOfKey`).
    let mixOfKey: UnsafeMutableBufferPointer<Int32>

    @inline(__always)
    func cell(
        row: Int, column: Int, colours: (Int32, Int32), halves: (SIMD3<Float>, SIMD3<Float>), guideCell: Bool,
        outside: Bool
    ) -> PreviewCell {
        let upper = 2 * row * dither.pixelsWide + column, lower = upper + dither.pixelsWide
        if !guideCell && colours.0 == -3 && colours.1 == -3,
            let code = mix(halves, upper: upper, lower: lower, column: column, row: row)
        {
            return tables.cell(ofMix: code)
        }
        var colours = colours
        if colours.0 == -3 {
            colours.0 = dither.colour(halves.0, at: upper, column: column, py: 2 * row, upperHalf: true)
        }
        if colours.1 == -3 {
            colours.1 = dither.colour(halves.1, at: lower, column: column, py: 2 * row + 1, upperHalf: false)
        }
        return PreviewCell(character: "▀", foreground: colours.0, background: colours.1, isGuide: guideCell)
    }

    /// The mix the cell whose pixels are at `upper` and `lower` is drawn with, or nil when it stays a half block.
    @inline(__always)
    private func mix(_ halves: (SIMD3<Float>, SIMD3<Float>), upper: Int, lower: Int, column: Int, row: Int) -> Int32? {
        let shown = dither.shown, lastInput = dither.lastInput, diffusion = dither.diffusion
        let hysteresis = dither.hysteresis
        let rgb = (halves.0 + halves.1) / 2
        let d = rgb - lastInput[upper]
        let own0 = ColourSpace.linear(halves.0), own1 = ColourSpace.linear(halves.1)
        var code: Int32
        if shown[upper] >= PaletteTables.mixFlag, (d * d).sum() <= hysteresis * hysteresis {
            code = shown[upper]
        } else {
            if shown[upper] >= 0, shown[upper] < PaletteTables.mixFlag, shown[lower] >= 0 {
                let d0 = halves.0 - lastInput[upper], d1 = halves.1 - lastInput[lower]
                if (d0 * d0).sum() <= hysteresis * hysteresis,
                    (d1 * d1).sum() <= hysteresis * hysteresis
                {
                    return nil
                }
            }
            let apart = ColourSpace.lab(linear: own0) - ColourSpace.lab(linear: own1)
            guard (apart * apart).sum() <= PreviewRaster.mixCloseness * PreviewRaster.mixCloseness else { return nil }
            code = 0
        }
        let reach = SIMD3<Float>(repeating: PreviewRaster.errorReach)
        let wanted0 = (own0 + diffusion[upper]).clamped(lowerBound: -reach, upperBound: 1 + reach)
        let wanted1 = (own1 + diffusion[lower]).clamped(lowerBound: -reach, upperBound: 1 + reach)
        if code == 0 {
            code = newMix(wanted: (wanted0 + wanted1) / 2, own: (own0 + own1) / 2)
            shown[upper] = code
            lastInput[upper] = rgb
            shown[lower] = -1
        }
        // Each pixel's error as if it were drawn in the mix: the upper one's to the right and, through the lower
        // one, down.
        let mix = tables.linear(ofMix: code)
        let e0 = wanted0 - mix, e1 = wanted1 - mix + e0 * (8.0 / 16)
        if column + 1 < dither.pixelsWide {
            diffusion[upper + 1] += e0 * (7.0 / 16)
            diffusion[lower + 1] += e0 * (1.0 / 16)
        }
        ErrorDiffusion.spread(
            e1, at: lower, width: dither.pixelsWide, column: column,
            below: 2 * row + 2 < dither.pixelsHigh, into: diffusion)
        return code
    }

    /// The mix for a cell that wants `wanted` (linear light), whose own colour is `own`. The key's mix is the best
    /// for the key's colour, up to 4 levels a channel from this one: the palette colour nearest this one is taken
    /// when it is nearer (a grey of the ramp is drawn as itself).
    @inline(__always)
    private func newMix(wanted: SIMD3<Float>, own: SIMD3<Float>) -> Int32 {
        let key = tables.key(linear: wanted)
        if mixOfKey[key] == 0 { mixOfKey[key] = tables.shadeMix(key: key) }
        var code = mixOfKey[key]
        if code >> 16 & 255 != 0 {
            let plain = tables.diffusionEntry(wanted: wanted, own: own)
            let lab = ColourSpace.lab(linear: wanted.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
            let p = tables.labs[plain] - lab
            let m = ColourSpace.lab(linear: tables.linear(ofMix: code)) - lab
            if (p * p).sum() <= (m * m).sum() {
                code = PaletteTables.mixFlag | Int32(plain) << 8 | Int32(plain)
            }
        }
        return code
    }
}
