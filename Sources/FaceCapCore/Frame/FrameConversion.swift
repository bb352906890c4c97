/// Reusing frame storage, and converting between pixel formats into caller-provided frames.
///
/// Every conversion writes into an output `Frame` the caller keeps from one frame to the next: its array
/// is reused when it already has the right size, so steady-state conversion allocates nothing.
extension Frame {
    /// An empty frame to pass as the output of a conversion or a frame source.
    public static func empty() -> Frame { Frame(format: .gray, width: 0, height: 0, data: []) }

    /// Sets the description and makes `data` exactly the size `format` needs, keeping the array (and its
    /// storage) when the size is unchanged. The pixel values are unspecified afterwards. A zero width or
    /// height gives an empty frame.
    ///
    /// Returns false when the size is negative or its byte count does not fit in an `Int`: the frame is
    /// then left empty (0×0), never described with a size its data does not have.
    public mutating func prepare(format: PixelFormat, width: Int, height: Int, colorRange: ColorRange) -> Bool {
        let count: Int
        if width == 0 || height == 0, width >= 0, height >= 0 {
            count = 0
        } else if let bytes = format.byteCount(width: width, height: height) {
            count = bytes
        } else {
            resize(to: 0)
            self.format = format
            self.width = 0
            self.height = 0
            self.colorRange = colorRange
            return false
        }
        resize(to: count)
        self.format = format
        self.width = width
        self.height = height
        self.colorRange = colorRange
        return true
    }

    /// Makes `data` exactly `count` bytes, keeping its storage when it is large enough.
    private mutating func resize(to count: Int) {
        if data.count != count {
            if data.capacity >= count {
                data.removeAll(keepingCapacity: true)
                data.append(contentsOf: repeatElement(0, count: count))
            } else {
                data = [UInt8](repeating: 0, count: count)
            }
        }
    }

    /// Whether `data` holds at least the bytes `format`, `width` and `height` promise.
    public var isWellFormed: Bool {
        guard let count = format.byteCount(width: width, height: height) else { return false }
        return data.count >= count
    }

    /// Writes this frame as full-range `.rgb24` into `output`. YUV formats go through BT.601 (`YUVToRGB`)
    /// in the frame's own range, with chroma repeated over the pixels it covers; grey is stretched to full
    /// range when it is limited. Timestamp and warm-up flag are copied.
    /// Returns false, leaving `output` empty, when this frame's data is shorter than its size says.
    @discardableResult
    public func convertToRGB24(into output: inout Frame) -> Bool {
        guard isWellFormed, prepareOutput(&output, format: .rgb24, width: width, height: height, colorRange: .full)
        else {
            return clear(&output, format: .rgb24, colorRange: .full)
        }
        let converter = YUVToRGB(range: colorRange)
        let (w, h) = (width, height)
        let cw = (w + 1) / 2
        data.withUnsafeBufferPointer { src in
            output.data.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                switch format {
                case .rgb24:
                    d.update(from: s, count: w * h * 3)
                case .gray:
                    for i in 0..<(w * h) {
                        let v = colorRange == .full ? s[i] : converter.luma(s[i])
                        d[3 * i] = v
                        d[3 * i + 1] = v
                        d[3 * i + 2] = v
                    }
                case .yuyv:
                    for y in 0..<h {
                        let row = s + y * cw * 4, out = d + y * w * 3
                        for pair in 0..<(w / 2) {
                            let q = row + 4 * pair
                            converter.writePair(y0: q[0], y1: q[2], u: q[1], v: q[3], to: out + 6 * pair)
                        }
                        if w % 2 == 1 {
                            let q = row + 4 * (w / 2)
                            converter.writeOne(y: q[0], u: q[1], v: q[3], to: out + 3 * (w - 1))
                        }
                    }
                case .yuv420p, .yuv422p:
                    let (chromaW, chromaRows, yShift, _) = chromaLayout
                    let u = s + w * h, v = u + chromaW * chromaRows
                    for y in 0..<h {
                        let luma = s + y * w, out = d + y * w * 3
                        let cu = u + (y >> yShift) * chromaW, cv = v + (y >> yShift) * chromaW
                        for pair in 0..<(w / 2) {
                            converter.writePair(
                                y0: luma[2 * pair], y1: luma[2 * pair + 1], u: cu[pair], v: cv[pair],
                                to: out + 6 * pair)
                        }
                        if w % 2 == 1 {
                            converter.writeOne(y: luma[w - 1], u: cu[w / 2], v: cv[w / 2], to: out + 3 * (w - 1))
                        }
                    }
                case .yuv444p:
                    let u = s + w * h, v = u + w * h
                    for i in 0..<(w * h) { converter.writeOne(y: s[i], u: u[i], v: v[i], to: d + 3 * i) }
                }
            }
        }
        return true
    }

    /// Writes the luma of this frame as full-range `.gray` into `output`: Y of YUV formats (stretched when
    /// limited), BT.601 luma (0.299 R + 0.587 G + 0.114 B) of RGB. Timestamp and warm-up flag are copied.
    /// Returns false, leaving `output` empty, when this frame's data is shorter than its size says.
    @discardableResult
    public func convertToGray(into output: inout Frame) -> Bool {
        guard isWellFormed, prepareOutput(&output, format: .gray, width: width, height: height, colorRange: .full)
        else {
            return clear(&output, format: .gray, colorRange: .full)
        }
        let converter = YUVToRGB(range: colorRange)
        let (w, h) = (width, height)
        let full = colorRange == .full
        data.withUnsafeBufferPointer { src in
            output.data.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                switch format {
                case .rgb24:
                    for i in 0..<(w * h) {
                        let sum = 19595 * Int32(s[3 * i]) + 38470 * Int32(s[3 * i + 1]) + 7471 * Int32(s[3 * i + 2])
                        d[i] = UInt8(truncatingIfNeeded: (sum + 32768) >> 16)
                    }
                case .yuyv:
                    let stride = (w + 1) / 2 * 4
                    for y in 0..<h {
                        let row = s + y * stride, out = d + y * w
                        for x in 0..<w { out[x] = full ? row[2 * x] : converter.luma(row[2 * x]) }
                    }
                case .gray, .yuv420p, .yuv422p, .yuv444p:
                    if full {
                        d.update(from: s, count: w * h)
                    } else {
                        for i in 0..<(w * h) { d[i] = converter.luma(s[i]) }
                    }
                }
            }
        }
        return true
    }

    /// Chroma plane width and rows, and the shifts from a luma row/column to its chroma sample.
    var chromaLayout: (width: Int, rows: Int, yShift: Int, xShift: Int) {
        switch format {
        case .yuv420p: return ((width + 1) / 2, (height + 1) / 2, 1, 1)
        case .yuv422p: return ((width + 1) / 2, height, 0, 1)
        default: return (width, height, 0, 0)
        }
    }
}

/// BT.601 RGB → YCbCr in 16.16 fixed point, the inverse of `YUVToRGB` (used to store RGB frames in Y4M).
///
/// Full range: Y = 0.299 R + 0.587 G + 0.114 B, Cb = 128 − 0.1687 R − 0.3313 G + 0.5 B,
/// Cr = 128 + 0.5 R − 0.4187 G − 0.0813 B. Limited range scales Y by 219/255 (+16) and chroma by 224/255.
@frozen
public struct RGBToYUV: Sendable {
    @usableFromInline let yr: Int32, yg: Int32, yb: Int32, yOffset: Int32
    @usableFromInline let ur: Int32, ug: Int32, ub: Int32
    @usableFromInline let vr: Int32, vg: Int32, vb: Int32

    public init(range: ColorRange) {
        switch range {
        case .full:
            (yr, yg, yb, yOffset) = (19595, 38470, 7471, 0)
            (ur, ug, ub) = (-11058, -21710, 32768)
            (vr, vg, vb) = (32768, -27439, -5329)
        case .limited:
            (yr, yg, yb, yOffset) = (16829, 33039, 6416, 16)
            (ur, ug, ub) = (-9714, -19070, 28784)
            (vr, vg, vb) = (28784, -24103, -4681)
        }
    }

    /// The Y, Cb, Cr codes of one pixel.
    @inlinable @inline(__always)
    public func yuv(r: UInt8, g: UInt8, b: UInt8) -> (y: UInt8, u: UInt8, v: UInt8) {
        let r = Int32(r), g = Int32(g), b = Int32(b)
        let y = (yr * r + yg * g + yb * b + (yOffset << 16) + 32768) >> 16
        let u = (ur * r + ug * g + ub * b + (128 << 16) + 32768) >> 16
        let v = (vr * r + vg * g + vb * b + (128 << 16) + 32768) >> 16
        return (
            UInt8(truncatingIfNeeded: min(max(y, 0), 255)), UInt8(truncatingIfNeeded: min(max(u, 0), 255)),
            UInt8(truncatingIfNeeded: min(max(v, 0), 255))
        )
    }

    /// Converts `pixelCount` packed RGB pixels into Y, U and V planes of `pixelCount` bytes each. Both
    /// buffers must hold `3 × pixelCount` bytes (a precondition: the caller sized them).
    public func rgbToYUV444p(
        _ rgb: UnsafeBufferPointer<UInt8>, pixelCount: Int,
        into planes: UnsafeMutableBufferPointer<UInt8>
    ) {
        let (bytes, overflow) = pixelCount.multipliedReportingOverflow(by: 3)
        precondition(
            pixelCount >= 0 && !overflow && rgb.count >= bytes && planes.count >= bytes,
            "rgbToYUV444p: buffers smaller than \(pixelCount) pixels")
        guard pixelCount > 0 else { return }
        let s = rgb.baseAddress!, y = planes.baseAddress!, u = y + pixelCount, v = u + pixelCount
        for i in 0..<pixelCount {
            let p = yuv(r: s[3 * i], g: s[3 * i + 1], b: s[3 * i + 2])
            y[i] = p.y
            u[i] = p.u
            v[i] = p.v
        }
    }
}

/// Repacking between packed and planar YUV.
public enum PlanarPacking {
    /// YUYV (Y0 U Y1 V) → planar 4:2:2: Y plane, then U and V at half width (rounded up). The buffers
    /// must hold a `width × height` picture in each layout (a precondition: the caller sized them).
    public static func yuyvToYUV422p(
        _ yuyv: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        into planes: UnsafeMutableBufferPointer<UInt8>
    ) {
        checkSizes(yuyv.count, planes.count, width: width, height: height)
        let cw = (width + 1) / 2
        let s = yuyv.baseAddress!, yp = planes.baseAddress!, up = yp + width * height, vp = up + cw * height
        for y in 0..<height {
            let row = s + y * cw * 4
            for x in 0..<width { yp[y * width + x] = row[2 * x] }
            for c in 0..<cw {
                up[y * cw + c] = row[4 * c + 1]
                vp[y * cw + c] = row[4 * c + 3]
            }
        }
    }

    /// Planar 4:2:2 → YUYV, the inverse of `yuyvToYUV422p` (an odd width's last Y1 repeats Y0). The
    /// buffers must hold a `width × height` picture in each layout (a precondition).
    public static func yuv422pToYUYV(
        _ planes: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        into yuyv: UnsafeMutableBufferPointer<UInt8>
    ) {
        checkSizes(yuyv.count, planes.count, width: width, height: height)
        let cw = (width + 1) / 2
        let d = yuyv.baseAddress!, yp = planes.baseAddress!, up = yp + width * height, vp = up + cw * height
        for y in 0..<height {
            let row = d + y * cw * 4
            for c in 0..<cw {
                let x0 = 2 * c, x1 = min(2 * c + 1, width - 1)
                row[4 * c] = yp[y * width + x0]
                row[4 * c + 1] = up[y * cw + c]
                row[4 * c + 2] = yp[y * width + x1]
                row[4 * c + 3] = vp[y * cw + c]
            }
        }
    }

    /// Traps unless `packed` and `planar` bytes hold a `width × height` picture as YUYV and as 4:2:2.
    private static func checkSizes(_ packed: Int, _ planar: Int, width: Int, height: Int) {
        guard let needPacked = PixelFormat.yuyv.byteCount(width: width, height: height),
            let needPlanar = PixelFormat.yuv422p.byteCount(width: width, height: height)
        else {
            preconditionFailure("PlanarPacking: \(width)×\(height) is not a picture size")
        }
        precondition(
            packed >= needPacked && planar >= needPlanar,
            "PlanarPacking: buffers smaller than a \(width)×\(height) picture")
    }
}

extension YUVToRGB {
    /// Two horizontally adjacent pixels sharing one chroma sample (4:2:2 and 4:2:0), written as 6 bytes of
    /// RGB: the chroma terms are computed once for both.
    @inline(__always)
    func writePair(y0: UInt8, y1: UInt8, u: UInt8, v: UInt8, to out: UnsafeMutablePointer<UInt8>) {
        let d = Int32(u) - 128, e = Int32(v) - 128
        let red = rv * e, green = gu * d + gv * e, blue = bu * d
        let c0 = (Int32(y0) - yOffset) * yScale + 128, c1 = (Int32(y1) - yOffset) * yScale + 128
        out[0] = Self.clamp((c0 + red) >> 8)
        out[1] = Self.clamp((c0 - green) >> 8)
        out[2] = Self.clamp((c0 + blue) >> 8)
        out[3] = Self.clamp((c1 + red) >> 8)
        out[4] = Self.clamp((c1 - green) >> 8)
        out[5] = Self.clamp((c1 + blue) >> 8)
    }

    /// One pixel written as 3 bytes of RGB.
    @inline(__always)
    func writeOne(y: UInt8, u: UInt8, v: UInt8, to out: UnsafeMutablePointer<UInt8>) {
        let p = rgb(y: y, u: u, v: v)
        out[0] = p.r
        out[1] = p.g
        out[2] = p.b
    }
}
