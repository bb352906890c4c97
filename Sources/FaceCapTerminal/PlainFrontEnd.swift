import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// `--plain`: one line per state or guidance change (for screen readers, pipes, logs and scripts), and
/// keys from standard input: raw keys when it is a terminal, or lines (`capture`, `retry`, `quit`) when it
/// is a pipe. The end of standard input only stops reading it.
public final class PlainFrontEnd: WizardFrontEnd {
    private let output: Int32
    private let input: Int32 = 0
    private var reading = true
    private var announcer: PlainAnnouncer
    private let clock: any MonotonicClock
    private var savedTerminal: termios?
    private let isTerminal: Bool
    private var pending: [UInt8] = []
    /// Whoever read the lines went away (`facecap --plain | head -1`).
    public private(set) var outputClosed = false

    /// Lines go to `output` (1 = stdout, or 2 when events take stdout). Run in the background from a shell
    /// (`facecap --plain … &`), it leaves the terminal alone: changing its modes or reading it would stop
    /// the process (SIGTTOU, SIGTTIN).
    ///
    /// Punctuation is ASCII unless `environment`'s locale is UTF-8 (nil: the process's environment); `clock`
    /// (seconds, any origin) paces the lines.
    public init(
        output: Int32, environment: [String: String]? = nil,
        clock: any MonotonicClock = SystemClock()
    ) {
        self.output = output
        let locale =
            environment
            ?? Dictionary(
                uniqueKeysWithValues: ["LC_ALL", "LC_CTYPE", "LANG"].compactMap { name in
                    getenv(name).map { (name, String(cString: $0)) }
                })
        announcer = PlainAnnouncer(ascii: !PlainText.localeIsUTF8(locale))
        self.clock = clock
        isTerminal = isatty(0) == 1
        if isTerminal {
            if tcgetpgrp(0) == getpgrp() {
                enterRawMode()
            } else {
                reading = false
            }
        }
    }

    deinit { close() }

    public var inputDescriptor: Int32? { reading ? input : nil }
    public var size: (columns: Int, rows: Int)? { nil }

    public func readInput() -> [FrontEndInput] {
        guard reading else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count == 0 {
            reading = false
            return isTerminal ? [] : lines([], final: true)
        }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return [] }
            reading = false
            return []
        }
        let bytes = buffer.prefix(count)
        if isTerminal { return keys(bytes).map(FrontEndInput.key) }
        return lines(bytes, final: false)
    }

    /// Raw keys from a terminal. Escape sequences (arrows, function keys: ESC [ … or ESC O …) are skipped
    /// whole, and ESC itself is no key here: a screen-reader user exploring with the arrows must not quit.
    private func keys(_ bytes: ArraySlice<UInt8>) -> [Key] {
        var keys: [Key] = []
        for byte in bytes {
            switch escape {
            case .none:
                switch byte {
                case 0x1b: escape = .started
                case 0x20: keys.append(.space)
                case 0x0a, 0x0d: keys.append(.enter)
                case 0x21...0x7e: keys.append(.character(Character(Unicode.Scalar(byte))))
                default: break
                }
            case .started:
                // ESC [ and ESC O open a sequence; ESC and another key is Alt+key, ignored.
                escape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .inSequence : .none
            case .inSequence:
                // Parameters and intermediates until the final byte (0x40...0x7e).
                if (0x40...0x7e).contains(byte) { escape = .none }
            }
        }
        // A terminal sends a whole sequence in one write: an ESC that ends what was read is the Esc key
        // alone, and the next key is a key again.
        if escape == .started { escape = .none }
        return keys
    }

    private enum EscapeState { case none, started, inSequence }
    private var escape = EscapeState.none

    /// Whole lines from a pipe: `capture`, `c`, `space` or an empty line take the photo (once offered),
    /// `retry`, `quit`. A line longer than `maximumLine` is dropped as it arrives, so input without line
    /// ends (`cat /dev/zero | facecap --plain …`) costs neither memory nor time.
    private func lines(_ bytes: ArraySlice<UInt8>, final: Bool) -> [FrontEndInput] {
        var keys: [FrontEndInput] = []
        func finish(_ line: [UInt8]) {
            guard !overlong else { return }
            switch String(decoding: line, as: UTF8.self).trimmingWhitespace().lowercased() {
            case "capture", "c", "space", "": keys.append(.key(.space))
            case "retry", "r": keys.append(.key(.character("r")))
            case "quit", "q": keys.append(.key(.character("q")))
            default: break
            }
        }
        for byte in bytes {
            if byte == 0x0a {
                finish(pending)
                pending.removeAll(keepingCapacity: true)
                overlong = false
            } else if pending.count < Self.maximumLine {
                pending.append(byte)
            } else {
                overlong = true
            }
        }
        if final, !pending.isEmpty {
            finish(pending)
            pending.removeAll()
        }
        return keys
    }

    private static let maximumLine = 256
    private var overlong = false

    public func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) {
        guard let line = announcer.offer(model, at: clock.now()) else { return }
        if POSIX.writeAll(output, line + "\n")?.code == EPIPE { outputClosed = true }
    }

    /// A line held back by the pacing may be said now: the run loop renders again even if nothing changed.
    public var hasDueOutput: Bool { announcer.isDue(at: clock.now()) }

    public func resize() -> (columns: Int, rows: Int)? { nil }

    public func suspend() { leaveRawMode() }

    public func resume() {
        if isTerminal, reading { enterRawMode() }
    }

    public func close() { leaveRawMode() }

    /// Keys arrive one by one without echo; Ctrl-C still sends SIGINT.
    private func enterRawMode() {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { return }
        savedTerminal = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(input, TCSANOW, &settings)
    }

    private func leaveRawMode() {
        guard var saved = savedTerminal else { return }
        tcsetattr(input, TCSANOW, &saved)
        savedTerminal = nil
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
