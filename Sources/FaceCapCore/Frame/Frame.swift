/// Pixel layouts facecap reads from cameras, clips and image files.
public enum PixelFormat: String, Sendable, Equatable, CaseIterable {
    /// Packed 4:2:2, Y0 U Y1 V (V4L2_PIX_FMT_YUYV), the format nearly every webcam offers.
    case yuyv
    /// Packed 8-bit R, G, B.
    case rgb24
    /// Planar Y, then U and V at half width and half height (Y4M C420*).
    case yuv420p
    /// Planar Y, then U and V at half width (Y4M C422).
    case yuv422p
    /// Planar Y, U, V at full resolution (Y4M C444).
    case yuv444p
    /// Luma only (Y4M mono, PGM).
    case gray

    /// Bytes a frame of this format and size occupies, or nil when the size is not representable.
    ///
    /// Every product and sum reports its overflow: the sizes come from files and cameras, and a size
    /// that does not fit is an answer (nil) for the caller, not a trap.
    public func byteCount(width: Int, height: Int) -> Int? {
        guard width > 0, height > 0 else { return nil }
        func product(_ a: Int, _ b: Int) -> Int? {
            let (value, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? nil : value
        }
        func sum(_ a: Int, _ b: Int) -> Int? {
            let (value, overflow) = a.addingReportingOverflow(b)
            return overflow ? nil : value
        }
        guard let pixels = product(width, height) else { return nil }
        let chromaW = width / 2 + width % 2
        let chromaH = height / 2 + height % 2
        switch self {
        case .yuyv: return product(chromaW, 4).flatMap { product($0, height) }
        case .rgb24, .yuv444p: return product(pixels, 3)
        case .yuv420p: return product(chromaW, chromaH).flatMap { product($0, 2) }.flatMap { sum(pixels, $0) }
        case .yuv422p: return product(chromaW, height).flatMap { product($0, 2) }.flatMap { sum(pixels, $0) }
        case .gray: return pixels
        }
    }
}

/// How luma and chroma codes map to light: limited ("studio", Y 16...235) or full (0...255) range.
public enum ColorRange: String, Sendable, Equatable {
    case limited
    case full
}

/// One picture from a camera, a clip or a file: its pixels plus when and how it was taken.
///
/// `data` holds the planes back to back in the layout `format` names. A frame source refills the same
/// `Frame` value frame after frame (its array stays uniquely referenced), so steady-state capture
/// allocates nothing.
public struct Frame: Sendable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var colorRange: ColorRange
    /// Seconds since the source started.
    public var timestamp: Double
    /// True while the camera is still settling (auto exposure), during its first ~0.5 s.
    public var isWarmUp: Bool
    public var data: [UInt8]

    public init(
        format: PixelFormat, width: Int, height: Int, colorRange: ColorRange = .limited,
        timestamp: Double = 0, isWarmUp: Bool = false, data: [UInt8]
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.colorRange = colorRange
        self.timestamp = timestamp
        self.isWarmUp = isWarmUp
        self.data = data
    }
}
