// The preview's palette matching and ordered dither (PreviewRaster's per-frame pass holds one).

import FaceCapCore

/// Palette matching with an ordered dither; a value copy so the per-frame loop can use it while it
/// writes the raster's own storage.
struct Quantiser {
    let palette: PreviewPalette
    let tables: PaletteTables
    let unicode: Bool
    let stretch: (low: Float, high: Float)
    /// The raster's candidate cache (see `RasterStorage.candidates`), and room for one key's working.
    let candidates: UnsafeMutableBufferPointer<UInt8>
    let known: UnsafeMutableBufferPointer<UInt64>
    let scratch: UnsafeMutableBufferPointer<Int>

    /// The single nearest colour (no dither), for the oval.
    @inline(__always)
    func nearest(_ rgb: SIMD3<Float>) -> Int32 {
        let c = rgb.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
        switch palette {
        case .monochrome: return Int32(PreviewRaster.ramp.count - 1)
        case .truecolor: return truecolour(c)
        default: return tables.entries[Int(tables.nearest[PaletteTables.key(c)])].number
        }
    }

    /// The palette colour nearest (CIELAB) a linear-light colour (0...1 a channel), for error diffusion.
    /// (within reach of the pixel's own colour `own`: `PaletteTables.diffusionEntry`).
    @inline(__always)
    func nearest(linear c: SIMD3<Float>, own: SIMD3<Float>) -> Int32 {
        tables.entries[tables.diffusionEntry(wanted: c, own: own)].number
    }

    /// Linear light of a palette colour number.
    @inline(__always)
    func linear(of number: Int32) -> SIMD3<Float> { ColourSpace.linear(tables.rgbOfNumber[Int(number)]) }

    /// The colour for `rgb` at pixel (`x`, `y`): one of the palette colours whose mix shows it (the
    /// tables' candidates), picked by the Bayer threshold at that pixel.
    @inline(__always)
    func dither(_ rgb: SIMD3<Float>, x: Int, y: Int) -> Int32 {
        let c = rgb.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
        let threshold = bayer8[(y & 7) * 8 + (x & 7)]
        switch palette {
        case .monochrome:
            // Brightness in linear light, stretched, as ink coverage; dithered between neighbouring characters.
            let luma = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
            let v = max(0, min(1, (luma - stretch.low) / max(1, stretch.high - stretch.low)))
            let density = PreviewRaster.rampDensity
            let target = ColourSpace.linear[Int((v * 255).rounded())] * density[density.count - 1]
            var i = 0
            while i < density.count - 2 && density[i + 1] <= target { i += 1 }
            let t = (target - density[i]) / (density[i + 1] - density[i])
            return Int32(t > threshold ? i + 1 : i)
        case .truecolor:
            return truecolour(c)
        default:
            let n = PaletteTables.candidateCount
            let rank = min(n - 1, Int(threshold * Float(n)))
            let key = PaletteTables.key(c)
            if known[key >> 6] & (1 << UInt64(key & 63)) == 0 {
                tables.pattern(ColourSpace.linear(PaletteTables.centre(key)), into: scratch)
                for i in 0..<n { candidates[key * n + i] = UInt8(scratch[i]) }
                known[key >> 6] |= 1 << UInt64(key & 63)
            }
            return tables.entries[Int(candidates[key * n + rank])].number
        }
    }

    /// 24-bit colour, 5 bits a channel (camera noise and the pair cache stay small).
    @inline(__always)
    func truecolour(_ c: SIMD3<Float>) -> Int32 {
        let q = (c * (31 / 255) + 0.5).rounded(.down)
        let v = SIMD3<Int32>((q * (255 / 31)).rounded(.toNearestOrAwayFromZero))
        return v.x << 16 | v.y << 8 | v.z
    }
}
