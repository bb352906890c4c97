import FaceCapCore
#if canImport(Glibc)
    import Glibc
#endif

/// Thin POSIX helpers shared by the file readers and writers: EINTR retried, errno returned as a value.
enum POSIXFile {
    /// Opens `path` read-only; on failure returns the errno.
    static func openForReading(_ path: String) -> Result<Int32, Errno> {
        while true {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                // open(2) succeeds on a directory; reading it fails later with a less clear EISDIR.
                var info = stat()
                if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                    _ = Glibc.close(fd)
                    return .failure(Errno(EISDIR))
                }
                return .success(fd)
            }
            if errno != EINTR { return .failure(Errno(errno)) }
        }
    }

    /// Size of the open file in bytes (0 for pipes and other non-regular files).
    static func size(_ fd: Int32) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes into `buffer`, retrying short reads; returns the bytes read (fewer only
    /// at the end of the file).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        var done = 0
        while done < buffer.count {
            let n = Glibc.read(fd, buffer.baseAddress! + done, buffer.count - done)
            if n > 0 {
                done += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                return .failure(Errno(errno))
            }
        }
        return .success(done)
    }

    /// One read(2) (EINTR retried): what is available, 0 at the end of the file.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        guard buffer.count > 0 else { return .success(0) }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress!, buffer.count)
            if n >= 0 { return .success(n) }
            if errno != EINTR { return .failure(Errno(errno)) }
        }
    }

    /// Writes all of `buffer`, retrying short writes and EINTR.
    static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        if let error = POSIX.writeAll(fd, buffer) { return .failure(error) }
        return .success(())
    }

    /// The whole content of `path`, refusing files larger than `limit` bytes before allocating.
    static func readAll(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
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
        let expected = size(fd)
        guard expected <= limit else {
            throw InputFileError(path: path, problem: .fileTooLarge(bytes: expected, limit: limit))
        }
        var bytes: [UInt8] = []
        var chunk = max(expected + 1, 65536)  // +1 sees a file that grew, without a second pass for most files
        while true {
            let start = bytes.count
            guard start + chunk <= limit + 1 else {
                throw InputFileError(path: path, problem: .fileTooLarge(bytes: start + chunk, limit: limit))
            }
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let result = bytes.withUnsafeMutableBytes {
                read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
            }
            switch result {
            case .success(let n):
                if n < chunk {
                    bytes.removeLast(chunk - n)
                    return bytes
                }
            case .failure(let error):
                throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
            }
            chunk = max(chunk, 65536)
        }
    }
}
