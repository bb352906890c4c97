extension Frame {
    /// Luma must span at least this many levels for the chroma test to mean anything: a frame that is all black or
    /// all one grey (a camera starting up, a covered lens) has flat chroma whatever the camera is.
    static let chromaTestLumaSpan = 24

    /// Whether this YUV picture is an infrared one: every chroma sample exactly 128 while the luma varies. A colour
    /// sensor's noise and demosaicking never leave every U and V byte at 128, while an IR function delivered as YUYV
    /// does exactly that (howdy#513: HP's RGB-IR camera in IR mode). nil when it cannot tell: not a YUV frame, or
    /// luma too uniform (see `chromaTestLumaSpan`).
    public var chromaIsFlat: Bool? {
        let pixels = width * height
        guard width > 0, height > 0 else { return nil }
        return data.withUnsafeBufferPointer { bytes -> Bool? in
            var lumaLow = UInt8.max, lumaHigh = UInt8.min
            var flat = true
            switch format {
            case .yuyv:
                // Y0 U Y1 V: even bytes luma, odd bytes chroma.
                let count = ((width + 1) / 2) * 4 * height
                guard bytes.count >= count else { return nil }
                var index = 0
                while index < count {
                    lumaLow = min(lumaLow, bytes[index], bytes[index + 2])
                    lumaHigh = max(lumaHigh, bytes[index], bytes[index + 2])
                    flat = flat && bytes[index + 1] == 128 && bytes[index + 3] == 128
                    index += 4
                }
            case .yuv420p:
                let chroma = 2 * ((width + 1) / 2) * ((height + 1) / 2)
                guard bytes.count >= pixels + chroma else { return nil }
                for index in 0..<pixels {
                    lumaLow = min(lumaLow, bytes[index])
                    lumaHigh = max(lumaHigh, bytes[index])
                }
                for index in pixels..<(pixels + chroma) where bytes[index] != 128 {
                    flat = false
                    break
                }
            default:
                return nil
            }
            guard Int(lumaHigh) - Int(lumaLow) >= Self.chromaTestLumaSpan else { return nil }
            return flat
        }
    }
}
