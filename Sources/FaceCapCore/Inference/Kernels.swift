// The numeric kernels of the inference engine: NHWC float32, batch 1. This file holds what they share (the
// vector helpers, activations, channel blocks and the GEMM epilogue); GEMM is in Kernels+GEMM.swift, depthwise
// convolution in Kernels+Depthwise.swift, pooling and the elementwise ops in Kernels+Pooling.swift.
//
// Layout conventions shared with `Interpreter`, which packs the weights once at load:
// - Channels are processed in blocks of 8 (one `SIMD8<Float>`, one AVX register). When a channel count
//   C ≥ 8 is not a multiple of 8, the last block starts at C − 8 and overlaps the one before it: the
//   overlapping lanes are computed twice with the same result, so no masked loads or stores are needed.
//   Only C < 8 (the FaceMesh presence head, 1 channel) takes a partial-store path.
// - GEMM weights are packed in panels of two blocks (16 output channels) or one (8): for every k the
//   panel holds 16 (or 8) contiguous floats, so the micro-kernel streams them with unit stride.
// The release build targets Haswell (AVX2 + FMA), so `addProduct` is one vfmadd per 8 lanes.
//
// Index arithmetic: every offset below addresses a tensor or packed-weight buffer the interpreter
// allocated at load, whose float count (and so every in-range offset) fits in an `Int`. Offsets inside
// the loops therefore use wrapping operators (`&+`, `&*`): the same machine instructions the compiler
// emits once it has proven there is no overflow, without the checks it cannot prove away.

internal import CKernels

typealias V8 = SIMD8<Float>

/// Whether convolutions run on the AVX-512 kernels in CKernels (same arithmetic — one fused multiply-add per k in
/// k order, per tap in ky, kx order — twice the lanes, masked tails) instead of the AVX2 ones here.
let avx512GEMM = fc_has_avx512() != 0

/// Whether, where AVX-512 is not used, convolutions and tensor input run on CKernels' AVX2 C kernels (the
/// `_avx2` functions: the same arithmetic in the same order as the Swift kernels here) instead of the Swift ones.
/// FACECAP_SWIFT_KERNELS keeps the Swift kernels everywhere.
let avx2CKernels = !avx512GEMM && fc_has_avx2() != 0

@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> V8 {
    UnsafeRawPointer(p).loadUnaligned(as: V8.self)
}

/// Lane-wise maximum written as a compare and blend, which compiles to vmaxps/vblendvps
/// (the generic `pointwiseMax` does not vectorise here).
@inline(__always)
func max8(_ a: V8, _ b: V8) -> V8 { a.replacing(with: b, where: a .< b) }

@inline(__always)
func min8(_ a: V8, _ b: V8) -> V8 { a.replacing(with: b, where: b .< a) }

@inline(__always)
func store8(_ v: V8, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V8.self)
}

/// What happens to a value after bias (and residual) are added.
enum KernelActivation {
    case none
    case relu
    case relu6
    case reluN1To1
    /// Per-channel PReLU; the slopes are packed like the bias (8 per block).
    case prelu(UnsafePointer<Float>)
}

@inline(__always)
func activate(_ v: V8, _ activation: KernelActivation, _ block: Int) -> V8 {
    switch activation {
    case .none: return v
    case .relu: return v.replacing(with: 0, where: v .< 0)
    case .relu6: return min8(max8(v, V8(repeating: 0)), V8(repeating: 6))
    case .reluN1To1: return min8(max8(v, V8(repeating: -1)), V8(repeating: 1))
    case .prelu(let alpha):
        let a = load8(alpha + block &* 8)
        return v.replacing(with: v * a, where: v .< 0)
    }
}

/// The CKernels code (FC_ACT_*) of an activation, and the plain per-channel slopes for PReLU.
func cActivation(_ activation: TFLiteActivation, prelu: UnsafePointer<Float>?) -> (Int32, UnsafePointer<Float>?) {
    prelu.map { KernelActivation.prelu($0).cCode } ?? KernelActivation(activation).cCode
}

extension KernelActivation {
    /// The kernel form of a model's fused activation (the one mapping; PReLU has no TFLite code).
    init(_ activation: TFLiteActivation) {
        switch activation {
        case .none: self = .none
        case .relu: self = .relu
        case .relu6: self = .relu6
        case .reluN1To1: self = .reluN1To1
        }
    }

    /// The CKernels code (FC_ACT_*) and, for PReLU, the per-channel slopes: the one mapping.
    var cCode: (Int32, UnsafePointer<Float>?) {
        switch self {
        case .none: return (0, nil)
        case .relu: return (1, nil)
        case .relu6: return (2, nil)
        case .reluN1To1: return (3, nil)
        case .prelu(let slopes): return (4, slopes)
        }
    }
}

/// An output block of 8 channels: where it starts, and how many lanes are real (8 except when C < 8).
struct ChannelBlock {
    var start: Int
    var lanes: Int
    /// Residual lanes that exist for this block (a residual narrower than the output is zero-padded).
    var residualLanes: Int
}

/// Blocks of 8 covering `channels`, the last one overlapping its neighbour (see the file comment).
func channelBlocks(_ channels: Int, residualChannels: Int = 0) -> [ChannelBlock] {
    if channels < 8 {
        return [ChannelBlock(start: 0, lanes: channels, residualLanes: min(residualChannels, channels))]
    }
    let count = (channels + 7) / 8
    return (0..<count).map { index in
        let start = min(index * 8, channels - 8)
        return ChannelBlock(start: start, lanes: 8, residualLanes: max(0, min(8, residualChannels - start)))
    }
}

/// The residual added before the activation: `pointer[p * stride + c]` for channels c < `channels`.
struct Residual {
    var pointer: UnsafePointer<Float>
    var stride: Int
    var channels: Int
}

@inline(__always)
func loadPartial(_ p: UnsafePointer<Float>, _ lanes: Int) -> V8 {
    var v = V8(repeating: 0)
    for i in 0..<lanes { v[i] = p[i] }
    return v
}

@inline(__always)
func storePartial(_ v: V8, _ p: UnsafeMutablePointer<Float>, _ lanes: Int) {
    for i in 0..<lanes { p[i] = v[i] }
}

/// Stores one 8-channel result of pixel row `row` (only the real lanes when the output is narrower).
/// Residual and activation are applied afterwards by `gemmEpilogue`: done here, per vector, they made
/// the compiler outline the epilogue into a call that spilled every accumulator.
@inline(__always)
func put(_ v: V8, row: Int, block: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int) {
    let out = c + (row &* ldc &+ block.start)
    if block.lanes == 8 { store8(v, out) } else { storePartial(v, out, block.lanes) }
}

/// Adds the residual and applies the activation in place to rows `rows` of C (n channels each), in
/// plain channel order (the overlapping blocks of the kernels would apply them twice). For PReLU,
/// `activation` holds one slope per channel.
func gemmEpilogue(
    c: UnsafeMutablePointer<Float>, ldc: Int, n: Int, rows: Range<Int>, residual: Residual?,
    activation: KernelActivation
) {
    if residual == nil, case .none = activation { return }
    let vectorEnd = n & ~7
    for row in rows {
        let out = c + row &* ldc
        let res = residual.map { UnsafePointer($0.pointer + row &* $0.stride) }
        let resChannels = residual?.channels ?? 0
        var ch = 0
        while ch < vectorEnd {
            var v = load8(out + ch)
            if let res, ch < resChannels {
                v += ch + 8 <= resChannels ? load8(res + ch) : loadPartial(res + ch, resChannels - ch)
            }
            store8(applyActivation(v, activation, ch), out + ch)
            ch &+= 8
        }
        while ch < n {
            var v = out[ch]
            if let res, ch < resChannels { v += res[ch] }
            switch activation {
            case .none: break
            case .relu: v = max(v, 0)
            case .relu6: v = min(max(v, 0), 6)
            case .reluN1To1: v = min(max(v, -1), 1)
            case .prelu(let alpha): v = v >= 0 ? v : v * alpha[ch]
            }
            out[ch] = v
            ch &+= 1
        }
    }
}

/// `activate` with the PReLU slopes indexed by channel instead of by packed block.
@inline(__always)
func applyActivation(_ v: V8, _ activation: KernelActivation, _ channel: Int) -> V8 {
    if case .prelu(let alpha) = activation {
        let a = load8(alpha + channel)
        return v.replacing(with: v * a, where: v .< 0)
    }
    return activate(v, activation, 0)
}
