internal import CImageCodecs
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
            throw .noPicture(width: frame.width, height: frame.height)
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
            throw .library(
                String(
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

/// A frame could not be encoded as a JPEG.
public enum JPEGEncodingError: Error, Equatable {
    /// The frame holds no picture: no size, or fewer bytes than its size needs.
    case noPicture(width: Int, height: Int)
    /// libjpeg refused; its own message (the library's words, which facecap does not translate).
    case library(String)

    /// The reason in the current language, for inside `outputEncoding`'s brackets.
    public var reason: String {
        switch self {
        case .noPicture(let width, let height):
            return Words.outputEncodingNoPicture(width: String(width), height: String(height))
        case .library(let message): return message
        }
    }
}
