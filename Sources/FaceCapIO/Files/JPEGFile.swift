import CImageCodecs
import FaceCapCore

#if canImport(Glibc)
    import Glibc
#endif

/// JPEG encoding for the captured photo (libjpeg-turbo via CImageCodecs).
public enum JPEGFile {
    /// The quality the photo is saved at (the contract asks for at least 90).
    public static let photoQuality = 92

    /// Encodes `frame` as a baseline JFIF JPEG with no EXIF or other metadata. `.gray` frames become
    /// greyscale JPEGs, every other format is converted to RGB (BT.601, in the frame's range) first.
    public static func encode(_ frame: Frame, quality: Int = photoQuality) throws(JPEGEncodingError) -> [UInt8] {
        guard frame.isWellFormed, frame.width > 0, frame.height > 0 else {
            throw JPEGEncodingError(reason: "the frame holds no picture (\(frame.width)×\(frame.height))")
        }
        var packed = Frame.empty()
        let source: Frame
        switch frame.format {
        case .rgb24: source = frame
        case .gray where frame.colorRange == .full: source = frame
        case .gray:
            frame.convertToGray(into: &packed)
            source = packed
        default:
            frame.convertToRGB24(into: &packed)
            source = packed
        }
        let channels: Int32 = source.format == .gray ? 1 : 3
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_LENGTH))
        let status = source.data.withUnsafeBufferPointer { pixels in
            cic_jpeg_encode(
                pixels.baseAddress, Int32(source.width), Int32(source.height), channels,
                source.width * Int(channels), Int32(quality), &output, &size, &message, message.count)
        }
        guard status == Int32(CIC_OK), let output else {
            throw JPEGEncodingError(
                reason: String(
                    decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
                    as: UTF8.self))
        }
        defer { cic_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Encodes `frame` and writes it to `path` atomically with mode 0600 (see `AtomicFile.write`).
    public static func write(_ frame: Frame, to path: String, quality: Int = photoQuality) throws(OutputFileError) {
        let bytes: [UInt8]
        do {
            bytes = try encode(frame, quality: quality)
        } catch {
            throw OutputFileError(path: path, problem: .encoding(error.reason))
        }
        try AtomicFile.write(bytes, to: path)
    }
}

/// libjpeg refused to encode a picture; `reason` is its message.
public struct JPEGEncodingError: Error, Equatable {
    public var reason: String
}

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
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600,
                             replace: Bool = true) throws(OutputFileError) {
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
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw OutputFileError(path: path, problem: OutputFileError.problem(errno: errno)) }
        func fail(_ code: Int32) -> OutputFileError {
            _ = close(fd)
            unlink(temporary)
            return OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
        }
        // The process umask could only narrow the mode; fchmod makes it exactly `mode`.
        _ = fchmod(fd, mode)
        if case .failure(let error) = bytes.withUnsafeBytes({ POSIXFile.write(fd, $0) }) { throw fail(error.code) }
        if fsync(fd) != 0 { throw fail(errno) }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
        }
        if let code = place(temporary, at: path, replace: replace) {
            unlink(temporary)
            throw OutputFileError(path: path, problem: OutputFileError.problem(errno: code))
        }
        // Make the rename itself durable; a failure here cannot undo it, so it is not an error.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            _ = close(directoryFD)
        }
    }

    /// Moves the finished temporary file to `path`; returns the errno on failure.
    private static func place(_ temporary: String, at path: String, replace: Bool) -> Int32? {
        if replace { return rename(temporary, path) == 0 ? nil : errno }
        if link(temporary, path) == 0 {
            unlink(temporary)
            return nil
        }
        let code = errno
        // EPERM/ENOTSUP: a file system without hard links (FAT, some network shares).
        guard code == EPERM || code == EOPNOTSUPP else { return code }
        if access(path, F_OK) == 0 { return EEXIST }
        return rename(temporary, path) == 0 ? nil : errno
    }
}
