import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The file readers' and writers' own rules over the `POSIX` helpers: a directory refused at open, devices
/// refused as whole files, errno worded as an `InputFileError`.
package enum POSIXFile {
    /// Opens `path` read-only (EINTR retried); on failure returns the errno.
    static func openForReading(_ path: String) -> Result<Int32, Errno> {
        POSIX.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }.flatMap { fd in
            // open(2) succeeds on a directory; reading it fails later with a less clear EISDIR.
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                _ = Glibc.close(fd)
                return .failure(Errno(EISDIR))
            }
            return .success(fd)
        }
    }

    /// Size of the open file in bytes (0 for pipes and other non-regular files).
    static func size(_ fd: Int32) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(info.st_size)
    }

    /// One read(2) (EINTR retried): what is available, 0 at the end of the file.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
        return POSIX.retryingInterrupts { Glibc.read(fd, base, buffer.count) }
    }

    /// The whole content of `path`, refusing files larger than `limit` bytes before allocating.
    package static func readAll(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let fd: Int32
        switch openForReading(path) {
        case .success(let value): fd = value
        case .failure(let error): throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
        }
        defer { _ = Glibc.close(fd) }
        // Devices such as /dev/zero never end: only regular files and pipes (`<(command)`) are read.
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFIFO {
            throw InputFileError(path: path, problem: .notARegularFile)
        }
        switch POSIX.readAll(fd, expected: size(fd), limit: limit) {
        case .success(let bytes):
            return bytes
        case .failure(.tooLarge(let bytes)):
            throw InputFileError(path: path, problem: .fileTooLarge(bytes: bytes, limit: limit))
        case .failure(.system(let error)):
            throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
        }
    }
}
