/// Cropping, resizing and mirroring of packed frames (`.rgb24`, `.gray`) into caller-provided frames.
///
/// YUV frames are converted first with `convertToRGB24(into:)` or `convertToGray(into:)`. Given another
/// format, a frame whose data is shorter than its size, or an output size that cannot be allocated,
/// these helpers return false and leave `output` empty (0×0): the sizes come from files and cameras,
/// so a bad one is an answer for the caller rather than a trap.
extension Frame {
    /// Bytes per pixel of a packed format, nil for the others.
    var packedChannels: Int? {
        switch format {
        case .rgb24: return 3
        case .gray: return 1
        default: return nil
        }
    }

    /// Copies the part of this frame inside the rectangle (clamped to the frame) into `output`.
    /// Returns false, leaving `output` empty, when the rectangle misses the frame entirely (or the frame
    /// is not packed).
    @discardableResult
    public func crop(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int, into output: inout Frame) -> Bool {
        let x0 = max(0, x)
        let y0 = max(0, y)
        let x1 = min(width, x + cropWidth)
        let y1 = min(height, y + cropHeight)
        guard let channels = packedChannels, x1 > x0, y1 > y0, isWellFormed,
            prepareOutput(&output, format: format, width: x1 - x0, height: y1 - y0, colorRange: colorRange)
        else {
            return clear(&output)
        }
        let rowBytes = (x1 - x0) * channels
        data.withUnsafeBufferPointer { src in
            output.data.withUnsafeMutableBufferPointer { dst in
                for row in 0..<(y1 - y0) {
                    (dst.baseAddress! + row * rowBytes).update(
                        from: src.baseAddress! + ((y0 + row) * width + x0) * channels, count: rowBytes)
                }
            }
        }
        return true
    }

    /// Scales this frame to `newWidth`×`newHeight` into `output`: the average of the covered source
    /// pixels when shrinking (no aliasing), bilinear interpolation when enlarging. Returns false, leaving
    /// `output` empty, for an empty or malformed frame, a non-packed format or an unallocatable size.
    @discardableResult
    public func resize(width newWidth: Int, height newHeight: Int, into output: inout Frame) -> Bool {
        guard let channels = packedChannels, newWidth > 0, newHeight > 0, width > 0, height > 0, isWellFormed,
            prepareOutput(&output, format: format, width: newWidth, height: newHeight, colorRange: colorRange)
        else {
            return clear(&output)
        }
        let (w, h) = (width, height)
        data.withUnsafeBufferPointer { srcBuffer in
            output.data.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!
                let dst = dstBuffer.baseAddress!
                if newWidth <= w && newHeight <= h {
                    // Box filter: output pixel i covers source columns [i·w/newWidth, (i+1)·w/newWidth).
                    for oy in 0..<newHeight {
                        let sy0 = oy * h / newHeight
                        let sy1 = max(sy0 + 1, (oy + 1) * h / newHeight)
                        for ox in 0..<newWidth {
                            let sx0 = ox * w / newWidth
                            let sx1 = max(sx0 + 1, (ox + 1) * w / newWidth)
                            let count = (sx1 - sx0) * (sy1 - sy0)
                            for c in 0..<channels {
                                var sum = 0
                                for sy in sy0..<sy1 {
                                    let row = src + (sy * w) * channels + c
                                    for sx in sx0..<sx1 { sum += Int(row[sx * channels]) }
                                }
                                dst[(oy * newWidth + ox) * channels + c] = UInt8((sum + count / 2) / count)
                            }
                        }
                    }
                } else {
                    // Bilinear, sampling at pixel centres, in 8-bit fixed-point weights.
                    for oy in 0..<newHeight {
                        let fy = max(0, (Double(oy) + 0.5) * Double(h) / Double(newHeight) - 0.5)
                        let y0 = min(Int(fy), h - 1)
                        let y1 = min(y0 + 1, h - 1)
                        let wy = Int((fy - Double(y0)) * 256)
                        for ox in 0..<newWidth {
                            let fx = max(0, (Double(ox) + 0.5) * Double(w) / Double(newWidth) - 0.5)
                            let x0 = min(Int(fx), w - 1)
                            let x1 = min(x0 + 1, w - 1)
                            let wx = Int((fx - Double(x0)) * 256)
                            for c in 0..<channels {
                                let a = Int(src[(y0 * w + x0) * channels + c])
                                let b = Int(src[(y0 * w + x1) * channels + c])
                                let d = Int(src[(y1 * w + x0) * channels + c])
                                let e = Int(src[(y1 * w + x1) * channels + c])
                                let top = a * (256 - wx) + b * wx
                                let bottom = d * (256 - wx) + e * wx
                                dst[(oy * newWidth + ox) * channels + c] =
                                    UInt8((top * (256 - wy) + bottom * wy + 32768) >> 16)
                            }
                        }
                    }
                }
            }
        }
        return true
    }

    /// Mirrors this frame left to right into `output` (the preview is shown as a mirror; photos are not).
    /// Returns false, leaving `output` empty, for a malformed frame or a non-packed format.
    @discardableResult
    public func mirror(into output: inout Frame) -> Bool {
        guard let channels = packedChannels, isWellFormed,
            prepareOutput(&output, format: format, width: width, height: height, colorRange: colorRange)
        else {
            return clear(&output)
        }
        let (w, h) = (width, height)
        data.withUnsafeBufferPointer { src in
            output.data.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        for c in 0..<channels {
                            dst[(y * w + x) * channels + c] = src[(y * w + (w - 1 - x)) * channels + c]
                        }
                    }
                }
            }
        }
        return true
    }

    /// Makes `output` a `format` frame of `width`×`height` in `colorRange` for a helper here to write, with this
    /// frame's timestamp and warm-up flag; false, for the caller to `clear` it, when the size cannot be allocated.
    func prepareOutput(
        _ output: inout Frame, format: PixelFormat, width: Int, height: Int, colorRange: ColorRange
    ) -> Bool {
        guard output.prepare(format: format, width: width, height: height, colorRange: colorRange) else { return false }
        output.timestamp = timestamp
        output.isWarmUp = isWarmUp
        return true
    }

    /// Leaves `output` an empty 0×0 frame of `format` and `colorRange` (this frame's unless given); returns false
    /// for the caller to pass on.
    func clear(_ output: inout Frame, format: PixelFormat? = nil, colorRange: ColorRange? = nil) -> Bool {
        _ = output.prepare(
            format: format ?? self.format, width: 0, height: 0, colorRange: colorRange ?? self.colorRange)
        return false
    }
}
