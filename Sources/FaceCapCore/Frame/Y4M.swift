/// YUV4MPEG2 (`.y4m`): a one-line text header, then frames, each a `FRAME` line and raw 8-bit planes.
///
/// This file holds the pure parsing and formatting; FaceCapIO reads and writes the files.
/// Reference: the format as ffmpeg and mjpegtools write it (https://wiki.multimedia.cx/index.php/YUV4MPEG2).
public enum Y4M {
    /// The signature that starts every file.
    public static let signature = Array("YUV4MPEG2".utf8)
    /// Header lines longer than this are refused (real headers are well under 100 bytes).
    public static let maxHeaderLength = 4096
    /// The same for `FRAME` lines, whose parameters are rarely used at all.
    public static let maxFrameLineLength = 1024
    /// The line that starts each frame facecap writes.
    public static let frameLine = Array("FRAME\n".utf8)
}

/// A ratio as Y4M writes it, e.g. `30000:1001` for 29.97 frames per second.
public struct Y4MRatio: Sendable, Equatable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The ratio for a frame rate: exact for whole numbers and the NTSC rates (24000/1001, 30000/1001,
    /// 60000/1001), otherwise in thousandths. Rates that are not positive and finite give 30:1 and rates
    /// are capped at 1000000:1, so any Double is safe to pass.
    public init(frameRate: Double) {
        guard frameRate.isFinite, frameRate > 0 else {
            self.init(30, 1)
            return
        }
        guard frameRate < 1_000_000 else {
            self.init(1_000_000, 1)
            return
        }
        if frameRate.rounded() == frameRate, frameRate >= 1 {
            self.init(Int(frameRate), 1)
            return
        }
        for base in [24_000, 30_000, 48_000, 60_000] where abs(frameRate - Double(base) / 1001) < 0.001 {
            self.init(base, 1001)
            return
        }
        let thousandths = max(1, Int((frameRate * 1000).rounded()))
        let divisor = Self.gcd(thousandths, 1000)
        self.init(thousandths / divisor, 1000 / divisor)
    }

    public var value: Double { Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator):\(denominator)" }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

/// The colour spaces (chroma layouts) facecap reads and writes, all 8 bits per sample.
public enum Y4MColorSpace: String, Sendable, Equatable, CaseIterable {
    /// 4:2:0, chroma centred between luma samples (JPEG siting); the default when `C` is absent.
    case c420jpeg = "420jpeg"
    /// 4:2:0 with MPEG-2 chroma siting (same layout in memory).
    case c420mpeg2 = "420mpeg2"
    /// 4:2:0 with PAL-DV chroma siting (same layout in memory).
    case c420paldv = "420paldv"
    /// 4:2:0, siting unspecified.
    case c420 = "420"
    case c422 = "422"
    case c444 = "444"
    case mono

    /// The planar `PixelFormat` frames of this colour space have.
    public var pixelFormat: PixelFormat {
        switch self {
        case .c420jpeg, .c420mpeg2, .c420paldv, .c420: return .yuv420p
        case .c422: return .yuv422p
        case .c444: return .yuv444p
        case .mono: return .gray
        }
    }

    /// The colour space a writer uses for frames of `format` (YUYV is stored as 4:2:2 planar, RGB as 4:4:4).
    public init(storing format: PixelFormat) {
        switch format {
        case .yuv420p: self = .c420jpeg
        case .yuv422p, .yuyv: self = .c422
        case .yuv444p, .rgb24: self = .c444
        case .gray: self = .mono
        }
    }
}

/// The stream header of a Y4M file.
public struct Y4MHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var frameRate: Y4MRatio
    public var colorSpace: Y4MColorSpace
    /// `XCOLORRANGE=FULL|LIMITED`; limited when the tag is absent (the Y4M default).
    public var colorRange: ColorRange
    /// `I` tag: p (progressive), t, b, m or ? — kept for the round trip, frames are used as they are.
    public var interlacing: Character
    /// `A` tag, sample aspect ratio (0:0 = unknown).
    public var aspectRatio: Y4MRatio
    /// Tags facecap does not interpret (e.g. `XYSCSS=420JPEG`), kept verbatim without their separator.
    public var otherTags: [String]

    public init(
        width: Int, height: Int, frameRate: Y4MRatio, colorSpace: Y4MColorSpace,
        colorRange: ColorRange = .limited, interlacing: Character = "p",
        aspectRatio: Y4MRatio = Y4MRatio(1, 1), otherTags: [String] = []
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.colorSpace = colorSpace
        self.colorRange = colorRange
        self.interlacing = interlacing
        self.aspectRatio = aspectRatio
        self.otherTags = otherTags
    }

    public var pixelFormat: PixelFormat { colorSpace.pixelFormat }

    /// Bytes of pixels in one frame (after its `FRAME` line).
    public var frameByteCount: Int { pixelFormat.byteCount(width: width, height: height) ?? 0 }

    /// Parses the header line (without its newline).
    ///
    /// Rules: `W` and `H` are required and positive and within `limits`; `F` defaults to 25:1 when absent
    /// (as ffmpeg does) but must be a positive ratio when given; `C` defaults to 420jpeg; unknown tags
    /// are kept and otherwise ignored, as the format asks of readers.
    public static func parse<C: Collection<UInt8>>(
        line: C, limits: ImageLimits = .clip
    )
        throws(MediaDataError) -> Y4MHeader
    {
        let bytes = Array(line)
        guard bytes.starts(with: Y4M.signature),
            bytes.count == Y4M.signature.count || bytes[Y4M.signature.count] == UInt8(ascii: " ")
        else { throw .malformed(.y4mSignature) }
        var width: Int?
        var height: Int?
        var header = Y4MHeader(
            width: 0, height: 0, frameRate: Y4MRatio(25, 1), colorSpace: .c420jpeg,
            aspectRatio: Y4MRatio(0, 0))
        for token in bytes[Y4M.signature.count...].split(separator: UInt8(ascii: " ")) {
            let tag = Character(UnicodeScalar(token[token.startIndex]))
            let value = String(decoding: token.dropFirst(), as: UTF8.self)
            switch tag {
            case "W": width = try number(value, tag: .width)
            case "H": height = try number(value, tag: .height)
            case "F":
                header.frameRate = try ratio(value, tag: .frameRate)
                guard header.frameRate.numerator > 0, header.frameRate.denominator > 0 else {
                    throw .malformed(.frameRate(value))
                }
            case "A": header.aspectRatio = try ratio(value, tag: .aspectRatio)
            case "I":
                guard value.count == 1, let mode = value.first, "ptbm?".contains(mode) else {
                    throw .malformed(.interlacing(value))
                }
                header.interlacing = mode
            case "C":
                let name = value == "mono" || value == "mono8" ? "mono" : value
                guard let space = Y4MColorSpace(rawValue: name) else {
                    throw .unsupported(.colorSpace(value))
                }
                header.colorSpace = space
            case "X" where value.hasPrefix("COLORRANGE="):
                switch value.dropFirst("COLORRANGE=".count) {
                case "FULL": header.colorRange = .full
                case "LIMITED": header.colorRange = .limited
                default: throw .malformed(.colorRange(value))
                }
            default: header.otherTags.append(String(tag) + value)
            }
        }
        guard let width, let height else { throw .malformed(.noSize) }
        try limits.check(width: width, height: height)
        header.width = width
        header.height = height
        return header
    }

    /// Checks one `FRAME` line (without its newline); its parameters, if any, are ignored.
    public static func checkFrameLine<C: Collection<UInt8>>(_ line: C, index: Int) throws(MediaDataError) {
        let frame = Array("FRAME".utf8)
        guard line.starts(with: frame), line.count == frame.count || line.dropFirst(frame.count).first == 0x20 else {
            throw .malformed(.frameWord(frame: index))
        }
    }

    /// The error for a `FRAME` line without a newline: truncated when the data ends inside what may be a
    /// FRAME line, malformed otherwise.
    public static func unterminatedFrameLine<C: Collection<UInt8>>(
        _ partial: C, atEnd: Bool, index: Int
    )
        -> MediaDataError
    {
        let word = Array("FRAME".utf8)
        let bytes = Array(partial.prefix(word.count))
        if atEnd, word.starts(with: bytes) || bytes == word {
            return .truncated(.frameLine(frame: index))
        }
        return .malformed(.frameLine(frame: index))
    }

    /// The header line, newline included. Always writes F, C and XCOLORRANGE so readers need not guess.
    public func serialized() -> [UInt8] {
        var text =
            "YUV4MPEG2 W\(width) H\(height) F\(frameRate) I\(interlacing) A\(aspectRatio) C\(colorSpace.rawValue)"
        text += " XCOLORRANGE=\(colorRange == .full ? "FULL" : "LIMITED")"
        for tag in otherTags { text += " " + tag }
        return Array((text + "\n").utf8)
    }

    static func number(_ text: String, tag: MediaDataError.Y4MTag) throws(MediaDataError) -> Int {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text)
        else {
            throw .malformed(.notANumber(tag, text: text))
        }
        return value
    }

    static func ratio(_ text: String, tag: MediaDataError.Y4MTag) throws(MediaDataError) -> Y4MRatio {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .malformed(.notARatio(tag, text: text)) }
        return Y4MRatio(try number(String(parts[0]), tag: tag), try number(String(parts[1]), tag: tag))
    }
}

/// Reads a Y4M stream held in memory, frame by frame, into a reused `Frame`.
public struct Y4MReader: Sendable {
    public let header: Y4MHeader
    public let bytes: [UInt8]
    /// Where the first `FRAME` line starts.
    public let dataStart: Int
    public private(set) var position: Int
    /// Frames read so far.
    public private(set) var frameIndex = 0

    public init(bytes: [UInt8], limits: ImageLimits = .clip) throws(MediaDataError) {
        guard !bytes.isEmpty else { throw .empty }
        let end = bytes.prefix(Y4M.maxHeaderLength + 1).firstIndex(of: 0x0A)
        guard let end else {
            throw bytes.count <= Y4M.maxHeaderLength
                ? .truncated(.headerLine)
                : .malformed(.headerLineTooLong(limit: Y4M.maxHeaderLength))
        }
        header = try Y4MHeader.parse(line: bytes[..<end], limits: limits)
        self.bytes = bytes
        dataStart = end + 1
        position = dataStart
    }

    /// Writes the next frame into `frame` (reusing its storage); false at the end of the stream.
    /// Throws `truncated` for a partial last frame; the frames before it were delivered whole.
    public mutating func nextFrame(into frame: inout Frame) throws(MediaDataError) -> Bool {
        guard position < bytes.count else { return false }
        let window = bytes[position..<min(bytes.count, position + Y4M.maxFrameLineLength + 1)]
        guard let end = window.firstIndex(of: 0x0A) else {
            throw Y4MHeader.unterminatedFrameLine(
                window, atEnd: bytes.count - position <= Y4M.maxFrameLineLength,
                index: frameIndex)
        }
        try Y4MHeader.checkFrameLine(bytes[position..<end], index: frameIndex)
        let count = header.frameByteCount
        let start = end + 1
        guard bytes.count - start >= count else {
            throw .truncated(.frameBytes(frame: frameIndex, present: bytes.count - start, expected: count))
        }
        guard
            frame.prepare(
                format: header.pixelFormat, width: header.width, height: header.height,
                colorRange: header.colorRange)
        else {
            throw .tooLarge(width: header.width, height: header.height)
        }
        frame.data.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { src in _ = out.initialize(fromContentsOf: src[start..<(start + count)]) }
        }
        frame.timestamp = Double(frameIndex) / header.frameRate.value
        frame.isWarmUp = false
        position = start + count
        frameIndex += 1
        return true
    }

    /// Starts again at the first frame.
    public mutating func rewind() {
        position = dataStart
        frameIndex = 0
    }

    /// Every frame of `bytes`; throws at the first problem.
    public static func decodeAll(
        _ bytes: [UInt8], limits: ImageLimits = .clip
    )
        throws(MediaDataError) -> (header: Y4MHeader, frames: [Frame])
    {
        var reader = try Y4MReader(bytes: bytes, limits: limits)
        var frames: [Frame] = []
        var frame = Frame(format: .gray, width: 0, height: 0, data: [])
        while try reader.nextFrame(into: &frame) { frames.append(frame) }
        return (reader.header, frames)
    }
}

/// Formats frames as Y4M: the header once, then `FRAME` + planes for each frame.
public struct Y4MEncoder: Sendable {
    public let header: Y4MHeader
    /// The format of the frames this encoder accepts (yuyv and rgb24 are converted to planar).
    public let inputFormat: PixelFormat
    private let rgbToYUV: RGBToYUV

    /// An encoder for `inputFormat` frames of the header's size. The colour space must be the one
    /// `Y4MColorSpace(storing:)` gives for `inputFormat`, or another 4:2:0 siting for `yuv420p`.
    public init(header: Y4MHeader, inputFormat: PixelFormat) throws(MediaDataError) {
        guard header.pixelFormat == Y4MColorSpace(storing: inputFormat).pixelFormat else {
            throw .unsupported(.cannotStore(inputFormat, space: header.colorSpace))
        }
        self.header = header
        self.inputFormat = inputFormat
        rgbToYUV = RGBToYUV(range: header.colorRange)
    }

    /// A header for frames of `format`: YUYV is stored as C422 planar, RGB24 as C444 (converted with the
    /// BT.601 matrix in `colorRange`), planar formats and grey as they are.
    public static func header(
        width: Int, height: Int, format: PixelFormat, frameRate: Y4MRatio,
        colorRange: ColorRange
    ) -> Y4MHeader {
        Y4MHeader(
            width: width, height: height, frameRate: frameRate, colorSpace: Y4MColorSpace(storing: format),
            colorRange: colorRange)
    }

    /// Appends `FRAME\n` and the planes of `frame` to `output` (which the caller reuses), or throws when the
    /// frame's format or size is not the encoder's.
    public func append(_ frame: Frame, to output: inout [UInt8]) throws(MediaDataError) {
        guard frame.format == inputFormat, frame.width == header.width, frame.height == header.height,
            let inputCount = frame.format.byteCount(width: frame.width, height: frame.height),
            frame.data.count >= inputCount
        else {
            throw .malformed(
                .frameMismatch(
                    format: frame.format, width: frame.width, height: frame.height, clip: inputFormat,
                    clipWidth: header.width, clipHeight: header.height))
        }
        output.append(contentsOf: Y4M.frameLine)
        let start = output.count
        let count = header.frameByteCount
        switch inputFormat {
        case .yuyv:
            output.append(contentsOf: repeatElement(0, count: count))
            output.withUnsafeMutableBufferPointer { out in
                frame.data.withUnsafeBufferPointer { src in
                    PlanarPacking.yuyvToYUV422p(
                        src, width: header.width, height: header.height,
                        into: UnsafeMutableBufferPointer(rebasing: out[start...]))
                }
            }
        case .rgb24:
            output.append(contentsOf: repeatElement(0, count: count))
            output.withUnsafeMutableBufferPointer { out in
                frame.data.withUnsafeBufferPointer { src in
                    rgbToYUV.rgbToYUV444p(
                        src, pixelCount: header.width * header.height,
                        into: UnsafeMutableBufferPointer(rebasing: out[start...]))
                }
            }
        default:
            output.append(contentsOf: frame.data[0..<count])
        }
    }
}
