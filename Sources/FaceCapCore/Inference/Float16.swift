/// IEEE 754 binary16 → binary32, bit by bit (Swift's `Float16` is not available on every platform).
///
/// Handles zeros, subnormals (the detector has 191 of them), infinities and NaN exactly.
@inlinable
public func floatFromHalfBits(_ bits: UInt16) -> Float {
    let sign = UInt32(bits >> 15) << 31
    let exponent = UInt32((bits >> 10) & 0x1f)
    let mantissa = UInt32(bits & 0x3ff)
    switch exponent {
    case 0:
        // Zero or subnormal: mantissa · 2^-24, exact in binary32.
        let magnitude = Float(mantissa) * 0x1p-24
        return sign == 0 ? magnitude : -magnitude
    case 31:
        return Float(bitPattern: sign | 0x7f80_0000 | mantissa << 13)
    default:
        return Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
    }
}
