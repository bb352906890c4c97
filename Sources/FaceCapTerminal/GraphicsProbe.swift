import CCurses
import FaceCapCore
#if canImport(Glibc)
import Glibc
#endif

/// A way to put real pixels on a terminal.
public enum GraphicsProtocol: String, Equatable, Sendable {
    /// The kitty graphics protocol (APC `_G` commands, base64 payloads); kitty and terminals that copy it.
    case kitty
    /// DEC sixel (DCS `q` strings); xterm as a VT340, mlterm, foot, WezTerm, Windows Terminal.
    case sixel
}

/// What a terminal answered to the graphics queries (`GraphicsProbe.queries`).
struct GraphicsAnswers: Equatable {
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

    static func == (a: GraphicsAnswers, b: GraphicsAnswers) -> Bool {
        a.kitty == b.kitty && a.deviceAttributes == b.deviceAttributes && a.sixel == b.sixel
            && a.sixelLimit?.width == b.sixelLimit?.width && a.sixelLimit?.height == b.sixelLimit?.height
            && a.cellSize?.width == b.cellSize?.width && a.cellSize?.height == b.cellSize?.height
    }

    /// Reads the replies out of what the terminal sent (other bytes, such as keys typed meanwhile, are skipped).
    static func parse(_ bytes: [UInt8]) -> GraphicsAnswers {
        var answers = GraphicsAnswers()
        var i = 0
        let escape: UInt8 = 0x1B
        while i < bytes.count {
            guard bytes[i] == escape, i + 1 < bytes.count else {
                i += 1
                continue
            }
            if bytes[i + 1] == UInt8(ascii: "_") {
                // APC … ST: kitty's reply, "Gi=31;OK" (or an error text).
                var end = i + 2
                while end + 1 < bytes.count, !(bytes[end] == escape && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                let body = String(decoding: bytes[(i + 2)..<min(end, bytes.count)], as: UTF8.self)
                if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") { answers.kitty = true }
                i = end + 2
                continue
            }
            guard bytes[i + 1] == UInt8(ascii: "[") else {
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
                   w > 0, h > 0 {
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

/// Asks the terminal which graphics it speaks: never guessed from TERM, which tmux, ssh and emulators
/// that copy xterm's name all get wrong.
///
/// One burst of queries, the Primary Device Attributes request last: terminals answer in order and every
/// one answers that, so its reply ends the wait; a terminal (or a pipe) that answers nothing costs the
/// time-out once, at start-up.
enum GraphicsProbe {
    /// kitty's query action (a 1×1 image that is checked, never stored), XTSMGRAPHICS (sixel geometry), the
    /// cell size in pixels, and Primary Device Attributes.
    static let queries: [UInt8] = Array(("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        + "\u{1B}[?2;1;0S" + "\u{1B}[16t" + "\u{1B}[c").utf8)
    /// Long enough for a terminal across an ordinary network link, short enough not to be noticed.
    static let timeout = 0.25

    /// Sends the queries on `output` and reads the answers from `input` (a terminal), for up to `timeout`
    /// seconds; nil when `input` is not a terminal. Echo and line buffering are off meanwhile and restored after.
    static func ask(input: Int32, output: Int32, timeout: Double = GraphicsProbe.timeout) -> GraphicsAnswers? {
        guard isatty(input) == 1 else { return nil }
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
        guard writeAll(output, queries) else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        let deadline = monotonicSeconds() + timeout
        var answers = GraphicsAnswers()
        while !answers.deviceAttributes {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, (left * 1000).rounded(.up))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { break }
            received += chunk[0..<count]
            answers = GraphicsAnswers.parse(received)
        }
        return answers
    }

    /// The protocol for `mode`, given the terminal's answers (nil: it did not answer, or is no terminal).
    /// Forced modes are taken at their word; `auto` prefers kitty (true colour, scaled by the terminal)
    /// and takes sixel only with a known cell size (its pixels must match the cells).
    static func choose(_ mode: GraphicsMode, answers: GraphicsAnswers?, cellSize: (width: Int, height: Int)?)
        -> GraphicsProtocol? {
        switch mode {
        case .cells: return nil
        case .kitty: return .kitty
        case .sixel: return .sixel
        case .auto:
            guard let answers else { return nil }
            if answers.kitty { return .kitty }
            if answers.sixel, cellSize != nil { return .sixel }
            return nil
        }
    }

    /// One cell in pixels: the window's pixel size over its cells (TIOCGWINSZ), else the terminal's answer.
    static func cellSize(descriptor: Int32, columns: Int, rows: Int, answers: GraphicsAnswers?)
        -> (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0
        if columns > 0, rows > 0, ccurses_terminal_pixels(descriptor, &width, &height) == 0,
           Int(width) >= columns, Int(height) >= rows {
            return (Int(width) / columns, Int(height) / rows)
        }
        return answers?.cellSize
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
