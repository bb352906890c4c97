import CKernels
import XCTest

@testable import FaceCapCore

/// CKernels' AVX2 depthwise kernels (fc_dw3x3_avx2, fc_dw_avx2) called directly on edge-case geometries, against a
/// plain reference with the engine's arithmetic (bias, one fused multiply-add per tap inside the image in ky, kx
/// order, then the activation), the Swift depthwise kernel, and on AVX-512 machines the AVX-512 kernels: all
/// bit-identical. The outputs are followed by guard values that must stay untouched.
final class DepthwiseAVX2Tests: XCTestCase {
    private struct Case {
        var h: Int, w: Int, c: Int, k: Int, stride: Int, padTop: Int, padLeft: Int, padBottom: Int, padRight: Int
        var outH: Int { (h + padTop + padBottom - k) / stride + 1 }
        var outW: Int { (w + padLeft + padRight - k) / stride + 1 }
    }

    private func values(_ count: Int, seed: UInt32) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 23) - 1
        }
    }

    private func reference(
        _ t: Case, _ input: [Float], _ weights: [Float], _ bias: [Float], act: Int,
        _ alpha: [Float]
    ) -> [Float] {
        var out = [Float](repeating: 0, count: t.outH * t.outW * t.c)
        for oy in 0..<t.outH {
            for ox in 0..<t.outW {
                for ch in 0..<t.c {
                    var acc = bias[ch]
                    for ky in 0..<t.k {
                        for kx in 0..<t.k {
                            let iy = oy * t.stride - t.padTop + ky, ix = ox * t.stride - t.padLeft + kx
                            guard iy >= 0, iy < t.h, ix >= 0, ix < t.w else { continue }
                            acc = acc.addingProduct(
                                input[(iy * t.w + ix) * t.c + ch], weights[(ky * t.k + kx) * t.c + ch])
                        }
                    }
                    switch act {
                    case FC_ACT_RELU: acc = acc < 0 ? 0 : acc
                    case FC_ACT_RELU6: acc = min(max(acc, 0), 6)
                    case FC_ACT_RELU_N1_TO_1: acc = min(max(acc, -1), 1)
                    case FC_ACT_PRELU: acc = acc < 0 ? acc * alpha[ch] : acc
                    default: break
                    }
                    out[(oy * t.outW + ox) * t.c + ch] = acc
                }
            }
        }
        return out
    }

    private typealias Kernel = (
        UnsafePointer<Float>, UnsafePointer<Float>, Int, UnsafePointer<Float>, Int32,
        UnsafePointer<Float>?, UnsafeMutablePointer<Float>
    ) -> Void

    /// Runs `kernel` on the packed (tap-major, cp = c rounded up to 16, 16 floats of slack as the planner's
    /// constant pool) weights; returns the outputs and whether the guard after them is intact.
    private func runC(
        _ t: Case, _ input: [Float], _ weights: [Float], _ bias: [Float], act: Int,
        _ alpha: [Float], _ kernel: Kernel
    ) -> ([Float], Bool) {
        let cp = (t.c + 15) / 16 * 16, taps = t.k * t.k
        var packed = [Float](repeating: 0, count: taps * cp + 16)
        for tap in 0..<taps { for ch in 0..<t.c { packed[tap * cp + ch] = weights[tap * t.c + ch] } }
        let plainBias = bias + [Float](repeating: 0, count: cp - t.c + 16)
        let plainAlpha = alpha + [Float](repeating: 0, count: cp - t.c + 16)
        let count = t.outH * t.outW * t.c
        var out = [Float](repeating: 0, count: count + 16)
        for i in count..<out.count { out[i] = 12345 }
        input.withUnsafeBufferPointer { x in
            packed.withUnsafeBufferPointer { wp in
                plainBias.withUnsafeBufferPointer { b in
                    plainAlpha.withUnsafeBufferPointer { a in
                        out.withUnsafeMutableBufferPointer { o in
                            kernel(
                                x.baseAddress!, wp.baseAddress!, cp, b.baseAddress!, Int32(act),
                                act == FC_ACT_PRELU ? a.baseAddress! : nil, o.baseAddress!)
                        }
                    }
                }
            }
        }
        return (Array(out[0..<count]), out[count...].allSatisfy { $0 == 12345 })
    }

    /// The Swift kernel (`FaceCapCore.depthwise`) on its own packing (blocks of 8).
    private func runSwift(
        _ t: Case, _ input: [Float], _ weights: [Float], _ bias: [Float], act: Int,
        _ alpha: [Float]
    ) -> [Float] {
        let blocks = channelBlocks(t.c), taps = t.k * t.k
        var packed = [Float](repeating: 0, count: blocks.count * taps * 8)
        var packedBias = [Float](repeating: 0, count: blocks.count * 8), packedAlpha = packedBias
        for (b, block) in blocks.enumerated() {
            for lane in 0..<block.lanes {
                packedBias[b * 8 + lane] = bias[block.start + lane]
                packedAlpha[b * 8 + lane] = alpha[block.start + lane]
                for tap in 0..<taps { packed[(b * taps + tap) * 8 + lane] = weights[tap * t.c + block.start + lane] }
            }
        }
        var g = WindowGeometry(inH: t.h, inW: t.w, kh: t.k, kw: t.k, sh: t.stride, sw: t.stride, padding: .valid)
        g.outH = t.outH; g.outW = t.outW; g.padTop = t.padTop; g.padLeft = t.padLeft
        var out = [Float](repeating: 0, count: t.outH * t.outW * t.c)
        packedAlpha.withUnsafeBufferPointer { a in
            let activation: KernelActivation
            switch act {
            case FC_ACT_RELU: activation = .relu
            case FC_ACT_RELU6: activation = .relu6
            case FC_ACT_RELU_N1_TO_1: activation = .reluN1To1
            case FC_ACT_PRELU: activation = .prelu(a.baseAddress!)
            default: activation = .none
            }
            input.withUnsafeBufferPointer { x in
                packed.withUnsafeBufferPointer { wp in
                    packedBias.withUnsafeBufferPointer { b in
                        out.withUnsafeMutableBufferPointer { o in
                            depthwise(
                                input: x.baseAddress!, channels: t.c, g: g, blocks: blocks, weights: wp.baseAddress!,
                                bias: b.baseAddress!, activation: activation, output: o.baseAddress!)
                        }
                    }
                }
            }
        }
        return out
    }

    func testAVX2DepthwiseIsBitIdenticalToTheReferenceSwiftAndAVX512() {
        let cases: [Case] = [
            Case(h: 9, w: 8, c: 20, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 9, w: 9, c: 36, k: 3, stride: 2, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 8, w: 8, c: 8, k: 3, stride: 2, padTop: 0, padLeft: 0, padBottom: 1, padRight: 1),
            Case(h: 7, w: 11, c: 3, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 7, w: 13, c: 5, k: 3, stride: 2, padTop: 0, padLeft: 1, padBottom: 1, padRight: 0),
            Case(h: 10, w: 12, c: 33, k: 3, stride: 1, padTop: 0, padLeft: 2, padBottom: 2, padRight: 0),
            Case(h: 6, w: 7, c: 16, k: 3, stride: 1, padTop: 0, padLeft: 0, padBottom: 0, padRight: 0),
            Case(h: 1, w: 1, c: 24, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 2, w: 2, c: 12, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 5, w: 4, c: 40, k: 3, stride: 2, padTop: 1, padLeft: 0, padBottom: 1, padRight: 1),
            Case(h: 11, w: 13, c: 40, k: 5, stride: 1, padTop: 2, padLeft: 2, padBottom: 2, padRight: 2),
            Case(h: 14, w: 15, c: 24, k: 5, stride: 2, padTop: 1, padLeft: 2, padBottom: 2, padRight: 2),
            Case(h: 3, w: 3, c: 17, k: 5, stride: 1, padTop: 2, padLeft: 2, padBottom: 2, padRight: 2),
            Case(h: 9, w: 10, c: 7, k: 5, stride: 2, padTop: 0, padLeft: 0, padBottom: 0, padRight: 0),
            Case(h: 1, w: 1, c: 48, k: 5, stride: 1, padTop: 2, padLeft: 2, padBottom: 2, padRight: 2),
            Case(h: 8, w: 9, c: 18, k: 4, stride: 1, padTop: 1, padLeft: 2, padBottom: 2, padRight: 1),
            Case(h: 12, w: 12, c: 72, k: 5, stride: 1, padTop: 2, padLeft: 2, padBottom: 2, padRight: 2),
            // A last slab of at most 8 channels in rows of four-output groups (the 3×3 kernel computes only
            // its low half): 8, 4 and 8 channels left, stride 1 and 2, as the detector's 24-, 36- and 56-channel
            // layers.
            Case(h: 10, w: 14, c: 24, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 9, w: 11, c: 36, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 12, w: 13, c: 56, k: 3, stride: 2, padTop: 0, padLeft: 0, padBottom: 1, padRight: 1),
            // SAME 3×3 stride 1 with whole rows of full slabs in runs of six or eight outputs, the edge pixels folded
            // into the first and last run (fc_dw3x3_avx512's dw_row_s1): rows of 8 (one run of six), 10 (one run
            // of eight), 15 and 16 (two overlapping runs), 26 (three) and 32 (four, the iris model's); 40 channels
            // mix full slabs with a partial one (which keeps groups of four); rows of 12 pixels keep them too.
            Case(h: 6, w: 10, c: 32, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 5, w: 16, c: 64, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 4, w: 15, c: 16, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 4, w: 26, c: 40, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 5, w: 32, c: 48, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 8, w: 8, c: 64, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
            Case(h: 3, w: 12, c: 16, k: 3, stride: 1, padTop: 1, padLeft: 1, padBottom: 1, padRight: 1),
        ]
        let activations: [Int] = [FC_ACT_NONE, FC_ACT_RELU, FC_ACT_RELU6, FC_ACT_RELU_N1_TO_1, FC_ACT_PRELU]
        let avx512 = Interpreter.usesAVX512
        var compared = 0
        for (n, t) in cases.enumerated() {
            let seed = UInt32(n * 5)
            let input = values(t.h * t.w * t.c, seed: seed + 1).map { $0 * 4 }
            let weights = values(t.k * t.k * t.c, seed: seed + 2), bias = values(t.c, seed: seed + 3)
            let alpha = values(t.c, seed: seed + 4)
            for act in activations {
                let label = "case \(n) \(t) act \(act)"
                let expected = reference(t, input, weights, bias, act: act, alpha)
                let swift = runSwift(t, input, weights, bias, act: act, alpha)
                XCTAssertEqual(swift.map(\.bitPattern), expected.map(\.bitPattern), "Swift, \(label)")
                let general = runC(t, input, weights, bias, act: act, alpha) { x, wp, cp, b, a, al, o in
                    fc_dw_avx2(
                        x, t.h, t.w, t.c, t.k, t.k, t.stride, t.stride, t.padTop, t.padLeft, t.outH, t.outW,
                        wp, cp, b, a, al, o)
                }
                XCTAssertEqual(general.0.map(\.bitPattern), expected.map(\.bitPattern), "fc_dw_avx2, \(label)")
                XCTAssertTrue(general.1, "fc_dw_avx2 wrote past its output, \(label)")
                if avx512 {
                    let wide = runC(t, input, weights, bias, act: act, alpha) { x, wp, cp, b, a, al, o in
                        fc_dw_avx512(
                            x, t.h, t.w, t.c, t.k, t.k, t.stride, t.stride, t.padTop, t.padLeft, t.outH,
                            t.outW, wp, cp, b, a, al, o)
                    }
                    XCTAssertEqual(wide.0.map(\.bitPattern), general.0.map(\.bitPattern), "fc_dw_avx512, \(label)")
                    XCTAssertTrue(wide.1, "fc_dw_avx512 wrote past its output, \(label)")
                }
                compared += 1
                guard t.k == 3 else { continue }
                let three = runC(t, input, weights, bias, act: act, alpha) { x, wp, cp, b, a, al, o in
                    fc_dw3x3_avx2(x, t.h, t.w, t.c, t.stride, t.padTop, t.padLeft, t.outH, t.outW, wp, cp, b, a, al, o)
                }
                XCTAssertEqual(three.0.map(\.bitPattern), expected.map(\.bitPattern), "fc_dw3x3_avx2, \(label)")
                XCTAssertTrue(three.1, "fc_dw3x3_avx2 wrote past its output, \(label)")
                if avx512 {
                    let wide = runC(t, input, weights, bias, act: act, alpha) { x, wp, cp, b, a, al, o in
                        fc_dw3x3_avx512(
                            x, t.h, t.w, t.c, t.stride, t.padTop, t.padLeft, t.outH, t.outW, wp, cp, b, a,
                            al, o)
                    }
                    XCTAssertEqual(wide.0.map(\.bitPattern), three.0.map(\.bitPattern), "fc_dw3x3_avx512, \(label)")
                    XCTAssertTrue(wide.1, "fc_dw3x3_avx512 wrote past its output, \(label)")
                }
            }
        }
        XCTAssertEqual(compared, cases.count * activations.count)
    }
}
