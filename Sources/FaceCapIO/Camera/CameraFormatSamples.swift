internal import CImageCodecs
internal import CV4L2
import FaceCapCore

/// A picture in each camera format facecap reads, made from RGB as a camera would send it: for the format tests
/// (the same face through every format) and `facecap bench --formats`, which time each format's way to the analyser.
public enum CameraFormatSamples {
    /// The formats facecap reads itself, as `facecap devices` names them, YUYV first (the reference).
    public static let formats = ["YUYV", "NV12", "YU12", "YV12", "RGB3", "BGR3", "XR24", "BX24", "XB24", "MJPG"]

    /// `rgb` in the format named `fourcc` (one of `formats`), rows packed.
    public static func encode(_ rgb: [UInt8], width: Int, height: Int, fourcc: String) -> [UInt8] {
        encode(rgb, width: width, height: height, as: CameraSupport.fourccCode(fourcc))
    }

    /// The 600×600-like `photo` (RGB24) on a grey `width` × `height` frame, scaled by `scale` × height/480 and
    /// centred 40 photo pixels below its middle: at 0.8 a face of the size the guidance asks for.
    public static func facePicture(_ photo: Frame, width: Int, height: Int, scale: Double) -> [UInt8] {
        let scale = scale * Double(height) / 480
        var picture = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let sx = Int((Double(x - width / 2) / scale + Double(photo.width) / 2).rounded(.down))
                let sy = Int((Double(y - height / 2) / scale + Double(photo.height) / 2 + 40).rounded(.down))
                guard (0..<photo.width).contains(sx), (0..<photo.height).contains(sy) else { continue }
                for k in 0..<3 { picture[(y * width + x) * 3 + k] = photo.data[(sy * photo.width + sx) * 3 + k] }
            }
        }
        return picture
    }

    /// A camera's frame read as the camera path reads it, without a device: cv4l2's conversion into the analyser's
    /// layout (`cv4l2_convert_frame`, what `cv4l2_read` does to a buffer), or MJPEG through facecap's decoder.
    public final class Reader {
        private let decoder = MJPEGDecoder()

        public init() {}

        /// False when the bytes are no whole frame of that format and size.
        public func read(_ bytes: [UInt8], fourcc: String, width: Int, height: Int, into frame: inout Frame) -> Bool {
            let code = CameraSupport.fourccCode(fourcc)
            let layout = cv4l2_destination_layout(code)
            if layout == 4 {
                return decoder?.decode(bytes, count: bytes.count, width: width, height: height, into: &frame)
                    == .decoded
            }
            let format: PixelFormat = layout == 1 ? .yuyv : layout == 3 ? .yuv420p : .rgb24
            guard layout != 0,
                frame.prepare(
                    format: format, width: width, height: height,
                    colorRange: format == .rgb24 ? .full : .limited)
            else { return false }
            let status = bytes.withUnsafeBytes { source in
                frame.data.withUnsafeMutableBytes { destination in
                    cv4l2_convert_frame(
                        code, UInt32(width), UInt32(height), 0, source.baseAddress, source.count,
                        destination.baseAddress, destination.count)
                }
            }
            return status == 0
        }
    }

    /// `rgb` (width × height, 3 bytes a pixel) in a camera format, rows `padding` bytes longer than they need be
    /// (chroma rows of YU12/YV12 half that); YUV in limited range, 4:2:x chroma averaged over each block; MJPEG as a
    /// webcam encodes it (`webcamJPEG`, padding does not apply).
    public static func encode(_ rgb: [UInt8], width: Int, height: Int, as fourcc: UInt32, padding: Int = 0) -> [UInt8] {
        if fourcc == CV4L2_PIX_FMT_MJPEG { return webcamJPEG(rgb, width: width, height: height) }
        let toYUV = RGBToYUV(range: .limited)
        func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
            let i = (y * width + x) * 3
            return (rgb[i], rgb[i + 1], rgb[i + 2])
        }
        func yuv(_ x: Int, _ y: Int) -> (y: UInt8, u: UInt8, v: UInt8) {
            let p = pixel(x, y)
            return toYUV.yuv(r: p.r, g: p.g, b: p.b)
        }
        /// The chroma of the 2×2 block at (cx, cy), averaged.
        func chroma(_ cx: Int, _ cy: Int) -> (u: UInt8, v: UInt8) {
            var u = 0, v = 0
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let c = yuv(min(cx * 2 + dx, width - 1), min(cy * 2 + dy, height - 1))
                u += Int(c.u)
                v += Int(c.v)
            }
            return (UInt8((u + 2) / 4), UInt8((v + 2) / 4))
        }
        let layout = Self.layout(fourcc)
        let stride = width * layout.bytesPerPixel + padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * height + layout.chromaBytes(stride, height))
        for y in 0..<height {
            for x in 0..<width {
                let at = y * stride + x * layout.bytesPerPixel
                let p = pixel(x, y)
                switch fourcc {
                case CV4L2_PIX_FMT_YUYV:
                    let c = yuv(x & ~1, y), d = yuv(min(x | 1, width - 1), y)
                    bytes[at] = yuv(x, y).y
                    bytes[at + 1] =
                        x & 1 == 0 ? UInt8((Int(c.u) + Int(d.u) + 1) / 2) : UInt8((Int(c.v) + Int(d.v) + 1) / 2)
                case CV4L2_PIX_FMT_RGB24: (bytes[at], bytes[at + 1], bytes[at + 2]) = (p.r, p.g, p.b)
                case CV4L2_PIX_FMT_BGR24: (bytes[at], bytes[at + 1], bytes[at + 2]) = (p.b, p.g, p.r)
                case CV4L2_PIX_FMT_XBGR32: (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (p.b, p.g, p.r, 0)
                case CV4L2_PIX_FMT_XRGB32: (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (0, p.r, p.g, p.b)
                case CV4L2_PIX_FMT_RGBX32: (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (p.r, p.g, p.b, 0)
                default: bytes[at] = yuv(x, y).y  // the luma plane of the 4:2:0 formats
                }
            }
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch fourcc {
        case CV4L2_PIX_FMT_NV12:
            for cy in 0..<chromaHeight {
                for cx in 0..<chromaWidth {
                    let c = chroma(cx, cy)
                    bytes[stride * height + cy * stride + cx * 2] = c.u
                    bytes[stride * height + cy * stride + cx * 2 + 1] = c.v
                }
            }
        case CV4L2_PIX_FMT_YUV420, CV4L2_PIX_FMT_YVU420:
            let half = stride / 2, first = stride * height, second = first + half * chromaHeight
            for cy in 0..<chromaHeight {
                for cx in 0..<chromaWidth {
                    let c = chroma(cx, cy)
                    let (a, b) = fourcc == CV4L2_PIX_FMT_YUV420 ? (c.u, c.v) : (c.v, c.u)
                    bytes[first + cy * half + cx] = a
                    bytes[second + cy * half + cx] = b
                }
            }
        default:
            break
        }
        return bytes
    }

    /// How a format lays out its first plane (bytes a pixel) and the chroma planes after it.
    static func layout(_ fourcc: UInt32) -> (bytesPerPixel: Int, chromaBytes: (_ stride: Int, _ height: Int) -> Int) {
        switch fourcc {
        case CV4L2_PIX_FMT_RGB24, CV4L2_PIX_FMT_BGR24: return (3, { _, _ in 0 })
        case CV4L2_PIX_FMT_XBGR32, CV4L2_PIX_FMT_XRGB32, CV4L2_PIX_FMT_RGBX32: return (4, { _, _ in 0 })
        case CV4L2_PIX_FMT_NV12: return (1, { stride, height in stride * ((height + 1) / 2) })
        case CV4L2_PIX_FMT_YUV420, CV4L2_PIX_FMT_YVU420:
            return (1, { stride, height in 2 * (stride / 2) * ((height + 1) / 2) })
        default: return (2, { _, _ in 0 })
        }
    }

    /// `rgb` as a webcam's MJPEG frame: 4:2:2, standard Huffman tables, `quality` 80 (UVC cameras' range).
    public static func webcamJPEG(_ rgb: [UInt8], width: Int, height: Int, quality: Int32 = 80) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = rgb.withUnsafeBufferPointer { pixels in
            cic_jpeg_encode_webcam(
                pixels.baseAddress, Int32(width), Int32(height), width * 3, quality, &out, &size,
                &message, message.count)
        }
        guard status == Int32(CIC_OK), let out else { return [] }
        defer { cic_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
