internal import CCurses
import FaceCapCore

// The colours a curses screen is drawn with: the screens' own pairs, the preview's pair table, and the choice
// of palette and terminfo entry at start-up. The per-cell drawing that uses them is CursesPainter's.

/// The screens' own colour pairs, chosen once at start-up from the terminal's colours (direct, 256, 16, 8; `none`
/// without colour) and theme, and handed to the painter. Coloured text always has its own background, so it reads
/// the same on a light and a dark theme (at least 4.5:1 either way): dark ink on green, yellow or cyan, white on
/// red; the Steady bar is green on black. Text without a colour is the theme's own. When the terminal said its
/// background (OSC 11, `TerminalBackground`) and has 256 colours or more, a word is ink of its tone's hue on that
/// background instead, where a shade reads 4.5:1 on it (`ToneInk`).
struct ColourPairs: Equatable, Sendable {
    static let good: Int32 = 1, warning: Int32 = 2, error: Int32 = 3, accent: Int32 = 4
    static let barFilled: Int32 = 5, barEmpty: Int32 = 6
    /// The first pair the preview may use.
    static let previewBase: Int32 = 7

    /// One pair's colours, as curses takes them (RGB in direct colour; -1 the theme's own).
    struct Definition: Equatable, Sendable {
        var pair: Int32
        var foreground: Int32
        var background: Int32
    }

    /// What `define` gives curses, one line a pair, in pair order; empty without colour.
    let definitions: [Definition]
    /// The pairs drawn as ink on the terminal's background (no box of their own).
    let inked: Set<Int32>

    /// No colour: nothing defined, every word in the theme's colours.
    static let none = ColourPairs(definitions: [], inked: [])

    private init(definitions: [Definition], inked: Set<Int32>) {
        self.definitions = definitions
        self.inked = inked
    }

    /// The pairs for a terminal with `colors` colours (1 << 24: direct colour) whose background is `background`
    /// (nil: it did not say).
    init(colors: Int, background: TerminalBackground.Colour?) {
        let direct = colors >= 1 << 24
        // Black and white: 16 and 231 of the 256 palette (bold leaves them alone), RGB in direct colour,
        // else the basic 0 and 7 (15 on 16-colour terminals).
        let black: Int32 = direct ? 0x000008 : colors >= 256 ? 16 : Int32(COLOR_BLACK)
        let white: Int32 = direct ? 0xFFFFFF : colors >= 256 ? 231 : colors >= 16 ? 15 : Int32(COLOR_WHITE)
        let grey: Int32 = direct ? 0x8A8A8A : colors >= 256 ? 245 : colors >= 16 ? 8 : Int32(COLOR_WHITE)
        var definitions = [
            Definition(pair: Self.good, foreground: black, background: Int32(COLOR_GREEN)),
            Definition(pair: Self.warning, foreground: black, background: Int32(COLOR_YELLOW)),
            Definition(pair: Self.error, foreground: white, background: Int32(COLOR_RED)),
            Definition(pair: Self.accent, foreground: black, background: Int32(COLOR_CYAN)),
        ]
        var inked: Set<Int32> = []
        if let background, colors >= 256 {
            for (i, tone) in [ToneInk.good, .warning, .error, .accent].enumerated() {
                guard let ink = tone.ink(on: background) else { continue }
                let c = xtermRGB(Int(ink))
                definitions[i].foreground = direct ? Int32(c.r) << 16 | Int32(c.g) << 8 | Int32(c.b) : ink
                definitions[i].background = -1
                inked.insert(definitions[i].pair)
            }
        }
        definitions += [
            Definition(pair: Self.barFilled, foreground: Int32(COLOR_GREEN), background: black),
            Definition(pair: Self.barEmpty, foreground: grey, background: black),
        ]
        self.init(definitions: definitions, inked: inked)
    }

    /// Gives curses the pairs (at start-up, and again after the preview's pairs were all dropped).
    func define() {
        for d in definitions { init_extended_pair(d.pair, d.foreground, d.background) }
    }

    /// The pair of a tone's words (0: the theme's own colours).
    func pair(for tone: ScreenTone) -> Int32 {
        guard !definitions.isEmpty else { return 0 }
        switch tone {
        case .neutral: return 0
        case .good: return Self.good
        case .warning: return Self.warning
        case .error: return Self.error
        }
    }
}

/// The preview's static pair table: one pair for every two different colours of the palette (a cell of one
/// colour is a space on that background, so 8-colour terminals with 64 pairs fit too); defined once, never
/// redefined. A direct-colour palette makes its pairs as cells need them instead (`DirectPairCache`).
struct PreviewPairTable {
    /// Colour number → its index in the static palette (-1 outside it).
    let slotOfNumber: [Int32]
    let paletteSize: Int32
    /// Ramp characters (no half blocks) stand on black, the palette's darkest colour.
    let blackSlot: Int32

    /// No table (no colour, or a direct-colour palette): every cell takes the default pair.
    static let none = PreviewPairTable(slotOfNumber: [Int32](repeating: -1, count: 256), paletteSize: 0, blackSlot: 0)

    private init(slotOfNumber: [Int32], paletteSize: Int32, blackSlot: Int32) {
        self.slotOfNumber = slotOfNumber
        self.paletteSize = paletteSize
        self.blackSlot = blackSlot
    }

    /// Defines curses' pairs for `palette` (from `ColourPairs.previewBase` on) and keeps where each colour is.
    init(defining palette: PreviewPalette, directColor direct: Bool) {
        let entries = palette.entries
        var slots = [Int32](repeating: -1, count: 256)
        for (slot, entry) in entries.enumerated() { slots[Int(entry.number)] = Int32(slot) }
        let colour: (Int) -> Int32 = { slot in
            let e = entries[slot]
            // A direct-colour terminfo takes RGB, except 0...7, which stay its ANSI colours.
            guard direct, e.number >= 8 else { return e.number }
            return DirectPairCache.direct(Int32(e.r) << 16 | Int32(e.g) << 8 | Int32(e.b))
        }
        let n = entries.count
        for fg in 0..<n {
            for bg in 0..<n where bg != fg {
                init_extended_pair(
                    ColourPairs.previewBase + Int32(fg * (n - 1) + (bg < fg ? bg : bg - 1)), colour(fg),
                    colour(bg))
            }
        }
        self.init(
            slotOfNumber: slots, paletteSize: Int32(n),
            blackSlot: entries.firstIndex { $0.r == 0 && $0.g == 0 && $0.b == 0 }.map(Int32.init) ?? 0)
    }

    /// The pair for a preview cell, and whether the cell must be drawn as a space (one colour: the table has no
    /// pair of a colour on itself).
    @inline(__always)
    func pair(foreground: Int32, background: Int32) -> (pair: Int32, blank: Bool) {
        guard paletteSize > 1, foreground >= 0, foreground < 256 else { return (0, false) }
        let fg = slotOfNumber[Int(foreground)]
        let bg = background < 0 ? blackSlot : background < 256 ? slotOfNumber[Int(background)] : -1
        guard fg >= 0, bg >= 0 else { return (0, false) }
        let n = paletteSize
        if fg == bg {
            let other = bg == 0 ? Int32(1) : 0
            return (ColourPairs.previewBase + other * (n - 1) + (bg < other ? bg : bg - 1), true)
        }
        return (ColourPairs.previewBase + fg * (n - 1) + (bg < fg ? bg : bg - 1), false)
    }
}

// MARK: Colour decisions at start-up

extension CursesFrontEnd {
    /// The preview's pairs for `palette`: a cache that makes them as cells need them in direct colour, else the
    /// static table (defined here, once).
    /// `screenPairs` are defined again whenever the cache drops every pair.
    static func previewPairs(
        for palette: PreviewPalette, directColor: Bool,
        screenPairs: ColourPairs
    ) -> (DirectPairCache?, PreviewPairTable) {
        guard palette != .truecolor else {
            return (
                DirectPairCache(
                    first: ColourPairs.previewBase, end: Int32(min(ccurses_color_pairs(), 65536)),
                    screenPairs: screenPairs), .none
            )
        }
        return (nil, PreviewPairTable(defining: palette, directColor: directColor))
    }

    /// `xterm-256color` → `xterm-direct`, `tmux-256color` → `tmux-direct`.
    static func directVariant(of term: String) -> String {
        var base = term
        for suffix in ["-256color", "-88color", "-color", "-truecolor", "-24bit"] where base.hasSuffix(suffix) {
            base.removeLast(suffix.count)
        }
        return base + "-direct"
    }

    /// The palette for `--color mode` on a terminal with `colors` colours and `pairs` colour pairs.
    static func palette(mode: ColorMode, wantsDirect: Bool, direct: Bool, colors: Int, pairs: Int) -> PreviewPalette {
        let usable = pairs - Int(ColourPairs.previewBase)
        func staticFits(_ palette: PreviewPalette) -> Bool {
            let n = palette.entries.count
            return n * (n - 1) <= usable
        }
        if direct && (wantsDirect || mode == .auto) { return .truecolor }
        let ladder: [PreviewPalette]
        switch mode {
        case .none: return .monochrome
        case .auto, .truecolor, .colors256:
            ladder =
                colors >= 256
                ? [.xterm256, .xterm256Reduced, .ansi16, .ansi8] : colors >= 16 ? [.ansi16, .ansi8] : [.ansi8]
        case .colors16:
            ladder = colors >= 16 ? [.ansi16, .ansi8] : [.ansi8]
        }
        guard colors >= 8 else { return .monochrome }
        return ladder.first(where: staticFits) ?? .monochrome
    }
}
