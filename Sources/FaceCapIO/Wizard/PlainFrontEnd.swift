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
    private var lastLine: String?
    private var savedTerminal: termios?
    private let isTerminal: Bool
    private var pending: [UInt8] = []

    /// Lines go to `output` (1 = stdout, or 2 when events take stdout).
    public init(output: Int32) {
        self.output = output
        isTerminal = isatty(0) == 1
        if isTerminal { enterRawMode() }
    }

    deinit { close() }

    public var inputDescriptor: Int32? { reading ? input : nil }
    public var size: (columns: Int, rows: Int)? { nil }

    public func readInput() -> [FrontEndInput] {
        guard reading else { return [] }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count == 0 {
            reading = false
            return lines(final: true)
        }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return [] }
            reading = false
            return []
        }
        let bytes = buffer.prefix(count)
        if isTerminal { return bytes.compactMap(Self.key).map(FrontEndInput.key) }
        pending += bytes
        return lines(final: false)
    }

    /// A raw key from a terminal.
    private static func key(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x20: return .space
        case 0x0a, 0x0d: return .enter
        case 0x1b: return .escape
        case 0x21...0x7e: return .character(Character(Unicode.Scalar(byte)))
        default: return nil
        }
    }

    /// Whole lines from a pipe: `capture` (or a lone space) takes the photo, `retry`, `quit`; an empty line is Enter.
    private func lines(final: Bool) -> [FrontEndInput] {
        var keys: [FrontEndInput] = []
        while let end = pending.firstIndex(of: 0x0a) ?? (final && !pending.isEmpty ? pending.endIndex : nil) {
            let text = String(decoding: pending[..<end], as: UTF8.self)
            pending.removeSubrange(..<min(end + 1, pending.endIndex))
            switch text.trimmingWhitespace().lowercased() {
            case "capture", "c", "space", "": keys.append(.key(text.isEmpty ? .enter : .space))
            case "retry", "r": keys.append(.key(.character("r")))
            case "quit", "q": keys.append(.key(.character("q")))
            default: break
            }
        }
        return keys
    }

    public func render(_ model: ScreenModel, preview: Frame?, photo: Frame?) {
        let line = PlainText.line(for: model)
        guard line != lastLine else { return }
        lastLine = line
        writeAll(output, line + "\n")
    }

    public func wantsPreviewFrame(at now: Double) -> Bool { false }
    public func resize() -> (columns: Int, rows: Int)? { nil }

    public func suspend() { leaveRawMode() }

    public func resume() {
        if isTerminal { enterRawMode() }
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

/// Writes all of `text` to `descriptor`, retrying short writes and EINTR; gives up on other errors.
func writeAll(_ descriptor: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
}
