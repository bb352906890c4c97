import FaceCapCore
import FaceCapIO

@testable import FaceCapTerminal

#if canImport(Glibc)
import Glibc
#endif

/// How much a rendered preview looks like its source frame, measured the way the issue's acceptance reads
/// (and tools/preview_fidelity.py does for captured terminals): the cells turned back into pixels, the
/// source averaged down to the same pixels, both seen through a slight blur (a Gaussian of one preview
/// pixel, in linear light, as the eye averages a dither), compared inside the oval.
struct PreviewFidelity: CustomStringConvertible {
    /// Mean CIE76 ΔE over the pixels inside the oval.
    var colourError: Double
    /// Hue difference (degrees) of the mean skin colour: source pixels inside the oval with skin's
    /// lightness, chroma and hue (L* 20...90, C* ≥ 8, h 10°...80°).
    var skinHue: Double
    /// Pearson correlation of L* inside the oval.
    var lumaCorrelation: Double

    var description: String {
        "ΔE \(String(format: "%.2f", colourError)), skin hue \(String(format: "%.1f", skinHue))°, "
            + "luma r \(String(format: "%.3f", lumaCorrelation))"
    }

    /// Measures `raster` (rendered from `source`, an RGB frame, with no overlay and no mirror) against it.
    /// `widthFraction` and `centre` are the oval's (the analyzer's defaults unless told).
    static func measure(
        _ raster: PreviewRaster, source: Frame, widthFraction: Double = 0.4,
        centre: (x: Double, y: Double) = (0.5, 0.5), heightToWidth: Double = 1.25
    ) -> PreviewFidelity {
        precondition(source.format == .rgb24)
        let w = raster.columns, perCell = raster.halfBlocks ? 2 : 1, h = raster.rows * perCell
        let tables = PaletteTables.table(raster.palette)
        // Rendered pixels, linear RGB.
        var rendered = [SIMD3<Float>](repeating: .zero, count: w * h)
        func linear(ofNumber n: Int32) -> SIMD3<Float> {
            if raster.palette == .truecolor {
                return ColourSpace.linear(SIMD3(Float(n >> 16 & 255), Float(n >> 8 & 255), Float(n & 255)))
            }
            return ColourSpace.linear(tables.rgbOfNumber[Int(n)])
        }
        let ramp = PreviewRaster.ramp, density = PreviewRaster.rampDensity
        for row in 0..<raster.rows {
            for column in 0..<w {
                let cell = raster[column, row]
                if perCell == 2, let shade = ShadeTable.glyphs.first(where: { $0.character == cell.character }) {
                    // A shade glyph: its foreground over its coverage of the cell, what a slight blur sees of it.
                    let f = linear(ofNumber: cell.foreground), g = linear(ofNumber: cell.background)
                    let mix = shade.coverage * f + (1 - shade.coverage) * g
                    rendered[(2 * row) * w + column] = mix
                    rendered[(2 * row + 1) * w + column] = mix
                } else if perCell == 2 {
                    rendered[(2 * row) * w + column] = linear(ofNumber: cell.foreground)
                    rendered[(2 * row + 1) * w + column] = linear(ofNumber: cell.background)
                } else if raster.palette == .monochrome {
                    // Light ink on a dark background, as much of it as the character covers.
                    let level = ramp.firstIndex(of: UInt8(cell.character.value)) ?? 0
                    rendered[row * w + column] = SIMD3(repeating: density[level] / density[density.count - 1])
                } else {
                    rendered[row * w + column] = linear(ofNumber: cell.background)
                }
            }
        }
        // The source averaged over each preview pixel's area, linear RGB.
        var reference = [SIMD3<Float>](repeating: .zero, count: w * h)
        for py in 0..<h {
            let y0 = py * source.height / h, y1 = max(y0 + 1, (py + 1) * source.height / h)
            for px in 0..<w {
                let x0 = px * source.width / w, x1 = max(x0 + 1, (px + 1) * source.width / w)
                var sum = SIMD3<Float>.zero
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let i = (y * source.width + x) * 3
                        sum += SIMD3(
                            ColourSpace.linear[Int(source.data[i])], ColourSpace.linear[Int(source.data[i + 1])],
                            ColourSpace.linear[Int(source.data[i + 2])])
                    }
                }
                reference[py * w + px] = sum / Float((y1 - y0) * (x1 - x0))
            }
        }
        // One preview pixel wide; a pixel of a one-pixel cell is twice as tall as wide.
        let sigmaY = perCell == 2 ? 1.0 : 0.5
        let a = blur(rendered, width: w, height: h, sigmaX: 1, sigmaY: sigmaY)
        let b = blur(reference, width: w, height: h, sigmaX: 1, sigmaY: sigmaY)
        let monochrome = raster.palette == .monochrome
        var errors = 0.0, count = 0.0
        var skinA = SIMD2<Double>.zero, skinB = SIMD2<Double>.zero
        var la: [Double] = [], lb: [Double] = []
        let rx = widthFraction * Double(source.width) / 2, ry = rx * heightToWidth
        for py in 0..<h {
            for px in 0..<w {
                let fx = (Double(px) + 0.5) / Double(w) * Double(source.width)
                let fy = (Double(py) + 0.5) / Double(h) * Double(source.height)
                let u = (fx - centre.x * Double(source.width)) / rx, v = (fy - centre.y * Double(source.height)) / ry
                guard u * u + v * v <= 1 else { continue }
                let ca = ColourSpace.lab(linear: a[py * w + px]), cb = ColourSpace.lab(linear: b[py * w + px])
                if monochrome {
                    // Only brightness can be compared: the rendered grey against the source's luminance.
                    la.append(Double(ca.x))
                    let y = 0.2126 * b[py * w + px].x + 0.7152 * b[py * w + px].y + 0.0722 * b[py * w + px].z
                    lb.append(Double(ColourSpace.lab(linear: SIMD3(repeating: y)).x))
                    continue
                }
                let d = ca - cb
                errors += Double((d * d).sum().squareRoot())
                count += 1
                la.append(Double(ca.x))
                lb.append(Double(cb.x))
                let chroma = Double((cb.y * cb.y + cb.z * cb.z).squareRoot())
                let hue = atan2(Double(cb.z), Double(cb.y)) * 180 / .pi
                if cb.x >= 20, cb.x <= 90, chroma >= 8, hue >= 10, hue <= 80 {
                    skinA += SIMD2(Double(ca.y), Double(ca.z))
                    skinB += SIMD2(Double(cb.y), Double(cb.z))
                }
            }
        }
        var skinHue = 0.0
        if skinB != .zero {
            let ha = atan2(skinA.y, skinA.x), hb = atan2(skinB.y, skinB.x)
            var d = abs(ha - hb) * 180 / .pi
            if d > 180 { d = 360 - d }
            skinHue = d
        }
        return PreviewFidelity(
            colourError: count > 0 ? errors / count : 0, skinHue: skinHue,
            lumaCorrelation: correlation(la, lb))
    }

    static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        guard n > 1 else { return 0 }
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in x.indices {
            sxy += (x[i] - mx) * (y[i] - my)
            sxx += (x[i] - mx) * (x[i] - mx)
            syy += (y[i] - my) * (y[i] - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    /// A separable Gaussian, edges clamped.
    static func blur(_ image: [SIMD3<Float>], width: Int, height: Int, sigmaX: Double, sigmaY: Double) -> [SIMD3<Float>]
    {
        func kernel(_ sigma: Double) -> [Float] {
            let r = max(1, Int((3 * sigma).rounded(.up)))
            let k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
            let s = k.reduce(0, +)
            return k.map { $0 / s }
        }
        let kx = kernel(sigmaX), ky = kernel(sigmaY), rx = kx.count / 2, ry = ky.count / 2
        var tmp = image, out = image
        for y in 0..<height {
            for x in 0..<width {
                var s = SIMD3<Float>.zero
                for (i, k) in kx.enumerated() { s += k * image[y * width + min(width - 1, max(0, x + i - rx))] }
                tmp[y * width + x] = s
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var s = SIMD3<Float>.zero
                for (i, k) in ky.enumerated() { s += k * tmp[min(height - 1, max(0, y + i - ry)) * width + x] }
                out[y * width + x] = s
            }
        }
        return out
    }
}

enum FidelityFixtures {
    /// sergey.png at the size and place the analyzer wants a face (face about 0.4 of the frame wide),
    /// RGB, on a blue-grey wall.
    static let lightSkin = TestFrames.place(sergeyPhoto, format: .rgb24)
    /// The same face made dark-skinned (a synthetic fixture: each channel scaled towards a deep brown,
    /// (200, 150, 130) → (96, 60, 42)), for the skin-hue check on dark skin.
    static let darkSkin: Frame = {
        var data = lightSkin.data
        let gains: [Float] = [0.48, 0.40, 0.32]
        // Only the photo's pixels, not the wall.
        for i in stride(from: 0, to: data.count, by: 3)
        where !(data[i] == 90 && data[i + 1] == 110 && data[i + 2] == 130) {
            for c in 0..<3 { data[i + c] = UInt8(min(255, Float(data[i + c]) * gains[c])) }
        }
        return Frame(format: .rgb24, width: lightSkin.width, height: lightSkin.height, colorRange: .full, data: data)
    }()
    /// grace_hopper.jpg (512×600, public domain) placed the same way: another light face, in an older
    /// photo's colours, with dark hair and a navy uniform.
    static let grace = TestFrames.place(
        try! ImageFile.read(path: terminalFixtures.appendingPathComponent("images/grace_hopper.jpg").path),
        format: .rgb24)
}
