/// The EXIF Orientation tag (0x0112) of a JPEG: how the stored pixels must be turned to be shown upright.
///
/// Phones store portrait photos as landscape pixels plus Orientation 6 or 8; a face analysed without
/// applying it lies on its side. Only this one tag is read; all other metadata is ignored.
public enum ExifOrientation {
    /// The orientation (1…8) of a JPEG's first EXIF block, or nil when there is none or it is invalid.
    /// Every offset is checked against the data: a damaged EXIF block reads as "no orientation".
    public static func find(inJPEG bytes: [UInt8]) -> Int? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        // Walk the marker segments before the image data (SOS, 0xDA) looking for APP1 "Exif\0\0".
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            if marker == 0xFF || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                position += marker == 0xFF ? 1 : 2  // fill byte or a marker without a length
                continue
            }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else { return nil }
            let body = (position + 4)..<(position + 2 + length)
            if marker == 0xE1, body.count >= 6,
                Array(bytes[body.lowerBound..<(body.lowerBound + 6)])
                    == [0x45, 0x78, 0x69, 0x66, 0, 0]
            {
                return orientation(tiff: bytes[(body.lowerBound + 6)..<body.upperBound])
            }
            position += 2 + length
        }
        return nil
    }

    /// Reads tag 0x0112 from IFD0 of a TIFF structure.
    static func orientation(tiff: ArraySlice<UInt8>) -> Int? {
        let base = tiff.startIndex
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[base], tiff[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[base + offset]), b = Int(tiff[base + offset + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(little ? offset + 2 : offset), let low = u16(little ? offset : offset + 2) else {
                return nil
            }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // Type 3 is SHORT; a single SHORT sits in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}

extension Frame {
    /// Writes this packed frame (`.rgb24` or `.gray`) turned upright for EXIF orientation `orientation`
    /// (2 mirror, 3 rotate 180°, 4 flip, 5 transpose, 6 rotate 90° clockwise, 7 transverse, 8 rotate 90°
    /// counter-clockwise; 1 or anything else copies) into `output`. Returns false, leaving `output` empty,
    /// for other formats or a frame whose data is shorter than its size.
    @discardableResult
    public func applyingOrientation(_ orientation: Int, into output: inout Frame) -> Bool {
        let swaps = (5...8).contains(orientation)
        let (w, h) = (width, height)
        guard let channels = packedChannels, isWellFormed,
            prepareOutput(&output, format: format, width: swaps ? h : w, height: swaps ? w : h, colorRange: colorRange)
        else {
            return clear(&output)
        }
        let outWidth = output.width, outHeight = output.height
        data.withUnsafeBufferPointer { srcBuffer in
            output.data.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                for oy in 0..<outHeight {
                    for ox in 0..<outWidth {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - ox, oy)
                        case 3: (sx, sy) = (w - 1 - ox, h - 1 - oy)
                        case 4: (sx, sy) = (ox, h - 1 - oy)
                        case 5: (sx, sy) = (oy, ox)
                        case 6: (sx, sy) = (oy, h - 1 - ox)
                        case 7: (sx, sy) = (w - 1 - oy, h - 1 - ox)
                        case 8: (sx, sy) = (w - 1 - oy, ox)
                        default: (sx, sy) = (ox, oy)
                        }
                        let from = src + (sy * w + sx) * channels, to = dst + (oy * outWidth + ox) * channels
                        for c in 0..<channels { to[c] = from[c] }
                    }
                }
            }
        }
        return true
    }
}
