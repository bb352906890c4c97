internal import CImageCodecs
import FaceCapCore

/// A camera's MJPEG frames decoded by facecap's own libjpeg-turbo decoder (CImageCodecs' cic_mjpeg) straight to
/// planar 4:2:2 in full range (JFIF), the layout of the 4:2:2 JPEGs webcams send: no colour conversion, no chroma
/// resampling. It replaced libv4l2's conversion to RGB24 for cameras that list MJPEG (docs/camera-formats.md has
/// the measurement). One decoder serves a whole stream.
final class MJPEGDecoder {
    private let decoder: OpaquePointer

    /// Nil when out of memory.
    init?() {
        guard let decoder = cic_mjpeg_create() else { return nil }
        self.decoder = decoder
    }

    deinit { cic_mjpeg_destroy(decoder) }

    /// What `decode` made of a frame.
    enum Outcome: Equatable {
        case decoded
        /// No whole JPEG: a damaged or short frame (the caller counts it and waits for the next).
        case damaged
        /// A whole JPEG of another size than the stream's (not decoded).
        case otherSize(width: Int, height: Int)
    }

    /// Decodes the first `count` bytes of `compressed` into `frame` as `.yuv422p` `width` × `height`.
    func decode(_ compressed: [UInt8], count: Int, width: Int, height: Int, into frame: inout Frame) -> Outcome {
        var info = cic_planes_info()
        // The decoder reads the compressed bytes from its open to the end of its read: both inside this one access.
        return compressed.withUnsafeBufferPointer { bytes in
            guard cic_mjpeg_open(decoder, bytes.baseAddress, min(count, bytes.count), 1, &info) == Int32(CIC_OK) else {
                return .damaged
            }
            guard Int(info.width) == width, Int(info.height) == height else {
                _ = cic_mjpeg_read(decoder, nil, 0, &info)  // a frame of another size: let the decoder go of it
                return .otherSize(width: Int(info.width), height: Int(info.height))
            }
            guard frame.prepare(format: .yuv422p, width: width, height: height, colorRange: .full) else {
                _ = cic_mjpeg_read(decoder, nil, 0, &info)
                return .damaged
            }
            let read = frame.data.withUnsafeMutableBufferPointer { planes in
                cic_mjpeg_read(decoder, planes.baseAddress, planes.count, &info) == Int32(CIC_OK)
            }
            return read ? .decoded : .damaged
        }
    }
}
