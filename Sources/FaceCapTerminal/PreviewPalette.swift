#if canImport(Glibc)
import Glibc
#endif

/// The colours the preview (and the screens) may use, decided once from the terminal and `--color`.
///
/// A cell's colour is a terminal colour number: an xterm/ANSI palette index, or `0xRRGGBB` in truecolor.
public enum PreviewPalette: String, Sendable, Equatable, CaseIterable {
    /// 24-bit colour, quantised to 5 bits per channel so that camera noise and the colour-pair cache stay small.
    case truecolor
    /// The xterm 6×6×6 cube and its 24-step grey ramp (indices 16...255); 240 × 240 static pairs.
    case xterm256
    /// A subset of the xterm palette (a 4-level cube and 12 greys) for terminals with fewer than 57,600 pairs.
    case xterm256Reduced
    /// The 16 ANSI colours (their look depends on the terminal's theme).
    case ansi16
    /// The 8 basic ANSI colours.
    case ansi8
    /// No colour: the preview is drawn with a luminance ramp of characters.
    case monochrome

    /// The palette's colours as (terminal colour number, RGB); empty for truecolor and monochrome.
    public var entries: [(number: Int32, r: UInt8, g: UInt8, b: UInt8)] { PaletteTables.table(self).entries }

    /// Error diffusion (Floyd–Steinberg, in linear light, nearest colour in CIELAB) instead of the ordered
    /// dither: in 256 colours it leaves less colour error than the ordered dither does once the
    /// eye blurs the pattern, because its error lies at the finest scale (README, "The wizard", has the
    /// figures). Each pixel keeps its colour while its input does not move, as in the ordered
    /// dither, so a still scene stays still. In 16 and 8 colours the palette is too coarse for it (luma
    /// correlation falls), and those keep Knoll's ordered dither; so does the reduced 256 palette (skin's
    /// hue drifted 11° under diffusion there).
    var diffuses: Bool { self == .xterm256 }

    /// Whether a dark face is brightened before it is dithered (`PreviewRaster.toneGain`). In 16 colours the
    /// darkest colours after black are 30-53 L* away, so a dark face (L* 13-26) comes out as sparse dots whose
    /// pattern hides its shading (luma r 0.67); brightened up to 1.6 times it reads as a face (0.88). This is
    /// for half blocks (without UTF-8); with shade cells (`shades`) 16 colours draw a dark face as it is, and 8
    /// colours brighten it instead (`PreviewRaster.toneMaps`).
    var toneMaps: Bool { self == .ansi16 }

    /// Whether, with UTF-8, cells may be drawn with the shade glyphs ░ ▒ ▓ (`ShadeTable`).
    var shades: Bool { self == .ansi16 || self == .ansi8 }

    /// Whether, with UTF-8, a cell whose two pixels are close may be drawn as a shade mix of two palette colours
    /// (`PaletteTables.shadeMix(key:)`), the rest staying half blocks under the error diffusion: the full 256
    /// palette, whose cube has nothing between 0 and 95 but greys, where dark skin lies.
    var mixes: Bool { self == .xterm256 }

    /// How far (RGB units) a pixel's colour must move from the one its shown colour was worked out from
    /// before the pixel changes. Camera noise then repaints nothing, and a still scene keeps its dither pattern.
    var hysteresis: Float {
        switch self {
        case .truecolor: return 6
        case .xterm256, .xterm256Reduced: return 7
        case .ansi16, .ansi8: return 9
        case .monochrome: return 8
        }
    }
}

/// The RGB an xterm-256 colour number stands for (xterm's defaults for 0...15).
func xtermRGB(_ index: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
    switch index {
    case 0..<16:
        let ansi: [(UInt8, UInt8, UInt8)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        return ansi[index]
    case 16..<232:
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        let i = index - 16
        return (levels[i / 36], levels[i / 6 % 6], levels[i % 6])
    default:
        let grey = UInt8(8 + 10 * (min(index, 255) - 232))
        return (grey, grey, grey)
    }
}

/// Colour arithmetic for matching: sRGB (0...255) to linear light and to CIELAB (D65), the space the
/// preview matches colours in and the fidelity measure (Tests, tools/preview_fidelity.py) scores them in.
enum ColourSpace {
    /// sRGB channel value 0...255 → linear light 0...1.
    static let linear: [Float] = (0..<256).map { i in
        let c = Float(i) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light 0...1 → sRGB 0...255.
    @inline(__always)
    static func srgb(_ linear: Float) -> Float {
        let c = max(0, min(1, linear))
        return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * powf(c, 1 / 2.4) - 0.055)
    }

    /// Linear RGB → CIELAB (L* 0...100).
    @inline(__always)
    static func lab(linear c: SIMD3<Float>) -> SIMD3<Float> {
        let x = (0.4124 * c.x + 0.3576 * c.y + 0.1805 * c.z) / 0.95047
        let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        let z = (0.0193 * c.x + 0.1192 * c.y + 0.9505 * c.z) / 1.08883
        @inline(__always) func f(_ t: Float) -> Float { t > 0.008856 ? cbrtf(t) : 7.787 * t + 16 / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// sRGB 0...255 (rounded to whole values) → linear RGB.
    @inline(__always)
    static func linear(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let c = rgb.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255)).rounded(.toNearestOrAwayFromZero)
        return SIMD3(linear[Int(c.x)], linear[Int(c.y)], linear[Int(c.z)])
    }
}

/// The 8×8 Bayer matrix: the order in which an ordered dither turns pixels to the second colour.
/// Fixed to the pixel's place in the picture, so a still scene gives the same pattern frame after frame.
let bayer8: [Float] = {
    // The recursive construction: each 2×2 block of the next size visits its quarters in the order 0, 2, 3, 1.
    var m = [0], size = 1
    while size < 8 {
        var next = [Int](repeating: 0, count: 4 * size * size)
        for y in 0..<size {
            for x in 0..<size {
                let v = 4 * m[y * size + x]
                next[y * 2 * size + x] = v
                next[y * 2 * size + x + size] = v + 2
                next[(y + size) * 2 * size + x] = v + 3
                next[(y + size) * 2 * size + x + size] = v + 1
            }
        }
        m = next
        size *= 2
    }
    return m.map { (Float($0) + 0.5) / 64 }
}()

/// One palette's colours and a lookup of the nearest one, built once; and the ordered dither over them.
///
/// Matching is in CIELAB over the whole palette (the cube and the 24 greys, or the 16 or 8 ANSI colours).
/// The dither is Knoll's pattern dither: 16 candidates chosen one after another, each the palette colour
/// nearest the wanted colour plus half the error the candidates so far leave (in linear light, as the eye
/// mixes a fine pattern), then ranked by luminance; the Bayer threshold of the pixel picks one. A colour
/// the palette has gives 16 times itself; one between two gives both in the right proportion; skin in 16
/// colours mixes the white, the greys and a red or yellow. Ranking by luminance keeps the pattern's
/// brightness even, which is what keeps a face recognisable.
struct PaletteTables: Sendable {
    let entries: [(number: Int32, r: UInt8, g: UInt8, b: UInt8)]
    static let candidateCount = 16
    /// Per key (`key(_:)`: 5 bits a channel): the index into `entries` of the nearest colour (CIELAB).
    let nearest: [UInt8]
    /// Linear RGB and luminance of every entry.
    let linear: [SIMD3<Float>]
    let luminance: [Float]
    /// Linear light in 4096 steps → the channel's 5-bit key value.
    let keyOfLinear: [UInt16]
    /// CIELAB of every entry.
    let labs: [SIMD3<Float>]
    /// RGB of every terminal colour number below 256 (0 for numbers outside the palette).
    let rgbOfNumber: [SIMD3<Float>]

    init(_ palette: PreviewPalette) {
        var indices: [Int]
        switch palette {
        case .xterm256: indices = Array(16...255)
        case .xterm256Reduced:
            // Cube levels 0, 95, 175, 255 (xterm steps 0, 1, 3, 5) and every other grey.
            let steps = [0, 1, 3, 5]
            indices = steps.flatMap { r in steps.flatMap { g in steps.map { b in 16 + 36 * r + 6 * g + b } } }
            indices += stride(from: 232, through: 254, by: 2)
        case .ansi16: indices = Array(0..<16)
        case .ansi8: indices = Array(0..<8)
        case .truecolor, .monochrome: indices = []
        }
        let entries = indices.map { i -> (number: Int32, r: UInt8, g: UInt8, b: UInt8) in
            let c = xtermRGB(i)
            return (Int32(i), c.r, c.g, c.b)
        }
        self.entries = entries
        var rgbOfNumber = [SIMD3<Float>](repeating: .zero, count: 256)
        for e in entries { rgbOfNumber[Int(e.number)] = SIMD3(Float(e.r), Float(e.g), Float(e.b)) }
        self.rgbOfNumber = rgbOfNumber
        let linear = entries.map { ColourSpace.linear(SIMD3<Float>(Float($0.r), Float($0.g), Float($0.b))) }
        self.linear = linear
        luminance = linear.map { 0.2126 * $0.x + 0.7152 * $0.y + 0.0722 * $0.z }
        keyOfLinear = (0...4095).map { i in UInt16((ColourSpace.srgb(Float(i) / 4095) * 31 / 255).rounded()) }
        let labs = linear.map { ColourSpace.lab(linear: $0) }
        self.labs = labs
        guard !entries.isEmpty else {
            nearest = []
            return
        }
        var nearest = [UInt8](repeating: 0, count: 32 * 32 * 32)
        for key in 0..<(32 * 32 * 32) {
            let lab = ColourSpace.lab(linear: ColourSpace.linear(Self.centre(key)))
            var best = 0, bestDistance = Float.infinity
            for (i, p) in labs.enumerated() {
                let d = lab - p
                let distance = (d * d).sum()
                if distance < bestDistance { (best, bestDistance) = (i, distance) }
            }
            nearest[key] = UInt8(best)
        }
        self.nearest = nearest
    }

    /// The sRGB colour a key stands for: 0 and 255 exactly at the ends, so black and white match exactly.
    static func centre(_ key: Int) -> SIMD3<Float> {
        SIMD3(Float(key >> 10), Float(key >> 5 & 31), Float(key & 31)) * (255 / 31)
    }

    /// The key of an sRGB colour (0...255 a channel): each channel to the nearest of 32 levels.
    @inline(__always)
    static func key(_ c: SIMD3<Float>) -> Int {
        let q = SIMD3<Int32>(
            (c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255)) * (31 / 255))
                .rounded(.toNearestOrAwayFromZero))
        return Int(q.x) << 10 | Int(q.y) << 5 | Int(q.z)
    }

    /// Knoll's pattern dither for `target` (linear RGB): 16 candidates, each the entry nearest the target
    /// plus half the error of those so far, ranked by luminance (ties by entry, so the order is fixed).
    ///
    /// A candidate farther from the target than 30 ΔE, or three times the nearest colour's distance, is
    /// replaced by the nearest colour within that: without the limit, a shaded cheek in 256 colours drew one
    /// pixel in 16 in a dark red (95, 0, 0), a regular grid of specks.
    func pattern(_ target: SIMD3<Float>, into chosen: UnsafeMutableBufferPointer<Int>) {
        @inline(__always) func key(_ c: SIMD3<Float>) -> Int {
            let q = SIMD3<Int32>(
                (c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * 4095)
                    .rounded(.toNearestOrAwayFromZero))
            return Int(keyOfLinear[Int(q.x)]) << 10 | Int(keyOfLinear[Int(q.y)]) << 5 | Int(keyOfLinear[Int(q.z)])
        }
        @inline(__always) func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
            let d = a - b
            return (d * d).sum().squareRoot()
        }
        let lab = ColourSpace.lab(linear: target)
        let limit = max(30, 3 * distance(labs[Int(nearest[key(target)])], lab))
        var error = SIMD3<Float>.zero
        for i in 0..<Self.candidateCount {
            let attempt = target + 0.5 * error
            var c = Int(nearest[key(attempt)])
            if distance(labs[c], lab) > limit {
                let wanted = ColourSpace.lab(
                    linear: attempt.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
                var best = Float.infinity
                for (j, p) in labs.enumerated() where distance(p, lab) <= limit {
                    let d = distance(p, wanted)
                    if d < best { (best, c) = (d, j) }
                }
            }
            chosen[i] = c
            error += target - linear[c]
        }
        // Insertion sort by (luminance, entry): 16 items.
        for i in 1..<Self.candidateCount {
            let c = chosen[i]
            var j = i
            while j > 0
                && (luminance[chosen[j - 1]] > luminance[c]
                    || (luminance[chosen[j - 1]] == luminance[c] && chosen[j - 1] > c))
            {
                chosen[j] = chosen[j - 1]
                j -= 1
            }
            chosen[j] = c
        }
    }

    /// The entry error diffusion shows for a pixel whose own colour is `own` and which, with the error
    /// carried to it, wants `wanted` (both linear RGB): the entry nearest `wanted` (CIELAB) among those within
    /// 20 ΔE of `own`, or 2.5 times its nearest entry's distance. Unlimited, the carried error drew dark red
    /// (95, 0, 0) and olive specks over a light face in 256 colours (a rash at 80×24); limited, the error
    /// through the acceptance's blur is higher (1.5 unlimited) but the face reads as a face.
    @inline(__always)
    func diffusionEntry(wanted: SIMD3<Float>, own: SIMD3<Float>) -> Int {
        @inline(__always) func key(_ c: SIMD3<Float>) -> Int {
            let q = SIMD3<Int32>(
                (c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * 4095)
                    .rounded(.toNearestOrAwayFromZero))
            return Int(keyOfLinear[Int(q.x)]) << 10 | Int(keyOfLinear[Int(q.y)]) << 5 | Int(keyOfLinear[Int(q.z)])
        }
        @inline(__always) func squared(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
            let d = a - b
            return (d * d).sum()
        }
        let ownLab = ColourSpace.lab(linear: own)
        let limit = max(20 * 20, 6.25 * squared(labs[Int(nearest[key(own)])], ownLab))
        let c = Int(nearest[key(wanted)])
        if squared(labs[c], ownLab) <= limit { return c }
        let wantedLab = ColourSpace.lab(linear: wanted.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
        var best = Int(nearest[key(own)]), bestDistance = Float.infinity
        for (j, p) in labs.enumerated() where squared(p, ownLab) <= limit {
            let d = squared(p, wantedLab)
            if d < bestDistance { (best, bestDistance) = (j, d) }
        }
        return best
    }

    private static let xterm256 = PaletteTables(.xterm256)
    private static let xterm256Reduced = PaletteTables(.xterm256Reduced)
    private static let ansi16 = PaletteTables(.ansi16)
    private static let ansi8 = PaletteTables(.ansi8)
    private static let empty = PaletteTables(.monochrome)

    static func table(_ palette: PreviewPalette) -> PaletteTables {
        switch palette {
        case .xterm256: return xterm256
        case .xterm256Reduced: return xterm256Reduced
        case .ansi16: return ansi16
        case .ansi8: return ansi8
        case .truecolor, .monochrome: return empty
        }
    }
}
