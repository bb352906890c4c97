#if canImport(Glibc)
import Glibc
#endif

/// The terminal's own background colour, asked with OSC 11 before the screen starts (in `TerminalProbe`'s
/// one round of queries), so that coloured words can be drawn as ink that reads at least 4.5:1 on it.
public enum TerminalBackground {
    /// An sRGB colour, 0...255 a channel.
    public struct Colour: Equatable, Sendable {
        public var r: UInt8, g: UInt8, b: UInt8
        public init(r: UInt8, g: UInt8, b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }

        /// WCAG relative luminance, 0...1.
        public var luminance: Double {
            func channel(_ v: UInt8) -> Double {
                let c = Double(v) / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
        }

        /// WCAG contrast ratio against `other`, 1...21.
        public func contrast(_ other: Colour) -> Double {
            let a = luminance, b = other.luminance
            return (max(a, b) + 0.05) / (min(a, b) + 0.05)
        }
    }

    /// The question (ST-terminated); `TerminalProbe` sends it first in its burst.
    public static let query: [UInt8] = Array("\u{1B}]11;?\u{1B}\\".utf8)

    /// `11;rgb:RRRR/GGGG/BBBB` (1 to 4 hex digits a channel; `rgba:` with a fourth ignored).
    static func parseOSC11(_ body: [UInt8]) -> Colour? {
        guard let text = String(validating: body, as: UTF8.self), text.hasPrefix("11;") else { return nil }
        var spec = Substring(text.dropFirst(3))
        if spec.hasPrefix("rgb:") {
            spec = spec.dropFirst(4)
        } else if spec.hasPrefix("rgba:") {
            spec = spec.dropFirst(5)
        } else {
            return nil
        }
        let parts = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        var channels: [UInt8] = []
        for part in parts.prefix(3) {
            guard (1...4).contains(part.count), let v = UInt32(part, radix: 16) else { return nil }
            let maximum = Double((1 << (4 * part.count)) - 1)
            channels.append(UInt8((Double(v) / maximum * 255).rounded()))
        }
        return Colour(r: channels[0], g: channels[1], b: channels[2])
    }
}

/// The ink of each coloured word when the terminal said its background (OSC 11) and has at least 256
/// colours: for each tone, whichever of a dark and a light shade of its hue reads best on that background,
/// if that is at least 4.5:1. Otherwise (no answer, 16 or 8 colours, whose look the theme decides, or a
/// mid-grey background neither shade reads on) the words keep a background of their own, which reads
/// 4.5:1 on any theme (`ColourPairs`).
enum ToneInk: CaseIterable {
    case good, warning, error, accent

    /// xterm-256 shades of the tone's hue, dark to light.
    var shades: [Int32] {
        switch self {
        case .good: return [22, 28, 83]
        case .warning: return [94, 136, 220]
        case .error: return [124, 160, 210]
        case .accent: return [24, 31, 81]
        }
    }

    static let minimumContrast = 4.5

    /// The xterm-256 colour number to draw the tone in on `background`, or nil for a box.
    func ink(on background: TerminalBackground.Colour) -> Int32? {
        var best: (number: Int32, contrast: Double)?
        for n in shades {
            let c = xtermRGB(Int(n))
            let contrast = TerminalBackground.Colour(r: c.r, g: c.g, b: c.b).contrast(background)
            if contrast >= Self.minimumContrast && contrast > (best?.contrast ?? 0) { best = (n, contrast) }
        }
        return best?.number
    }
}
