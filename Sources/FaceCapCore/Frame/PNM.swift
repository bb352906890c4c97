/// Netpbm greymaps and pixmaps: PGM (P2 ASCII, P5 binary) and PPM (P3 ASCII, P6 binary), any maxval
/// up to 65535, with `#` comments in the header. Samples are scaled to 8 bits.
public enum PNM {
    /// True when `bytes` start like a PGM/PPM/PBM/PAM file ("P1"…"P7" then whitespace).
    public static func matches<C: Collection<UInt8>>(_ bytes: C) -> Bool where C.Index == Int {
        guard bytes.count >= 3 else { return false }
        let s = bytes.startIndex
        return bytes[s] == UInt8(ascii: "P") && (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[s + 1])
            && isSpace(bytes[s + 2])
    }

    /// Decodes a PGM into a `.gray` frame or a PPM into an `.rgb24` frame, both full range.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = .default) throws(MediaDataError) -> Frame {
        guard !bytes.isEmpty else { throw .empty }
        guard matches(bytes) else { throw .malformed(.pnmSignature) }
        let kind = bytes[1]
        let channels: Int
        let ascii: Bool
        switch kind {
        case UInt8(ascii: "2"): (channels, ascii) = (1, true)
        case UInt8(ascii: "3"): (channels, ascii) = (3, true)
        case UInt8(ascii: "5"): (channels, ascii) = (1, false)
        case UInt8(ascii: "6"): (channels, ascii) = (3, false)
        default:
            throw .unsupported(.pnmBitmap)
        }
        var reader = Reader(bytes: bytes, position: 2)
        let width = try reader.header(.width)
        let height = try reader.header(.height)
        let maxval = try reader.header(.maxval)
        guard (1...65535).contains(maxval) else { throw .malformed(.maxval(maxval)) }
        try limits.check(width: width, height: height)
        // Exactly one whitespace byte separates the header from binary samples.
        guard reader.position < bytes.count, isSpace(bytes[reader.position]) else {
            throw reader.position >= bytes.count
                ? .truncated(.noPixelData)
                : .malformed(.noWhitespaceAfterMaxval)
        }
        reader.position += 1
        let samples = width * height * channels
        let format: PixelFormat = channels == 1 ? .gray : .rgb24
        let wide = maxval > 255
        if !ascii {
            let needed = samples * (wide ? 2 : 1)
            guard bytes.count - reader.position >= needed else {
                throw .truncated(.pixelBytes(expected: needed, present: bytes.count - reader.position))
            }
        } else {
            // Every ASCII sample takes at least a digit and a separator: refuse before allocating.
            guard bytes.count - reader.position >= samples * 2 - 1 else {
                throw .truncated(.fewerNumbers(samples: samples))
            }
        }
        var data = [UInt8](repeating: 0, count: samples)
        let scale = Scale(maxval: maxval)
        if ascii {
            for i in 0..<samples {
                guard let value = reader.number() else {
                    throw reader.position >= bytes.count
                        ? .truncated(.sampleMissing(index: i, samples: samples))
                        : .malformed(.sampleNotANumber(index: i))
                }
                guard value <= maxval else {
                    throw .malformed(.sampleAboveMaxval(index: i, value: value, maxval: maxval))
                }
                data[i] = scale(value)
            }
        } else {
            let start = reader.position
            if maxval == 255 {
                data.withUnsafeMutableBufferPointer { out in
                    bytes.withUnsafeBufferPointer { src in
                        _ = out.initialize(fromContentsOf: src[start..<(start + samples)])
                    }
                }
            } else {
                for i in 0..<samples {
                    let value =
                        wide ? Int(bytes[start + 2 * i]) << 8 | Int(bytes[start + 2 * i + 1]) : Int(bytes[start + i])
                    // Out-of-range binary samples are clamped rather than refused, as netpbm tools do.
                    data[i] = scale(min(value, maxval))
                }
            }
        }
        return Frame(format: format, width: width, height: height, colorRange: .full, data: data)
    }

    /// Encodes an `.rgb24` frame as binary PPM (P6) or a `.gray` frame as binary PGM (P5), maxval 255.
    public static func encode(_ frame: Frame) -> [UInt8]? {
        let magic: String
        switch frame.format {
        case .rgb24: magic = "P6"
        case .gray: magic = "P5"
        default: return nil
        }
        guard let count = frame.format.byteCount(width: frame.width, height: frame.height),
            frame.data.count >= count
        else { return nil }
        return Array("\(magic)\n\(frame.width) \(frame.height)\n255\n".utf8) + frame.data[0..<count]
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// value × 255 / maxval, rounded.
    struct Scale {
        let maxval: Int
        @inline(__always)
        func callAsFunction(_ value: Int) -> UInt8 {
            maxval == 255 ? UInt8(value) : UInt8((value * 255 + maxval / 2) / maxval)
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var position: Int

        /// Skips whitespace and comments, then reads one non-negative decimal number (at most 9 digits).
        mutating func number() -> Int? {
            while position < bytes.count {
                if isSpace(bytes[position]) {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
                } else {
                    break
                }
            }
            var value = 0
            var digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                guard digits < 9 else { return nil }
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }

        mutating func header(_ field: MediaDataError.PNMField) throws(MediaDataError) -> Int {
            guard let value = number() else {
                throw position >= bytes.count
                    ? .truncated(.header(field))
                    : .malformed(.headerNotANumber(field))
            }
            return value
        }
    }
}
