/// In 16 and 8 colours, cells drawn with the shade glyphs ░ ▒ ▓ as well as the half block: a shade cell shows
/// its foreground over a quarter, a half or three quarters of the cell and its background over the rest, so
/// each pair of palette colours gives three more colours, mixed by the glyph's own fine pattern (classic ANSI
/// art). 16 colours give 16 + 3 × 120 = 376 cell colours, 8 colours 8 + 3 × 28 = 92.
///
/// A shade cell is one colour over the cell's height (it gives up the half block's two pixels), so the raster
/// chooses per cell, by error diffusion over cells in linear light (`PreviewRaster`), the cell colour nearest
/// (CIELAB) what the cell wants. The dark colours the 16 and 8 colour palettes lack come from black with a
/// quarter of red or yellow, instead of sparse dots the eye does not blend: on the dark-skinned fixture at
/// 80×24's preview size (PreviewFidelityTests), 16 colours ΔE 12.9 → 8.5 and luma r 0.875 → 0.916 (without
/// the brightening half blocks needed); 8 colours luma r 0.465 → 0.911 (brightened, `PreviewRaster.toneGain`).
/// Light skin, 16 colours: ΔE 8.0 → 4.3.
///
/// The coverage is the glyph's nominal one (0.25, 0.5, 0.75): terminals that draw the block elements
/// themselves (VTE, kitty, xterm, foot, Alacritty, Konsole) draw these; the fidelity measure counts a shade
/// cell as that mix, which is what a slight blur sees of the glyph's pattern.
struct ShadeTable: Sendable {
    struct Entry: Sendable {
        var character: Unicode.Scalar
        /// Terminal colour numbers.
        var foreground: Int32
        var background: Int32
    }

    static let glyphs: [(character: Unicode.Scalar, coverage: Float)] = [("░", 0.25), ("▒", 0.5), ("▓", 0.75)]

    /// The nearest cell colour is nearest in CIELAB with L* counted this many times over a* and b*: the error
    /// diffusion then keeps a face's shading (the 376 colours differ more in hue than in lightness near dark
    /// skin, and hue noise hid it). Measured on the dark-skinned fixture at 80×24's preview size in a NumPy
    /// model of the raster: luma r 0.84 at 1, 0.87 at 2, 0.90 at 4; ΔE 8.1, 8.1, 8.4.
    static let lightnessWeight: Float = 4

    let entries: [Entry]
    let linear: [SIMD3<Float>]
    let labs: [SIMD3<Float>]
    /// Per 5-bit colour key (`PaletteTables.key`): the index of the nearest entry (CIELAB).
    let nearest: [UInt16]
    let keyOfLinear: [UInt16]

    init(_ tables: PaletteTables) {
        var entries: [Entry] = []
        var linear: [SIMD3<Float>] = []
        for (i, e) in tables.entries.enumerated() {
            entries.append(Entry(character: "▀", foreground: e.number, background: e.number))
            linear.append(tables.linear[i])
        }
        for glyph in Self.glyphs {
            for i in tables.entries.indices {
                for j in tables.entries.indices where i < j {
                    entries.append(Entry(character: glyph.character, foreground: tables.entries[i].number,
                                         background: tables.entries[j].number))
                    linear.append(glyph.coverage * tables.linear[i] + (1 - glyph.coverage) * tables.linear[j])
                }
            }
        }
        self.entries = entries
        self.linear = linear
        let labs = linear.map { ColourSpace.lab(linear: $0) }
        self.labs = labs
        keyOfLinear = tables.keyOfLinear
        var nearest = [UInt16](repeating: 0, count: 32 * 32 * 32)
        if !entries.isEmpty {
            for key in 0..<(32 * 32 * 32) {
                let lab = ColourSpace.lab(linear: ColourSpace.linear(PaletteTables.centre(key)))
                var best = 0, bestDistance = Float.infinity
                for (i, p) in labs.enumerated() {
                    let d = (lab - p) * SIMD3(Self.lightnessWeight, 1, 1)
                    let distance = (d * d).sum()
                    if distance < bestDistance { (best, bestDistance) = (i, distance) }
                }
                nearest[key] = UInt16(best)
            }
        }
        self.nearest = nearest
    }

    /// The entry nearest (CIELAB, through the 5-bit key) a linear-light colour.
    @inline(__always)
    func nearest(linear c: SIMD3<Float>) -> Int {
        let q = SIMD3<Int32>((c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * 4095)
            .rounded(.toNearestOrAwayFromZero))
        return Int(nearest[Int(keyOfLinear[Int(q.x)]) << 10 | Int(keyOfLinear[Int(q.y)]) << 5
                           | Int(keyOfLinear[Int(q.z)])])
    }

    private static let ansi16 = ShadeTable(PaletteTables.table(.ansi16))
    private static let ansi8 = ShadeTable(PaletteTables.table(.ansi8))
    private static let empty = ShadeTable(PaletteTables.table(.monochrome))

    static func table(_ palette: PreviewPalette) -> ShadeTable {
        switch palette {
        case .ansi16: return ansi16
        case .ansi8: return ansi8
        default: return empty
        }
    }
}
