/// BT.601 YCbCr → RGB in 8.8 fixed point, the one conversion every frame path in facecap shares.
///
/// Limited range: R = 1.164(Y−16) + 1.596(V−128), G = 1.164(Y−16) − 0.391(U−128) − 0.813(V−128),
/// B = 1.164(Y−16) + 2.018(U−128). Full range (JPEG/JFIF): R = Y + 1.402(V−128),
/// G = Y − 0.344(U−128) − 0.714(V−128), B = Y + 1.772(U−128).
@frozen
public struct YUVToRGB: Sendable {
    @usableFromInline let yScale: Int32, yOffset: Int32
    @usableFromInline let rv: Int32, gu: Int32, gv: Int32, bu: Int32

    public init(range: ColorRange) {
        switch range {
        case .limited: (yScale, yOffset, rv, gu, gv, bu) = (298, 16, 409, 100, 208, 516)
        case .full: (yScale, yOffset, rv, gu, gv, bu) = (256, 0, 359, 88, 183, 454)
        }
    }

    @inlinable @inline(__always)
    static func clamp(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }

    /// The RGB of one pixel.
    @inlinable @inline(__always)
    public func rgb(y: UInt8, u: UInt8, v: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let c = (Int32(y) - yOffset) * yScale + 128
        let d = Int32(u) - 128, e = Int32(v) - 128
        return (Self.clamp((c + rv * e) >> 8), Self.clamp((c - gu * d - gv * e) >> 8), Self.clamp((c + bu * d) >> 8))
    }

    /// Luma of one pixel on the full 0...255 scale (limited-range codes are stretched).
    @inlinable @inline(__always)
    public func luma(_ y: UInt8) -> UInt8 { Self.clamp(((Int32(y) - yOffset) * yScale + 128) >> 8) }
}
