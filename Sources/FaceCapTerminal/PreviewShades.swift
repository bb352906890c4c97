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
                    entries.append(
                        Entry(
                            character: glyph.character, foreground: tables.entries[i].number,
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
        let q = SIMD3<Int32>(
            (c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * 4095)
                .rounded(.toNearestOrAwayFromZero))
        return Int(
            nearest[
                Int(keyOfLinear[Int(q.x)]) << 10 | Int(keyOfLinear[Int(q.y)]) << 5
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

/// In 256 colours with UTF-8, shade cells as well: a cell whose two pixels are close to each other may be
/// drawn as one colour, a palette colour or a 25/50/75 % mix of two (░ ▒ ▓ with a foreground and a background
/// from the palette). The cube is coarsest in the dark (its levels are 0 and 95 below 135, and the greys carry
/// no hue), which is where dark skin lies; the mixes of two nearby entries fill that gap with dark browns.
/// 240 colours give 28 680 pairs, too many to search for every key at start-up, so the best mix of a key is
/// searched the first time the key is met (`PaletteTables.shadeMix(key:)`, cached per raster), among the
/// entries near the key's colour only.
///
/// A mix is a code: `mixFlag | glyph << 16 | foreground entry << 8 | background entry`, glyph 0 the plain
/// colour (a half block of one colour), 1...3 the shade glyphs of `ShadeTable.glyphs`.
extension PaletteTables {
    /// Set in every mix code: codes are told from colour numbers (below 256) by it.
    static let mixFlag: Int32 = 1 << 24

    /// How far (ΔE) from a key's colour an entry may be to take part in its mix: at least `mixReach`, or
    /// `mixReachFactor` times the nearest entry's distance; of those, the `mixPool` nearest. The pairs of a key
    /// are then at most 276 (828 mixes), and light colours, where the cube is dense, do not search 80 entries.
    /// On the fixtures of PreviewFidelityTests a reach of 25 measured within 0.1 ΔE of 12 (1.5 times the
    /// nearest distance, instead of 2, cost dark skin 0.3-0.4 ΔE).
    static let mixReach: Float = 12
    static let mixReachFactor: Float = 2
    static let mixPool = 24

    /// A mix's distance counts, besides how far its colour is from the key's, this share of its pattern's
    /// contrast (the glyph's coverage c times 1 - c times the squared ΔE between its two colours): a terminal
    /// that draws the glyph's dots shows that contrast, which the fidelity measure's blur mostly hides. In the
    /// real terminal capture at 80×24 (tools/preview_pictures.py), the median ΔE between a shade cell's two
    /// colours on light skin is 27 with it and a reach of 12, 34 with neither (no weight, a reach of 25); on dark
    /// skin 49 and 51, for the cube has no colours near it. It costs PreviewFidelityTests' figures at most 0.2 ΔE.
    static let mixPatternWeight: Float = 0.25

    /// The mix (code) nearest (CIELAB, with its pattern's contrast) the colour of `key` (`key(_:)`), among
    /// the plain entries and the shade mixes of two entries both within reach of it.
    func shadeMix(key: Int) -> Int32 {
        let target = ColourSpace.lab(linear: ColourSpace.linear(Self.centre(key)))
        @inline(__always) func squared(_ a: SIMD3<Float>) -> Float {
            let d = a - target
            return (d * d).sum()
        }
        let first = Int(nearest[key])
        var best = Self.mixFlag | Int32(first) << 8 | Int32(first), bestDistance = squared(labs[first])
        let reach = max(Self.mixReach * Self.mixReach, Self.mixReachFactor * Self.mixReachFactor * bestDistance)
        // The entries within reach, nearest first (ties by entry, so a key's mix is always the same).
        var near: [(distance: Float, entry: Int)] = []
        for (i, p) in labs.enumerated() where squared(p) <= reach { near.append((squared(p), i)) }
        near.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.entry < $1.entry) }
        let pool = near.prefix(Self.mixPool).map(\.entry)
        for (n, a) in pool.enumerated() {
            for b in pool[(n + 1)...] {
                let apart = labs[a] - labs[b]
                let spread = (apart * apart).sum()
                for (g, glyph) in ShadeTable.glyphs.enumerated() {
                    let mix = glyph.coverage * linear[a] + (1 - glyph.coverage) * linear[b]
                    let d =
                        squared(ColourSpace.lab(linear: mix))
                        + Self.mixPatternWeight * glyph.coverage * (1 - glyph.coverage) * spread
                    if d < bestDistance {
                        bestDistance = d
                        best = Self.mixFlag | Int32(g + 1) << 16 | Int32(a) << 8 | Int32(b)
                    }
                }
            }
        }
        return best
    }

    /// The key (`key(_:)`) of a linear-light colour, clamped to 0...1.
    @inline(__always)
    func key(linear c: SIMD3<Float>) -> Int {
        let q = SIMD3<Int32>(
            (c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * 4095)
                .rounded(.toNearestOrAwayFromZero))
        return Int(keyOfLinear[Int(q.x)]) << 10 | Int(keyOfLinear[Int(q.y)]) << 5 | Int(keyOfLinear[Int(q.z)])
    }

    /// A mix code's linear-light colour.
    @inline(__always)
    func linear(ofMix code: Int32) -> SIMD3<Float> {
        let g = Int(code >> 16 & 255), f = Int(code >> 8 & 255), b = Int(code & 255)
        guard g > 0 else { return linear[f] }
        let coverage = ShadeTable.glyphs[g - 1].coverage
        return coverage * linear[f] + (1 - coverage) * linear[b]
    }

    /// A mix code's cell.
    @inline(__always)
    func cell(ofMix code: Int32) -> PreviewCell {
        let g = Int(code >> 16 & 255), f = entries[Int(code >> 8 & 255)].number, b = entries[Int(code & 255)].number
        return PreviewCell(
            character: g > 0 ? ShadeTable.glyphs[g - 1].character : "▀", foreground: f, background: g > 0 ? b : f)
    }
}
