import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads a `.y4m` file frame by frame without loading it whole: the header at open, then one frame per
/// call into a reused `Frame`.
public final class Y4MFileReader {
    public let path: String
    public let header: Y4MHeader
    /// Frames read since the start (or the last rewind).
    public private(set) var frameIndex = 0

    private var fd: Int32
    /// Read-ahead for the text lines; frame payloads mostly bypass it.
    private var buffer: [UInt8]
    private var bufferStart = 0, bufferEnd = 0
    private var atEndOfFile = false
    /// File offset of the first FRAME line.
    private let dataOffset: Int
    /// Size of the file when opened (0 when it is not a regular file, e.g. a pipe).
    private let fileSize: Int

    /// Opens `path` and parses its header; throws `InputFileError` (exit 66) for a missing, unreadable or
    /// malformed file.
    public init(path: String, limits: ImageLimits = .clip) throws(InputFileError) {
        self.path = path
        switch POSIXFile.openForReading(path) {
        case .success(let value): fd = value
        case .failure(let error): throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
        }
        buffer = [UInt8](repeating: 0, count: 65536)
        fileSize = POSIXFile.size(fd)
        do throws(InputFileError) {
            try Self.fill(
                fd: fd, buffer: &buffer, start: &bufferStart, end: &bufferEnd, eof: &atEndOfFile,
                path: path, minimum: Y4M.maxHeaderLength + 1)
            let data = buffer[0..<bufferEnd]
            guard !data.isEmpty else { throw InputFileError(path: path, problem: .data(.empty)) }
            guard data.starts(with: Y4M.signature) else {
                guard let kind = MediaKind.sniff(data) else {
                    throw InputFileError(path: path, problem: .data(MediaKind.unreadable(data)))
                }
                throw InputFileError(
                    path: path,
                    problem: .data(
                        .wrongKind(.photoNotClip(format: kind.name))))
            }
            guard let newline = data.prefix(Y4M.maxHeaderLength + 1).firstIndex(of: 0x0A) else {
                throw InputFileError(
                    path: path,
                    problem: .data(
                        atEndOfFile
                            ? .truncated(.headerLine)
                            : .malformed(.headerLineTooLong(limit: Y4M.maxHeaderLength))))
            }
            do {
                header = try Y4MHeader.parse(line: data[..<newline], limits: limits)
            } catch {
                throw InputFileError(path: path, problem: .data(error))
            }
            bufferStart = newline + 1
            dataOffset = newline + 1
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
    }

    deinit { close() }

    /// Writes the next frame into `frame`, reusing its storage; returns false at the end of the file.
    /// A frame cut short by the end of the file throws `truncated` (the frames before it were whole).
    public func readFrame(into frame: inout Frame) throws(InputFileError) -> Bool {
        guard fd >= 0 else { return false }
        if bufferEnd - bufferStart < Y4M.maxFrameLineLength + 1 {
            try Self.fill(
                fd: fd, buffer: &buffer, start: &bufferStart, end: &bufferEnd, eof: &atEndOfFile,
                path: path, minimum: Y4M.maxFrameLineLength + 1)
        }
        if bufferStart == bufferEnd { return false }
        let window = buffer[bufferStart..<min(bufferEnd, bufferStart + Y4M.maxFrameLineLength + 1)]
        guard let newline = window.firstIndex(of: 0x0A) else {
            throw InputFileError(
                path: path,
                problem: .data(
                    Y4MHeader.unterminatedFrameLine(
                        window, atEnd: atEndOfFile && window.count <= Y4M.maxFrameLineLength, index: frameIndex)))
        }
        do {
            try Y4MHeader.checkFrameLine(buffer[bufferStart..<newline], index: frameIndex)
        } catch {
            throw InputFileError(path: path, problem: .data(error))
        }
        bufferStart = newline + 1
        let count = header.frameByteCount
        // A header may promise frames far larger than the file: check before allocating one.
        let position = lseek(fd, 0, SEEK_CUR)
        if fileSize > 0, position >= 0 {
            let available = fileSize - (Int(position) - (bufferEnd - bufferStart))
            if available < count {
                atEndOfFile = true
                throw InputFileError(
                    path: path,
                    problem: .data(
                        .truncated(
                            .frameBytes(frame: frameIndex, present: max(0, available), expected: count))))
            }
        }
        guard
            frame.prepare(
                format: header.pixelFormat, width: header.width, height: header.height,
                colorRange: header.colorRange)
        else {
            throw InputFileError(path: path, problem: .data(.tooLarge(width: header.width, height: header.height)))
        }
        let buffered = min(count, bufferEnd - bufferStart)
        let start = bufferStart
        let result: Result<Int, Errno> = frame.data.withUnsafeMutableBufferPointer { out in
            buffer.withUnsafeBufferPointer { src in
                _ = UnsafeMutableBufferPointer(rebasing: out[0..<buffered])
                    .initialize(fromContentsOf: src[start..<(start + buffered)])
            }
            guard buffered < count else { return .success(0) }
            return POSIX.readFully(
                fd,
                into: UnsafeMutableRawBufferPointer(
                    UnsafeMutableBufferPointer(
                        rebasing: out[buffered..<count])))
        }
        bufferStart += buffered
        switch result {
        case .success(let n):
            if buffered + n < count {
                atEndOfFile = true
                throw InputFileError(
                    path: path,
                    problem: .data(
                        .truncated(
                            .frameBytes(frame: frameIndex, present: buffered + n, expected: count))))
            }
        case .failure(let error):
            throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
        }
        frame.timestamp = Double(frameIndex) / header.frameRate.value
        frame.isWarmUp = false
        frameIndex += 1
        return true
    }

    /// True when the last `readWholeFrame` stopped at a frame cut short by the end of the file.
    public private(set) var endedWithTruncatedFrame = false

    /// The clip rule, the same for replay (`ClipSource`) and `facecap analyze`: a clip plays up to its last
    /// whole frame. A frame cut short by the end of the file ends the clip like the end of the file does (true
    /// `endedWithTruncatedFrame`; callers warn), but a clip without one whole frame (only a header, or a first
    /// frame cut short) is not a clip: `InputFileError` (exit 66). Malformed data and read errors throw.
    public func readWholeFrame(into frame: inout Frame) throws(InputFileError) -> Bool {
        do {
            if try readFrame(into: &frame) { return true }
        } catch {
            guard frameIndex > 0, case .data(.truncated) = error.problem else { throw error }
            endedWithTruncatedFrame = true
            return false
        }
        guard frameIndex > 0 else {
            throw InputFileError(path: path, problem: .data(.malformed(.noFrames)))
        }
        return false
    }

    /// Goes back to the first frame (for looping replay).
    public func rewind() throws(InputFileError) {
        guard fd >= 0 else { return }
        guard lseek(fd, off_t(dataOffset), SEEK_SET) >= 0 else {
            throw InputFileError(path: path, problem: InputFileError.problem(errno: errno))
        }
        bufferStart = 0
        bufferEnd = 0
        atEndOfFile = false
        endedWithTruncatedFrame = false
        frameIndex = 0
    }

    /// Closes the file; safe to call twice.
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// Moves unread bytes to the front and reads until at least `minimum` bytes are buffered or the file ends.
    private static func fill(
        fd: Int32, buffer: inout [UInt8], start: inout Int, end: inout Int, eof: inout Bool,
        path: String, minimum: Int
    ) throws(InputFileError) {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                base.update(from: base + start, count: end - start)
            }
            end -= start
            start = 0
        }
        while end < minimum, !eof {
            let had = end
            let result = buffer.withUnsafeMutableBytes { raw in
                POSIXFile.readSome(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[had...]))
            }
            switch result {
            case .success(let n):
                if n == 0 { eof = true }
                end += n
            case .failure(let error):
                throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
            }
        }
    }
}

/// Writes frames to a new `.y4m` file: the header at creation, then one whole frame per `write`.
///
/// Formats: planar YUV and grey are stored as they are (yuv420p as C420jpeg); YUYV is repacked to C422
/// planar; RGB24 is converted to C444 with the BT.601 matrix in the writer's colour range. The file is
/// created with mode 0600 (it holds a face). When a write fails (disk full), the file is cut back to its
/// last whole frame, so what is there stays a valid clip.
public final class Y4MFileWriter {
    public let path: String
    public let header: Y4MHeader
    public let format: PixelFormat
    public private(set) var framesWritten = 0

    private var fd: Int32
    private let encoder: Y4MEncoder
    private var output: [UInt8] = []
    private var size: Int

    /// Creates (or truncates) `path` and writes the header. `format` is the format of the frames that
    /// will be passed to `write`; `frameRate` is stored as a ratio (`Y4MRatio(frameRate:)`).
    public init(
        path: String, width: Int, height: Int, format: PixelFormat, frameRate: Double,
        colorRange: ColorRange
    ) throws(OutputFileError) {
        self.path = path
        self.format = format
        guard width > 0, height > 0, frameRate > 0, frameRate.isFinite else {
            throw OutputFileError(
                path: path, problem: .frameMismatch(.clipShape(width: width, height: height, frameRate: frameRate)))
        }
        header = Y4MEncoder.header(
            width: width, height: height, format: format,
            frameRate: Y4MRatio(frameRate: frameRate), colorRange: colorRange)
        do {
            encoder = try Y4MEncoder(header: header, inputFormat: format)
        } catch {
            throw OutputFileError(path: path, problem: .frameMismatch(.data(error)))
        }
        // O_EXCL first, to know whether a failed header write leaves a file of ours to remove.
        var created = true
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0, errno == EEXIST {
            created = false
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw OutputFileError(path: path, problem: OutputFileError.problem(errno: errno)) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            // An existing file keeps its old mode through O_TRUNC; a recording of a face must not be
            // readable by others.
            _ = fchmod(fd, 0o600)
        }
        let line = header.serialized()
        size = 0
        if let error = line.withUnsafeBytes({ POSIX.writeAll(fd, $0) }) {
            _ = Glibc.close(fd)
            if created { unlink(path) }
            throw OutputFileError(path: path, problem: OutputFileError.problem(errno: error.code))
        }
        size = line.count
    }

    deinit {
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Appends one frame (of the writer's format and size).
    public func write(_ frame: Frame) throws(OutputFileError) {
        guard fd >= 0 else { throw OutputFileError(path: path, problem: .frameMismatch(.writerClosed)) }
        output.removeAll(keepingCapacity: true)
        do {
            try encoder.append(frame, to: &output)
        } catch {
            throw OutputFileError(path: path, problem: .frameMismatch(.data(error)))
        }
        if let error = output.withUnsafeBytes({ POSIX.writeAll(fd, $0) }) {
            // Drop the partial frame so the clip stays readable up to its last whole frame.
            _ = ftruncate(fd, off_t(size))
            _ = lseek(fd, off_t(size), SEEK_SET)
            throw OutputFileError(path: path, problem: OutputFileError.problem(errno: error.code))
        }
        size += output.count
        framesWritten += 1
    }

    /// Flushes the file to disk and closes it; safe to call twice.
    public func close() throws(OutputFileError) {
        guard fd >= 0 else { return }
        let syncFailed = fsync(fd) != 0 ? errno : 0
        let closeFailed = Glibc.close(fd) != 0 ? errno : 0
        fd = -1
        if syncFailed != 0 || closeFailed != 0 {
            throw OutputFileError(
                path: path,
                problem: OutputFileError.problem(
                    errno: syncFailed != 0
                        ? syncFailed
                        : closeFailed))
        }
    }
}
