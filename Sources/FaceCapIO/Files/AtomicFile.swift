import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that never leave a partial file behind.
public enum AtomicFile {
    /// Writes `bytes` to a temporary file in the same directory (mode 0600), fsyncs it, renames it over
    /// `path` and fsyncs the directory, so `path` holds either its old content or all of the new one.
    /// On failure (missing folder, read-only, disk full) the temporary file is removed and nothing else
    /// changes.
    ///
    /// With `replace` false an existing `path` is left alone and `.alreadyExists` thrown: the file is
    /// put in place with link(2), which fails rather than overwrite, so two writers can never take the
    /// same name (on file systems without hard links, such as FAT, a check just before rename(2)).
    ///
    /// `calls` are the system calls it makes (`.system` unless a test records their order or makes one
    /// fail: nothing else can see that the data reached the disk before the name did).
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o600,
        replace: Bool = true, calls: FileCalls = .system
    ) throws(OutputFileError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw OutputFileError(path: path, problem: .isDirectory) }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw OutputFileError(path: path, problem: .isDirectory) }
            if !replace { throw OutputFileError(path: path, problem: .alreadyExists) }
        }
        var fd: Int32 = -1
        var temporary = ""
        for attempt in 0..<100 {
            temporary = "\(directory)/.\(name).\(getpid())-\(attempt).tmp"
            fd = calls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw OutputFileError(path: path, problem: OutputFileError.problem(errno: errno)) }
        func fail(_ code: Int32) -> OutputFileError {
            _ = calls.close(fd)
            _ = calls.unlink(temporary)
            return OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
        }
        // The process umask could only narrow the mode; fchmod makes it exactly `mode`.
        _ = fchmod(fd, mode)
        let written = bytes.withUnsafeBytes { calls.write(fd, $0) }
        if written != 0 { throw fail(written) }
        if calls.fsync(fd) != 0 { throw fail(errno) }
        if calls.close(fd) != 0 {
            let code = errno
            _ = calls.unlink(temporary)
            throw OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
        }
        if let code = place(temporary, at: path, replace: replace, calls: calls) {
            _ = calls.unlink(temporary)
            throw OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
        }
        // Make the rename itself durable; a failure here cannot undo it, so it is not an error.
        let directoryFD = calls.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if directoryFD >= 0 {
            _ = calls.fsync(directoryFD)
            _ = calls.close(directoryFD)
        }
    }

    /// Moves the finished temporary file to `path`; returns the errno on failure.
    private static func place(_ temporary: String, at path: String, replace: Bool, calls: FileCalls) -> Int32? {
        if replace { return calls.rename(temporary, path) == 0 ? nil : errno }
        if calls.link(temporary, path) == 0 {
            _ = calls.unlink(temporary)
            return nil
        }
        let code = errno
        // EPERM/ENOTSUP: a file system without hard links (FAT, some network shares).
        guard code == EPERM || code == EOPNOTSUPP else { return code }
        if access(path, F_OK) == 0 { return EEXIST }
        return calls.rename(temporary, path) == 0 ? nil : errno
    }
}

/// The system calls `AtomicFile` makes, as a table (like the camera's device-ops table): `.system` calls
/// the C library; a test wraps it to record the order of the calls or to make one fail. A call that fails
/// returns -1 with `errno` set, as the C function does
/// (`write` returns the errno itself).
public struct FileCalls: Sendable {
    public var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// Writes all of `bytes` (again after EINTR); 0, or the errno of the failure.
    public var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32
    public var fsync: @Sendable (_ fd: Int32) -> Int32
    public var close: @Sendable (_ fd: Int32) -> Int32
    public var rename: @Sendable (_ from: String, _ to: String) -> Int32
    public var link: @Sendable (_ from: String, _ to: String) -> Int32
    public var unlink: @Sendable (_ path: String) -> Int32

    public static let system = FileCalls(
        open: { Glibc.open($0, $1, $2) },
        write: { fd, bytes in
            POSIX.writeAll(fd, bytes)?.code ?? 0
        },
        fsync: { Glibc.fsync($0) },
        close: { Glibc.close($0) },
        rename: { Glibc.rename($0, $1) },
        link: { Glibc.link($0, $1) },
        unlink: { Glibc.unlink($0) })
}
