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

    /// How far a new colour must be closer than the one a cell shows before the cell changes (RGB units).
    /// Camera noise that moves a colour across a quantisation boundary and back then changes nothing.
    var hysteresis: Float {
        switch self {
        case .truecolor: return 6
        case .xterm256, .xterm256Reduced: return 10
        case .ansi16, .ansi8: return 16
        case .monochrome: return 10
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

/// One palette's colours and a 32×32×32 lookup from 5-bit RGB to its nearest colour, built once.
struct PaletteTables: Sendable {
    let entries: [(number: Int32, r: UInt8, g: UInt8, b: UInt8)]
    /// Index into `entries` of the nearest colour, for `(r >> 3) << 10 | (g >> 3) << 5 | b >> 3`.
    let nearest: [UInt8]
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
        guard !entries.isEmpty else {
            nearest = []
            return
        }
        // Nearest in luma and chroma, chroma weighted twice: by plain RGB distance a soft colour such as skin
        // flips between the grey ramp and the cube from one cell to the next (a face of grey and pink
        // patches); weighting the hue keeps neighbouring cells on the same hue, one smooth tone.
        func perceptual(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let y = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
            return SIMD3(y, 2 * 0.564 * (c.z - y), 2 * 0.713 * (c.x - y))
        }
        let colours = entries.map { perceptual(SIMD3<Float>(Float($0.r), Float($0.g), Float($0.b))) }
        var nearest = [UInt8](repeating: 0, count: 32 * 32 * 32)
        for key in 0..<(32 * 32 * 32) {
            let c = perceptual(SIMD3<Float>(Float((key >> 10) << 3 | 4), Float((key >> 5 & 31) << 3 | 4),
                                            Float((key & 31) << 3 | 4)))
            var best = 0, bestDistance = Float.infinity
            for (i, p) in colours.enumerated() {
                let d = c - p
                let distance = (d * d).sum()
                if distance < bestDistance { (best, bestDistance) = (i, distance) }
            }
            nearest[key] = UInt8(best)
        }
        self.nearest = nearest
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
