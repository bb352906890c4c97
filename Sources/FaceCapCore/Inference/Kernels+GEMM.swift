// GEMM: packed weight panels and the micro-kernels that stream them (the Swift path; CKernels' AVX2 and
// AVX-512 panels are called from here). Layout and index arithmetic as in Kernels.swift's header.

internal import CKernels

/// A panel of CKernels' packing: output channels start..<start+valid, `width` floats per k (zero past valid);
/// on AVX-512 a panel 64 wide is two full 32-wide ones side by side (`pairedPanels`).
struct WidePanel {
    var start: Int
    var width: Int
    var valid: Int
    var offset: Int
}

/// Packed GEMM weights, each panel `k × width` floats, plus bias. Either `panels` of 8-channel blocks (the Swift
/// kernels here) or `wide` panels of plain channels (CKernels: AVX-512, or AVX2 where AVX-512 is not used).
struct PackedGemm {
    /// Panel p: (first block index, number of blocks 1 to 3, float offset into `weights`).
    var panels: [(block: Int, blocks: Int, offset: Int)]
    var wide: [WidePanel]
    var blocks: [ChannelBlock]
    var weights: UnsafePointer<Float>
    /// 8 floats per block for `panels`; one per channel (padded by 32 zeros) for `wide`.
    var bias: UnsafePointer<Float>
    var k: Int
    var n: Int
}

/// C[m × n] = A[m × k] · W + bias (+ residual), then activation. `a` rows are `lda` apart; `segments`
/// describes a row when it is not contiguous (direct convolution).
func gemm(
    a: UnsafePointer<Float>, lda: Int, m: Int, segments: Segments? = nil, packed: PackedGemm,
    c: UnsafeMutablePointer<Float>, ldc: Int, residual: Residual?, activation: KernelActivation
) {
    // Rows in chunks that keep A's chunk in L1 while every weight panel streams past it.
    let chunk = max(12, min(96, (16 * 1024) / max(1, packed.k * 4)) / 12 * 12)
    let k = segments ?? Segments(count: 1, length: packed.k, stride: 0)
    if !packed.wide.isEmpty {
        gemmWide(
            a: a, lda: lda, m: m, k: k, chunk: chunk, packed: packed, c: c, ldc: ldc, residual: residual,
            activation: activation)
        return
    }
    var m0 = 0
    while m0 < m {
        let m1 = min(m, m0 + chunk)
        for panel in packed.panels {
            let w = packed.weights + panel.offset
            let bias = packed.bias + panel.block * 8
            let bi = panel.block
            let b0 = packed.blocks[bi]
            var row = m0
            switch panel.blocks {
            case 3:
                let b1 = packed.blocks[bi + 1], b2 = packed.blocks[bi + 2]
                while row + 4 <= m1 {
                    kernel4x24(
                        a: a + row &* lda, lda: lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1, b2: b2,
                        c: c, ldc: ldc)
                    row &+= 4
                }
                while row < m1 {
                    kernel1x24(
                        a: a + row &* lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1, b2: b2,
                        c: c, ldc: ldc)
                    row &+= 1
                }
            case 2:
                let b1 = packed.blocks[bi + 1]
                while row + 6 <= m1 {
                    kernel6x16(
                        a: a + row &* lda, lda: lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1,
                        c: c, ldc: ldc)
                    row &+= 6
                }
                while row < m1 {
                    kernel1x16(a: a + row &* lda, k: k, w: w, bias: bias, row: row, b0: b0, b1: b1, c: c, ldc: ldc)
                    row &+= 1
                }
            default:
                while row + 4 <= m1 {
                    kernel4x8(a: a + row &* lda, lda: lda, k: k, w: w, bias: bias, row: row, b0: b0, c: c, ldc: ldc)
                    row &+= 4
                }
                while row < m1 {
                    kernel1x8(a: a + row &* lda, k: k, w: w, bias: bias, row: row, b0: b0, c: c, ldc: ldc)
                    row &+= 1
                }
            }
        }
        gemmEpilogue(c: c, ldc: ldc, n: packed.n, rows: m0..<m1, residual: residual, activation: activation)
        m0 = m1
    }
}

/// `gemm` on CKernels' wide panels (AVX-512, or AVX2 where AVX-512 is not used): every panel in C, the residual
/// added and the activation applied as C is stored.
private func gemmWide(
    a: UnsafePointer<Float>, lda: Int, m: Int, k: Segments, chunk: Int, packed: PackedGemm,
    c: UnsafeMutablePointer<Float>, ldc: Int, residual: Residual?, activation: KernelActivation
) {
    let (act, alpha) = activation.cCode
    var m0 = 0
    while m0 < m {
        let m1 = min(m, m0 + chunk)
        for panel in packed.wide {
            // The residual pointer is only read for panels whose channels the residual has (res_lanes > 0).
            let res = residual.map { $0.pointer + (m0 &* $0.stride &+ min(panel.start, $0.channels)) }
            let resLanes = max(0, (residual?.channels ?? 0) - panel.start)
            if avx512GEMM {
                fc_gemm_panel_avx512(
                    a + m0 &* lda, lda, m1 &- m0, k.count, k.length, k.stride,
                    packed.weights + panel.offset, panel.width, panel.valid,
                    packed.bias + panel.start, c + (m0 &* ldc &+ panel.start), ldc, res,
                    residual?.stride ?? 0, resLanes, act, alpha.map { $0 + panel.start })
            } else {
                fc_gemm_panel_avx2(
                    a + m0 &* lda, lda, m1 &- m0, k.count, k.length, k.stride,
                    packed.weights + panel.offset, panel.width, panel.valid,
                    packed.bias + panel.start, c + (m0 &* ldc &+ panel.start), ldc, res,
                    residual?.stride ?? 0, resLanes, act, alpha.map { $0 + panel.start })
            }
        }
        m0 = m1
    }
}

/// The AVX-512 kernel's panels: two full 32-wide panels side by side (the second's weights right after the
/// first's, as packGemm lays them out) become one panel 64 wide, which it runs in blocks of 6 rows × 64 channels
/// (one pass over A for both; ckernels.h). The same multiply-adds per output in the same order. Only for k ≤ 64:
/// the pair's weights (at most 16 KB) then stay in L1 from one 6-row block to the next; a 6 × 64 block loads
/// twice the weights per multiply-add of a 12 × 32 one, and with k = 512 (the iris model's 2×2/2 layer at
/// 16×16, 128 KB a pair) streaming them from L2 made the layer 1.26× slower in the profile.
func pairedPanels(_ wide: [WidePanel], k: Int) -> [WidePanel] {
    guard k <= 64 else { return wide }
    var paired: [WidePanel] = []
    var index = 0
    while index < wide.count {
        let panel = wide[index]
        if index + 1 < wide.count, panel.width == 32, panel.valid == 32, wide[index + 1].width == 32,
            wide[index + 1].valid == 32, wide[index + 1].start == panel.start + 32,
            wide[index + 1].offset == panel.offset + 32 * k
        {
            paired.append(WidePanel(start: panel.start, width: 64, valid: 64, offset: panel.offset))
            index += 2
        } else {
            paired.append(panel)
            index += 1
        }
    }
    return paired
}

/// How one row of A is laid out: `count` runs of `length` floats, `stride` apart. A plain matrix row
/// is one run; a convolution reads its k×k patches straight from the NHWC input as `kh` runs of
/// `kw·channels` floats one input row apart, with no im2col copy.
struct Segments {
    var count: Int
    var length: Int
    var stride: Int
}

/// How many 8-channel blocks each weight panel takes: 3 (24 channels, 4 rows × 3 = 12 accumulators) or
/// 2 (16 channels, 6 rows × 2 = 12 accumulators) keep the two FMA pipes busy within 16 AVX registers.
func panelWidths(blocks: Int) -> [Int] {
    var widths: [Int] = []
    var left = blocks
    while left > 0 {
        let width = left == 4 || left == 2 ? 2 : left == 1 ? 1 : 3
        widths.append(width)
        left -= width
    }
    return widths
}

@inline(__always)
func kernel6x16(
    a: UnsafePointer<Float>, lda: Int, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    row: Int, b0: ChannelBlock, b1: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    let bias0 = load8(bias), bias1 = load8(bias + 8)
    var c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1
    var c30 = bias0, c31 = bias1, c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1
    let a0 = a, a1 = a + lda, a2 = a + 2 &* lda, a3 = a + 3 &* lda, a4 = a + 4 &* lda, a5 = a + 5 &* lda
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let w0 = load8(wp), w1 = load8(wp + 8)
            wp += 16
            var x = V8(repeating: a0[kk])
            c00.addProduct(x, w0); c01.addProduct(x, w1)
            x = V8(repeating: a1[kk])
            c10.addProduct(x, w0); c11.addProduct(x, w1)
            x = V8(repeating: a2[kk])
            c20.addProduct(x, w0); c21.addProduct(x, w1)
            x = V8(repeating: a3[kk])
            c30.addProduct(x, w0); c31.addProduct(x, w1)
            x = V8(repeating: a4[kk])
            c40.addProduct(x, w0); c41.addProduct(x, w1)
            x = V8(repeating: a5[kk])
            c50.addProduct(x, w0); c51.addProduct(x, w1)
        }
    }
    put(c00, row: row, block: b0, c: c, ldc: ldc)
    put(c01, row: row, block: b1, c: c, ldc: ldc)
    put(c10, row: row + 1, block: b0, c: c, ldc: ldc)
    put(c11, row: row + 1, block: b1, c: c, ldc: ldc)
    put(c20, row: row + 2, block: b0, c: c, ldc: ldc)
    put(c21, row: row + 2, block: b1, c: c, ldc: ldc)
    put(c30, row: row + 3, block: b0, c: c, ldc: ldc)
    put(c31, row: row + 3, block: b1, c: c, ldc: ldc)
    put(c40, row: row + 4, block: b0, c: c, ldc: ldc)
    put(c41, row: row + 4, block: b1, c: c, ldc: ldc)
    put(c50, row: row + 5, block: b0, c: c, ldc: ldc)
    put(c51, row: row + 5, block: b1, c: c, ldc: ldc)
}

@inline(__always)
func kernel4x24(
    a: UnsafePointer<Float>, lda: Int, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    row: Int, b0: ChannelBlock, b1: ChannelBlock, b2: ChannelBlock, c: UnsafeMutablePointer<Float>,
    ldc: Int
) {
    let bias0 = load8(bias), bias1 = load8(bias + 8), bias2 = load8(bias + 16)
    var c00 = bias0, c01 = bias1, c02 = bias2, c10 = bias0, c11 = bias1, c12 = bias2
    var c20 = bias0, c21 = bias1, c22 = bias2, c30 = bias0, c31 = bias1, c32 = bias2
    let a0 = a, a1 = a + lda, a2 = a + 2 &* lda, a3 = a + 3 &* lda
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let w0 = load8(wp), w1 = load8(wp + 8), w2 = load8(wp + 16)
            wp += 24
            var x = V8(repeating: a0[kk])
            c00.addProduct(x, w0); c01.addProduct(x, w1); c02.addProduct(x, w2)
            x = V8(repeating: a1[kk])
            c10.addProduct(x, w0); c11.addProduct(x, w1); c12.addProduct(x, w2)
            x = V8(repeating: a2[kk])
            c20.addProduct(x, w0); c21.addProduct(x, w1); c22.addProduct(x, w2)
            x = V8(repeating: a3[kk])
            c30.addProduct(x, w0); c31.addProduct(x, w1); c32.addProduct(x, w2)
        }
    }
    put(c00, row: row, block: b0, c: c, ldc: ldc)
    put(c01, row: row, block: b1, c: c, ldc: ldc)
    put(c02, row: row, block: b2, c: c, ldc: ldc)
    put(c10, row: row + 1, block: b0, c: c, ldc: ldc)
    put(c11, row: row + 1, block: b1, c: c, ldc: ldc)
    put(c12, row: row + 1, block: b2, c: c, ldc: ldc)
    put(c20, row: row + 2, block: b0, c: c, ldc: ldc)
    put(c21, row: row + 2, block: b1, c: c, ldc: ldc)
    put(c22, row: row + 2, block: b2, c: c, ldc: ldc)
    put(c30, row: row + 3, block: b0, c: c, ldc: ldc)
    put(c31, row: row + 3, block: b1, c: c, ldc: ldc)
    put(c32, row: row + 3, block: b2, c: c, ldc: ldc)
}

@inline(__always)
func kernel1x24(
    a: UnsafePointer<Float>, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    row: Int, b0: ChannelBlock, b1: ChannelBlock, b2: ChannelBlock, c: UnsafeMutablePointer<Float>,
    ldc: Int
) {
    var c0 = load8(bias), c1 = load8(bias + 8), c2 = load8(bias + 16)
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let x = V8(repeating: a[kk])
            c0.addProduct(x, load8(wp)); c1.addProduct(x, load8(wp + 8)); c2.addProduct(x, load8(wp + 16))
            wp += 24
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
    put(c1, row: row, block: b1, c: c, ldc: ldc)
    put(c2, row: row, block: b2, c: c, ldc: ldc)
}

@inline(__always)
func kernel1x16(
    a: UnsafePointer<Float>, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    row: Int, b0: ChannelBlock, b1: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    var c0 = load8(bias), c1 = load8(bias + 8)
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let x = V8(repeating: a[kk])
            c0.addProduct(x, load8(wp)); c1.addProduct(x, load8(wp + 8))
            wp += 16
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
    put(c1, row: row, block: b1, c: c, ldc: ldc)
}

@inline(__always)
func kernel4x8(
    a: UnsafePointer<Float>, lda: Int, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    row: Int, b0: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    let bias0 = load8(bias)
    var c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0
    let a0 = a, a1 = a + lda, a2 = a + 2 &* lda, a3 = a + 3 &* lda
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            let w0 = load8(wp)
            wp += 8
            c0.addProduct(V8(repeating: a0[kk]), w0)
            c1.addProduct(V8(repeating: a1[kk]), w0)
            c2.addProduct(V8(repeating: a2[kk]), w0)
            c3.addProduct(V8(repeating: a3[kk]), w0)
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
    put(c1, row: row + 1, block: b0, c: c, ldc: ldc)
    put(c2, row: row + 2, block: b0, c: c, ldc: ldc)
    put(c3, row: row + 3, block: b0, c: c, ldc: ldc)
}

@inline(__always)
func kernel1x8(
    a: UnsafePointer<Float>, k seg: Segments, w: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    row: Int, b0: ChannelBlock, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    var c0 = load8(bias)
    var wp = w
    for segment in 0..<seg.count {
        let first = segment &* seg.stride
        for kk in first..<(first &+ seg.length) {
            c0.addProduct(V8(repeating: a[kk]), load8(wp))
            wp += 8
        }
    }
    put(c0, row: row, block: b0, c: c, ldc: ldc)
}
