#if canImport(Glibc)
import Glibc
#endif

/// The terminal's own background colour, asked with OSC 11 before the screen starts, so that coloured
/// words can be drawn as ink that reads at least 4.5:1 on it.
///
/// The question (`ESC ] 11 ; ? ESC \`) is followed by a device-attributes request (`ESC [ c`), which every
/// VT100-like terminal answers: a terminal that does not know OSC 11 answers only the second, and the wait
/// ends at that answer, not at the time-out (tmux 3.3 without an outer terminal, the Linux console). The
/// time-out is only for a terminal that answers neither.
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

    /// The bytes sent: OSC 11 query (ST-terminated), then primary device attributes.
    public static let query: [UInt8] = Array("\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)

    /// What the replies read so far say: the background (once its OSC 11 reply is complete) and whether the
    /// device-attributes reply has come (nothing more will).
    public static func parse(_ bytes: [UInt8]) -> (colour: Colour?, finished: Bool) {
        var colour: Colour?
        var finished = false
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else {
                i += 1
                continue
            }
            if bytes[i + 1] == UInt8(ascii: "]") {
                // OSC: up to BEL or ESC \.
                var j = i + 2
                var end: Int?
                while j < bytes.count {
                    if bytes[j] == 0x07 { end = j; break }
                    if bytes[j] == 0x1B, j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "\\") { end = j; break }
                    j += 1
                }
                guard let end else { break }
                if let c = parseOSC11(Array(bytes[(i + 2)..<end])) { colour = c }
                i = end + 1
            } else if bytes[i + 1] == UInt8(ascii: "[") {
                // CSI: parameters, then a final byte (0x40...0x7E); DA1's reply is `ESC [ ? … c`.
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                if bytes[j] == UInt8(ascii: "c"), i + 2 < j, bytes[i + 2] == UInt8(ascii: "?") { finished = true }
                i = j + 1
            } else {
                i += 1
            }
        }
        return (colour, finished)
    }

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

    /// Asks the terminal on `input`/`output` (the same terminal; `input` a tty) for its background, waiting
    /// at most `timeout` seconds; nil when it does not say. The terminal's modes are put back as they were.
    public static func ask(input: Int32 = 0, output: Int32 = 1, timeout: Double = 0.2) -> Colour? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(input, TCSANOW, &saved) }
        let sent = query.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        guard sent == query.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        let deadline = monotonicSeconds() + timeout
        while true {
            let result = parse(received)
            if result.finished { return result.colour }
            let left = deadline - monotonicSeconds()
            if left <= 0 { return result.colour }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, (left * 1000).rounded(.up))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return parse(received).colour }
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n <= 0 { return parse(received).colour }
            received.append(contentsOf: buffer[0..<n])
        }
    }

    private static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// The ink of each coloured word when the terminal said its background (OSC 11) and has at least 256
/// colours: for each tone, whichever of a dark and a light shade of its hue reads best on that background,
/// if that is at least 4.5:1. Otherwise (no answer, 16 or 8 colours, whose look the theme decides, or a
/// mid-grey background neither shade reads on) the words keep a background of their own, which reads
/// 4.5:1 on any theme (`UIPairs`).
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
