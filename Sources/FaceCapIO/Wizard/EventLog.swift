import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// `--events FILE|-`: JSON Lines, each written with one write(2) as it happens, so a reader sees every
/// event at once (no buffering to flush).
public final class EventLog {
    private var descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` ("-" is standard output), truncating it.
    public init(path: String) throws(OutputFileError) {
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
            return
        }
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard opened >= 0 else {
            var error = OutputFileError(path: path, problem: OutputFileError.problem(errno: errno))
            error.option = "--events"
            throw error
        }
        descriptor = opened
        ownsDescriptor = true
    }

    deinit { close() }

    /// Writes one event that happened `t` seconds after the program started.
    public func write(_ record: EventRecord, t: Double) {
        guard descriptor >= 0 else { return }
        if POSIX.writeAll(descriptor, record.json(t: max(0, t)) + "\n")?.code == EPIPE { readerGone = true }
    }

    /// The events went to a pipe (`--events -` into another program, a FIFO) whose reader went away.
    public private(set) var readerGone = false

    public func close() {
        if ownsDescriptor, descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }
}
