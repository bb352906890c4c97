internal import CImageCodecs
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// What a file holds, told by its first bytes (never by its extension).
public enum MediaKind: String, Sendable, Equatable {
    case jpeg, png, pnm, y4m

    /// How people call the format.
    public var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .pnm: return "PPM/PGM"
        case .y4m: return "Y4M"
        }
    }

    /// The kind of `bytes`, or nil when they start like none of the formats facecap reads.
    public static func sniff<C: Collection<UInt8>>(_ bytes: C) -> MediaKind? where C.Index == Int {
        let head = Array(bytes.prefix(10))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: Array("YUV4MPEG2".utf8)) { return .y4m }
        if PNM.matches(head) { return .pnm }
        return nil
    }

    /// The name of a common image format facecap does not read (WebP, BMP, GIF, TIFF, HEIF/AVIF), from its
    /// signature, so that the error can say how to convert it; nil for anything else.
    public static func foreignImageName<C: Collection<UInt8>>(_ bytes: C) -> String? where C.Index == Int {
        let head = Array(bytes.prefix(12))
        func at(_ offset: Int, _ text: String) -> Bool {
            head.count >= offset + text.utf8.count
                && Array(head[offset..<(offset + text.utf8.count)]) == Array(text.utf8)
        }
        if at(0, "RIFF"), at(8, "WEBP") { return "WebP" }
        if at(0, "GIF87a") || at(0, "GIF89a") { return "GIF" }
        if at(0, "II*\u{0}") || at(0, "MM\u{0}*") { return "TIFF" }
        if at(4, "ftyp") { return at(8, "avif") ? "AVIF" : "HEIF/HEIC" }
        if at(0, "BM"), head.count >= 6 { return "BMP" }
        return nil
    }

    /// What to say about bytes that are not a format facecap reads: how to convert a known image format to PNG,
    /// else which formats facecap reads.
    public static func unreadable<C: Collection<UInt8>>(_ bytes: C) -> MediaDataError where C.Index == Int {
        guard let name = foreignImageName(bytes) else { return .unknownFormat }
        return .wrongKind(.foreignImage(format: name))
    }

    /// The kind of the file at `path`, judged from its first bytes.
    public static func sniff(path: String) throws(InputFileError) -> MediaKind? {
        let fd: Int32
        switch POSIXFile.openForReading(path) {
        case .success(let value): fd = value
        case .failure(let error): throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
        }
        defer { _ = close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let result = head.withUnsafeMutableBytes { POSIX.readFully(fd, into: $0) }
        switch result {
        case .success(let n):
            guard n > 0 else { throw InputFileError(path: path, problem: .data(.empty)) }
            return sniff(head[0..<n])
        case .failure(let error):
            throw InputFileError(path: path, problem: InputFileError.problem(errno: error.code))
        }
    }
}

/// Photos on disk: JPEG, PNG and PPM/PGM in; JPEG out (see `JPEGFile`).
public enum ImageFile {
    /// Files larger than this are refused before they are read (the largest legal 16-bit PPM at the
    /// default limits would be 1.5 GiB, but no photo facecap analyses comes near 512 MiB).
    public static let maxFileBytes = 512 * 1_048_576

    /// Reads and decodes the image at `path`, whatever its extension: colour images become `.rgb24`,
    /// greyscale ones `.gray`, full range, timestamp 0. JPEGs are turned upright per their EXIF Orientation.
    public static func read(path: String, limits: ImageLimits = .default) throws(InputFileError) -> Frame {
        let bytes = try POSIXFile.readAll(path, limit: maxFileBytes)
        do {
            return try decode(bytes, limits: limits)
        } catch {
            throw InputFileError(path: path, problem: .data(error))
        }
    }

    /// Decodes JPEG, PNG or PPM/PGM bytes (told apart by their signature).
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = .default) throws(MediaDataError) -> Frame {
        guard !bytes.isEmpty else { throw .empty }
        switch MediaKind.sniff(bytes) {
        case .jpeg: return try decodeJPEG(bytes, limits: limits)
        case .png: return try decodePNG(bytes, limits: limits)
        case .pnm: return try PNM.decode(bytes, limits: limits)
        case .y4m:
            throw .wrongKind(.clipNotPhoto)
        case nil: throw MediaKind.unreadable(bytes)
        }
    }

    /// Decodes a JPEG and turns it upright when its EXIF Orientation says so (phone photos).
    static func decodeJPEG(_ bytes: [UInt8], limits: ImageLimits) throws(MediaDataError) -> Frame {
        let stored = try decodeJPEGPixels(bytes, limits: limits)
        guard let orientation = ExifOrientation.find(inJPEG: bytes), orientation != 1 else { return stored }
        var upright = Frame.empty()
        stored.applyingOrientation(orientation, into: &upright)
        return upright
    }

    static func decodeJPEGPixels(_ bytes: [UInt8], limits: ImageLimits) throws(MediaDataError) -> Frame {
        try bytes.withUnsafeBufferPointer { (buffer) throws(MediaDataError) -> Frame in
            var info = cic_image_info()
            guard let decoder = cic_jpeg_open(buffer.baseAddress, buffer.count, &info) else {
                throw .unsupported(.noMemory(format: "JPEG"))
            }
            defer { cic_jpeg_close(decoder) }
            let withinLimits = (try? limits.check(width: Int(info.width), height: Int(info.height))) != nil
            if info.status == Int32(CIC_OK), withinLimits, info.min_data_bytes > UInt64(buffer.count) {
                throw .truncated(.imageData(format: "JPEG"))
            }
            return try decodeImage(info: &info, kind: "JPEG", limits: limits) { pixels, stride, info in
                cic_jpeg_read(decoder, pixels, stride, &info)
            }
        }
    }

    static func decodePNG(_ bytes: [UInt8], limits: ImageLimits) throws(MediaDataError) -> Frame {
        try bytes.withUnsafeBufferPointer { (buffer) throws(MediaDataError) -> Frame in
            var info = cic_image_info()
            guard let decoder = cic_png_open(buffer.baseAddress, buffer.count, &info) else {
                throw .unsupported(.noMemory(format: "PNG"))
            }
            defer { cic_png_close(decoder) }
            let withinLimits = (try? limits.check(width: Int(info.width), height: Int(info.height))) != nil
            if info.status == Int32(CIC_OK), withinLimits, !pngCanHoldItsPixels(bytes) {
                throw .truncated(.imageData(format: "PNG"))
            }
            return try decodeImage(info: &info, kind: "PNG", limits: limits) { pixels, stride, info in
                cic_png_read(decoder, pixels, stride, &info)
            }
        }
    }

    /// Whether a PNG of this many bytes could hold the pixels its header declares. Deflate expands at most
    /// 1032:1, so a tiny file declaring a huge image is cut short (or crafted): said so before the picture,
    /// up to 805 MB, is allocated. `bytes` starts with a valid signature and IHDR (libpng checked both).
    static func pngCanHoldItsPixels(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 26 else { return true }
        func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height, depth) = (word(16), word(20), Int(bytes[24]))
        let samples: Int
        switch bytes[25] {
        case 2: samples = 3  // RGB
        case 4: samples = 2  // grey + alpha
        case 6: samples = 4  // RGBA
        default: samples = 1  // grey, palette
        }
        // Rows are whole bytes; filter bytes and Adam7 passes only add to this.
        let rowBytes = (width * samples * depth + 7) / 8
        let (pixels, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= bytes.count * 1032
    }

    /// The part both codecs share: check the header's verdict and size, allocate, decode, map errors.
    private static func decodeImage(
        info: inout cic_image_info, kind: String, limits: ImageLimits,
        read: (UnsafeMutablePointer<UInt8>, Int, inout cic_image_info) -> Int32
    ) throws(MediaDataError) -> Frame {
        guard info.status == Int32(CIC_OK) else { throw error(info, kind: kind) }
        let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
        try limits.check(width: width, height: height)
        let format: PixelFormat = channels == 1 ? .gray : .rgb24
        var data = [UInt8](repeating: 0, count: width * height * channels)
        let status = data.withUnsafeMutableBufferPointer { read($0.baseAddress!, width * channels, &info) }
        guard status == Int32(CIC_OK) else { throw error(info, kind: kind) }
        return Frame(format: format, width: width, height: height, colorRange: .full, data: data)
    }

    private static func error(_ info: cic_image_info, kind: String) -> MediaDataError {
        let text = withUnsafeBytes(of: info.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        switch info.status {
        case Int32(CIC_ERROR_TRUNCATED): return .truncated(.imageData(format: kind))
        case Int32(CIC_ERROR_NO_MEMORY): return .unsupported(.noMemory(format: kind))
        case Int32(CIC_ERROR_UNSUPPORTED): return .unsupported(.library(format: kind, detail: text))
        default: return .malformed(.decoder(format: kind, detail: text))
        }
    }
}
