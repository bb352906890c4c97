import CKernels
import XCTest

@testable import FaceCapCore

/// CKernels' GEMM panel kernels against the Swift kernels (kernel6x16 / kernel4x24 / … + gemmEpilogue) and a plain
/// reference, on their edges: every panel width (16, 24, 32) and every number of real channels in it, 1 to 13 and
/// 19 rows (each row blocking and its remainders), one row in two segments, a residual narrower than the panel,
/// and every activation including PReLU. The C kernels do the Swift kernels' arithmetic in the same order, so
/// their results are the same bits; the plain reference (the same fused multiply-adds, one output at a time)
/// checks both.
final class GemmKernelTests: XCTestCase {
    /// Deterministic values in [-1, 1).
    private func values(_ count: Int, seed: UInt32) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 23) - 1
        }
    }

    private static let activations: [(code: Int32, name: String)] = [
        (0, "none"), (1, "relu"), (2, "relu6"), (3, "reluN1To1"), (4, "prelu"),
    ]

    /// One case: `rows` rows of `valid` output channels, packed for CKernels as one panel `width` wide.
    private struct Case: CustomStringConvertible {
        var width: Int, valid: Int, rows: Int, act: Int32, residualLanes: Int?, segmented: Bool
        var description: String {
            "width \(width) valid \(valid) rows \(rows) act \(act) residual \(residualLanes.map(String.init) ?? "-")"
                + (segmented ? " segmented" : "")
        }
    }

    /// The three results of one case: CKernels' AVX2 panel, the Swift kernels, the plain reference; and the
    /// AVX-512 panel's where this CPU runs it.
    private func run(_ t: Case, seed: UInt32) -> (avx2: [Float], swift: [Float], reference: [Float], avx512: [Float]?) {
        let seg = t.segmented ? Segments(count: 2, length: 5, stride: 9) : Segments(count: 1, length: 7, stride: 0)
        let k = seg.count * seg.length
        let rowSpan = (seg.count - 1) * seg.stride + seg.length
        let lda = rowSpan + 3
        let n = t.valid
        // Every buffer has 32 floats of slack past its end, as the planner's (ckernels.h).
        let a = values(t.rows * lda + 32, seed: seed)
        let weights = values(n * k, seed: seed &+ 1)  // weights[ch * k + kk]
        let bias = values(n, seed: seed &+ 2) + [Float](repeating: 0, count: 32)
        let slopes = values(n, seed: seed &+ 3).map { $0 * 0.5 } + [Float](repeating: 0, count: 32)
        let resStride = n + 5
        let residual = values(t.rows * resStride + 32, seed: seed &+ 4)
        let ldc = n + 2
        let resLanes = t.residualLanes.map { min($0, n) }

        func kIndex(_ kk: Int) -> Int { (kk / seg.length) * seg.stride + kk % seg.length }

        // The plain reference: bias, one fused multiply-add per k in k order, the residual, the activation.
        var reference = [Float](repeating: 0, count: t.rows * ldc)
        for r in 0..<t.rows {
            for ch in 0..<n {
                var v = bias[ch]
                for kk in 0..<k { v.addProduct(a[r * lda + kIndex(kk)], weights[ch * k + kk]) }
                if let resLanes, ch < resLanes { v += residual[r * resStride + ch] }
                switch t.act {
                case 1: v = v < 0 ? 0 : v
                case 2: v = min(v < 0 ? 0 : v, 6)
                case 3: v = min(max(v, -1), 1)
                case 4: v = v < 0 ? v * slopes[ch] : v
                default: break
                }
                reference[r * ldc + ch] = v
            }
        }

        // CKernels' packing: one panel, `width` floats per k, zero past the real channels.
        var wide = [Float](repeating: 0, count: k * t.width + 32)
        for kk in 0..<k { for j in 0..<n { wide[kk * t.width + j] = weights[j * k + kk] } }

        // The Swift kernels' packing (Interpreter.swift): 8-channel blocks in panels of 1–3 blocks.
        let blocks = channelBlocks(n, residualChannels: resLanes ?? 0)
        var panels: [(block: Int, blocks: Int, offset: Int)] = []
        var packed: [Float] = []
        var packedBias: [Float] = []
        for block in blocks {
            for lane in 0..<8 { packedBias.append(lane < block.lanes ? bias[block.start + lane] : 0) }
        }
        var b = 0
        for width in panelWidths(blocks: blocks.count) {
            panels.append((b, width, packed.count))
            for kk in 0..<k {
                for j in 0..<width {
                    let block = blocks[b + j]
                    for lane in 0..<8 { packed.append(lane < block.lanes ? weights[(block.start + lane) * k + kk] : 0) }
                }
            }
            b += width
        }
        packed += [Float](repeating: 0, count: 32)
        packedBias += [Float](repeating: 0, count: 32)

        let sentinel: Float = 12345
        var avx2 = [Float](repeating: sentinel, count: t.rows * ldc)
        var swift = avx2
        var avx512: [Float]? = fc_has_avx512() != 0 ? avx2 : nil
        a.withUnsafeBufferPointer { a in
            wide.withUnsafeBufferPointer { wide in
                bias.withUnsafeBufferPointer { bias in
                    slopes.withUnsafeBufferPointer { slopes in
                        residual.withUnsafeBufferPointer { residual in
                            let res = resLanes != nil ? residual.baseAddress : nil
                            let alpha = t.act == 4 ? slopes.baseAddress : nil
                            avx2.withUnsafeMutableBufferPointer { c in
                                fc_gemm_panel_avx2(
                                    a.baseAddress, lda, t.rows, seg.count, seg.length, seg.stride,
                                    wide.baseAddress, t.width, t.valid, bias.baseAddress,
                                    c.baseAddress, ldc, res, resStride, resLanes ?? 0, t.act, alpha)
                            }
                            if avx512 != nil {
                                avx512!.withUnsafeMutableBufferPointer { c in
                                    fc_gemm_panel_avx512(
                                        a.baseAddress, lda, t.rows, seg.count, seg.length,
                                        seg.stride, wide.baseAddress, t.width, t.valid,
                                        bias.baseAddress, c.baseAddress, ldc, res, resStride,
                                        resLanes ?? 0, t.act, alpha)
                                }
                            }
                            packed.withUnsafeBufferPointer { packed in
                                packedBias.withUnsafeBufferPointer { packedBias in
                                    let gemmWeights = PackedGemm(
                                        panels: panels, wide: [], blocks: blocks,
                                        weights: packed.baseAddress!,
                                        bias: packedBias.baseAddress!, k: k, n: n)
                                    let activation: KernelActivation
                                    switch t.act {
                                    case 1: activation = .relu
                                    case 2: activation = .relu6
                                    case 3: activation = .reluN1To1
                                    case 4: activation = .prelu(slopes.baseAddress!)
                                    default: activation = .none
                                    }
                                    let swiftResidual = resLanes.map {
                                        Residual(pointer: residual.baseAddress!, stride: resStride, channels: $0)
                                    }
                                    swift.withUnsafeMutableBufferPointer { c in
                                        gemm(
                                            a: a.baseAddress!, lda: lda, m: t.rows,
                                            segments: t.segmented ? seg : nil, packed: gemmWeights,
                                            c: c.baseAddress!, ldc: ldc, residual: swiftResidual,
                                            activation: activation)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Only the real channels are output: the two columns past them in each row of C stay untouched.
        for r in 0..<t.rows { for ch in n..<ldc { reference[r * ldc + ch] = sentinel } }
        return (avx2, swift, reference, avx512)
    }

    func testAVX2PanelIsBitIdenticalToTheSwiftKernels() {
        // The release build targets AVX2 and FMA (Package.swift): every CPU these tests run on has them.
        var index = 0
        var checked = 0
        for width in [16, 24, 32] {
            for valid in 1...width {
                for rows in Array(1...13) + [19] {
                    for act in Self.activations {
                        // The residual cycles through none, narrower than the panel's real channels (a padded
                        // residual, as FaceMesh's), and all of them; the rows through one and two segments.
                        let residualLanes: Int? = [nil, max(1, valid - 5), valid][index % 3]
                        let t = Case(
                            width: width, valid: valid, rows: rows, act: act.code,
                            residualLanes: residualLanes, segmented: index % 2 == 1)
                        let out = run(t, seed: UInt32(index * 7 + 1))
                        index += 1
                        XCTAssertEqual(out.avx2.map(\.bitPattern), out.swift.map(\.bitPattern), "\(t)")
                        XCTAssertLessThanOrEqual(maxAbsDifference(out.avx2, out.reference), 1e-5, "\(t)")
                        if let avx512 = out.avx512 {
                            XCTAssertEqual(avx512.map(\.bitPattern), out.avx2.map(\.bitPattern), "AVX-512 \(t)")
                        }
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, 72 * 14 * 5)
    }

    func testPanelsArePairedOnlyWhenBothAreFullAndAdjacent() {
        func panels(_ widths: [(Int, Int)], k: Int) -> [WidePanel] {
            var start = 0, offset = 0
            return widths.map { width, valid in
                defer { start += width; offset += width * k }
                return WidePanel(start: start, width: width, valid: valid, offset: offset)
            }
        }
        func shape(_ p: [WidePanel]) -> [Int] { p.map(\.width) }
        // 213 channels (the iris head's width, here at k = 5; the real head has k = 512 and is never paired): six
        // full panels pair up, the last 24-wide one stays.
        XCTAssertEqual(
            shape(pairedPanels(panels(Array(repeating: (32, 32), count: 6) + [(24, 21)], k: 5), k: 5)),
            [64, 64, 64, 24])
        XCTAssertEqual(shape(pairedPanels(panels([(32, 32), (32, 32), (32, 32)], k: 3), k: 3)), [64, 32])
        XCTAssertEqual(shape(pairedPanels(panels([(32, 32), (16, 8)], k: 3), k: 3)), [32, 16])
        // A second panel that is not full, or not right after the first's weights, is not paired.
        XCTAssertEqual(shape(pairedPanels(panels([(32, 32), (32, 31)], k: 3), k: 3)), [32, 32])
        XCTAssertEqual(shape(pairedPanels(panels([(32, 32), (32, 32)], k: 3), k: 4)), [32, 32])
        XCTAssertEqual(pairedPanels(panels([(32, 32), (32, 32)], k: 2), k: 2).first?.valid, 64)
        // Only while a pair's weights stay in L1 (k ≤ 64).
        XCTAssertEqual(shape(pairedPanels(panels([(32, 32), (32, 32)], k: 64), k: 64)), [64])
        XCTAssertEqual(shape(pairedPanels(panels([(32, 32), (32, 32)], k: 65), k: 65)), [32, 32])
    }

    /// The AVX-512 kernel's width 64 (two full 32-wide panels in one pass, 6 rows × 64 channels) gives the bits of
    /// its two panels run one by one: every row count 1 to 13 and 19 (the 6-row blocks and the remainder's), one
    /// and two segments, every activation, and residuals of none, 20, 40 and all 64 channels.
    func testAVX512PanelPairIsBitIdenticalToItsTwoPanels() throws {
        // Only a CPU with AVX-512 runs this kernel (the others never pair panels: packGemm).
        guard fc_has_avx512() != 0 else { return }
        var checked = 0
        for rows in Array(1...13) + [19] {
            for act in Self.activations {
                for (index, resLanes) in [nil, 20, 40, 64].enumerated() {
                    let segmented = (rows + index) % 2 == 1
                    let seed = UInt32(rows * 31 + Int(act.code) * 7 + index)
                    let (sc, sl, ss) = segmented ? (2, 5, 9) : (1, 7, 0)
                    let k = sc * sl, lda = (sc - 1) * ss + sl + 3, ldc = 67, resStride = 70
                    let a = values(rows * lda + 32, seed: seed)
                    let w = values(64 * k + 32, seed: seed &+ 1)
                    let bias = values(64 + 32, seed: seed &+ 2)
                    let slopes = values(64 + 32, seed: seed &+ 3)
                    let residual = values(rows * resStride + 32, seed: seed &+ 4)
                    var pair = [Float](repeating: 12345, count: rows * ldc)
                    var single = pair
                    residual.withUnsafeBufferPointer { residual in
                        let res = resLanes != nil ? residual.baseAddress : nil
                        let lanes = resLanes ?? 0
                        fc_gemm_panel_avx512(
                            a, lda, rows, sc, sl, ss, w, 64, 64, bias, &pair, ldc, res, resStride, lanes, act.code,
                            slopes)
                        for half in 0..<2 {
                            let start = 32 * half
                            single.withUnsafeMutableBufferPointer { c in
                                w.withUnsafeBufferPointer { w in
                                    bias.withUnsafeBufferPointer { bias in
                                        slopes.withUnsafeBufferPointer { slopes in
                                            fc_gemm_panel_avx512(
                                                a, lda, rows, sc, sl, ss, w.baseAddress! + start * k, 32, 32,
                                                bias.baseAddress! + start, c.baseAddress! + start, ldc,
                                                res.map { $0 + min(start, lanes) }, resStride, max(0, lanes - start),
                                                act.code, slopes.baseAddress! + start)
                                        }
                                    }
                                }
                            }
                        }
                    }
                    XCTAssertEqual(
                        pair.map(\.bitPattern), single.map(\.bitPattern),
                        "rows \(rows) act \(act.name) "
                            + "residual \(resLanes.map(String.init) ?? "-")" + (segmented ? " segmented" : ""))
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 14 * 5 * 4)
    }
}
