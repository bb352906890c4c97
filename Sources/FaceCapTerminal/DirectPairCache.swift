internal import CCurses

/// Colour pairs for truecolor cells, allocated as colour combinations appear.
///
/// ncurses draws colours only through pairs, and redefining a pair that was in use makes it scan the
/// whole screen, so pairs are never redefined one by one: when the table is full, every preview pair
/// is dropped at once (`reset_color_pairs`, one full repaint) and the cache starts again. With the
/// raster's 5-bit quantisation and hysteresis that happens every few seconds at most.
struct DirectPairCache {
    private var pairs: [UInt64: Int32] = [:]
    private let first: Int32
    private let end: Int32
    private var next: Int32
    /// The screens' own pairs, defined again after `reset_color_pairs` drops them with the rest.
    private let screenPairs: ColourPairs

    init(first: Int32, end: Int32, screenPairs: ColourPairs) {
        self.screenPairs = screenPairs
        self.first = first
        self.end = max(first, end)
        next = first
        pairs.reserveCapacity(Int(self.end - first))
    }

    /// The pair showing `foreground` on `background` (0xRRGGBB each, or -1 for the default colour).
    mutating func pair(foreground: Int32, background: Int32) -> Int32 {
        let key = UInt64(UInt32(bitPattern: foreground)) << 32 | UInt64(UInt32(bitPattern: background))
        if let pair = pairs[key] { return pair }
        if next >= end {
            reset_color_pairs()
            screenPairs.define()
            pairs.removeAll(keepingCapacity: true)
            next = first
        }
        let pair = next
        next += 1
        init_extended_pair(pair, Self.direct(foreground), Self.direct(background))
        pairs[key] = pair
        return pair
    }

    /// A direct-colour terminal reads colour numbers 0...7 as its ANSI palette, so the darkest blues
    /// move up to 8 (0x000008, which looks the same).
    static func direct(_ rgb: Int32) -> Int32 { rgb < 0 ? -1 : max(rgb, 8) }
}
