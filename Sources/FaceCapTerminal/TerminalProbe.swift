import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// What a terminal answered to the start-up queries (`TerminalProbe`).
struct TerminalAnswers: Equatable {
    /// OSC 11: the theme's background.
    var background: TerminalBackground.Colour?
    /// The kitty query (`a=q`, image id 31) was answered OK.
    var kitty = false
    /// The Primary Device Attributes reply arrived; every terminal sends one, so it ends the wait.
    var deviceAttributes = false
    /// The attributes include 4 (sixel graphics).
    var sixel = false
    /// XTSMGRAPHICS: the largest sixel image, in pixels.
    var sixelLimit: (width: Int, height: Int)?
    /// `CSI 16 t`: the size of one cell in pixels.
    var cellSize: (width: Int, height: Int)?

    static func == (a: TerminalAnswers, b: TerminalAnswers) -> Bool {
        a.background == b.background && a.kitty == b.kitty && a.deviceAttributes == b.deviceAttributes
            && a.sixel == b.sixel
            && a.sixelLimit?.width == b.sixelLimit?.width && a.sixelLimit?.height == b.sixelLimit?.height
            && a.cellSize?.width == b.cellSize?.width && a.cellSize?.height == b.cellSize?.height
    }

    /// Reads the replies out of what the terminal sent (other bytes, such as keys typed meanwhile, are
    /// skipped; a sequence not complete yet is left for the next read).
    static func parse(_ bytes: [UInt8]) -> TerminalAnswers {
        var answers = TerminalAnswers()
        let escape: UInt8 = 0x1B
        var i = 0
        while i < bytes.count {
            guard bytes[i] == escape, i + 1 < bytes.count else {
                i += 1
                continue
            }
            let kind = bytes[i + 1]
            if kind == UInt8(ascii: "]") || kind == UInt8(ascii: "_") || kind == UInt8(ascii: "P") {
                // A control string: OSC (to BEL or ST), APC or DCS (to ST).
                var end = i + 2
                var terminator = 0
                while end < bytes.count {
                    if bytes[end] == 0x07 { terminator = 1; break }
                    if bytes[end] == escape, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") {
                        terminator = 2
                        break
                    }
                    end += 1
                }
                guard terminator > 0 else { break }
                let body = Array(bytes[(i + 2)..<end])
                if kind == UInt8(ascii: "]"), let colour = TerminalBackground.parseOSC11(body) {
                    answers.background = colour
                } else if kind == UInt8(ascii: "_") {
                    // kitty's reply: "Gi=31;OK" (or an error text).
                    let text = String(decoding: body, as: UTF8.self)
                    if text.hasPrefix("G"), text.contains("i=31"), text.hasSuffix(";OK") { answers.kitty = true }
                }
                i = end + terminator
                continue
            }
            guard kind == UInt8(ascii: "[") else {
                i += 2
                continue
            }
            // CSI: parameters up to the final byte (0x40...0x7E).
            var end = i + 2
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { break }
            let parameters = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
            let final = bytes[end]
            let isPrivate = parameters.hasPrefix("?")
            let numbers = (isPrivate ? String(parameters.dropFirst()) : parameters)
                .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            switch final {
            case UInt8(ascii: "c") where isPrivate:
                answers.deviceAttributes = true
                answers.sixel = numbers.dropFirst().contains(4)
            case UInt8(ascii: "S") where isPrivate:
                // XTSMGRAPHICS reply: Pi=2 (geometry); Ps=0 (success); width; height.
                if numbers.count >= 4, numbers[0] == 2, numbers[1] == 0, let w = numbers[2], let h = numbers[3],
                    w > 0, h > 0
                {
                    answers.sixelLimit = (w, h)
                }
            case UInt8(ascii: "t") where !isPrivate:
                if numbers.count >= 3, numbers[0] == 6, let h = numbers[1], let w = numbers[2], w > 0, h > 0 {
                    answers.cellSize = (w, h)
                }
            default:
                break
            }
            i = end + 1
        }
        return answers
    }
}

/// The one round of questions facecap asks the terminal before curses starts: its background (OSC 11, for
/// the words' colours) and which graphics it shows (kitty, sixel, the cell size), in one burst with a
/// Primary Device Attributes request last. Terminals answer in order and every one answers that, so its
/// reply ends the one wait (a terminal that knows none of the others answers only it, at once); a
/// terminal that answers nothing costs the time-out once. One raw-mode section and one round trip, however
/// many questions; a reply that comes after the wait (a slow link) is swallowed by the key decoder, never
/// read as keys (`KeyDecoder`).
enum TerminalProbe {
    /// Primary Device Attributes: the last question, whose answer ends the wait.
    static let deviceAttributes: [UInt8] = Array("\u{1B}[c".utf8)
    /// Long enough for a terminal across an ordinary network link, short enough not to be noticed.
    static let timeout = 0.25

    /// The burst: OSC 11 when `background`, the graphics queries when `graphics`, the device attributes last.
    static func queries(background: Bool, graphics: Bool) -> [UInt8] {
        (background ? TerminalBackground.query : []) + (graphics ? GraphicsProbe.queries : []) + deviceAttributes
    }

    /// Sends the queries on `output` and reads the answers from `input` (the same terminal), for up to
    /// `timeout` seconds; nil when either is not a terminal, or nothing is asked. Echo and line buffering are
    /// off meanwhile and restored after.
    static func ask(
        input: Int32, output: Int32, background: Bool, graphics: Bool,
        timeout: Double = TerminalProbe.timeout
    ) -> TerminalAnswers? {
        guard background || graphics, isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }
        guard POSIX.writeAll(output, queries(background: background, graphics: graphics), retryingAgain: true) == nil
        else {
            return nil
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        let deadline = SystemClock().now() + timeout
        var answers = TerminalAnswers()
        while !answers.deviceAttributes {
            let left = deadline - SystemClock().now()
            guard left > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, (left * 1000).rounded(.up))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { break }
            received += chunk[0..<count]
            answers = TerminalAnswers.parse(received)
        }
        return answers
    }
}
