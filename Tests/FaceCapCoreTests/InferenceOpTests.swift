import XCTest

@testable import FaceCapCore

/// Each operator on small graphs: hand-computed values, and a plain reference for sizes that exercise
/// the kernels' blocking (channel counts that are not multiples of 8, odd pixel counts, SAME padding).
final class InferenceOpTests: XCTestCase {
    /// Deterministic values in [-1, 1).
    private func values(_ count: Int, seed: UInt32) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 23) - 1
        }
    }

    /// Direct NHWC convolution (depthwise when `depthwise`), TFLite SAME/VALID rules spelled out plainly.
    private func reference(
        input: [Float], h: Int, w: Int, c: Int, weights: [Float], kh: Int, kw: Int, outC: Int,
        bias: [Float], stride: Int, same: Bool, depthwise: Bool
    ) -> [Float] {
        let outH = same ? (h + stride - 1) / stride : (h - kh) / stride + 1
        let outW = same ? (w + stride - 1) / stride : (w - kw) / stride + 1
        let padTop = same ? max((outH - 1) * stride + kh - h, 0) / 2 : 0
        let padLeft = same ? max((outW - 1) * stride + kw - w, 0) / 2 : 0
        var out = [Float](repeating: 0, count: outH * outW * outC)
        for oy in 0..<outH {
            for ox in 0..<outW {
                for o in 0..<outC {
                    var sum = bias[o]
                    for ky in 0..<kh {
                        for kx in 0..<kw {
                            let iy = oy * stride - padTop + ky, ix = ox * stride - padLeft + kx
                            guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                            if depthwise {
                                sum += input[(iy * w + ix) * c + o] * weights[(ky * kw + kx) * c + o]
                            } else {
                                for i in 0..<c {
                                    sum += input[(iy * w + ix) * c + i] * weights[((o * kh + ky) * kw + kx) * c + i]
                                }
                            }
                        }
                    }
                    out[(oy * outW + ox) * outC + o] = sum
                }
            }
        }
        return out
    }

    private func convGraph(
        h: Int, w: Int, c: Int, outC: Int, k: Int, stride: Int, same: Bool, depthwise: Bool,
        weights: [Float], bias: [Float], outH: Int, outW: Int
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.activation([1, h, w, c])
        let wt = g.constant(depthwise ? [1, k, k, c] : [outC, k, k, c], weights)
        let b = g.constant([outC], bias)
        let y = g.activation([1, outH, outW, outC])
        if depthwise {
            g.op(
                Op.depthwise, [x, wt, b], [y], optionsType: 2,
                options: Op.depthwiseOptions(same: same, stride: stride))
        } else {
            g.op(Op.conv, [x, wt, b], [y], optionsType: 1, options: Op.convOptions(same: same, stride: stride))
        }
        g.inputs = [x]
        g.outputs = [y]
        return g
    }

    func testConv1x1ByHand() throws {
        // Two pixels, two input channels, one output: y = 1·a + 2·b + 0.5.
        let g = convGraph(
            h: 1, w: 2, c: 2, outC: 1, k: 1, stride: 1, same: false, depthwise: false,
            weights: [1, 2], bias: [0.5], outH: 1, outW: 2)
        XCTAssertEqual(try g.run([1, 1, 3, -2]), [3.5, -0.5])
    }

    func testSamePaddingPutsTheOddPixelAfter() throws {
        // 4×4 input 1…16, 3×3 all-ones kernel, stride 2, SAME: out 2×2, total padding 1 → 0 before, 1 after.
        let input = (1...16).map(Float.init)
        let g = convGraph(
            h: 4, w: 4, c: 1, outC: 1, k: 3, stride: 2, same: true, depthwise: false,
            weights: [Float](repeating: 1, count: 9), bias: [0], outH: 2, outW: 2)
        // Top-left window covers rows 0-2, cols 0-2: 1+2+3+5+6+7+9+10+11 = 54; top-right cols 2-3: 3+4+7+8+11+12 = 45;
        // bottom-left rows 2-3: 9+10+11+13+14+15 = 72; bottom-right: 11+12+15+16 = 54.
        XCTAssertEqual(try g.run(input), [54, 45, 72, 54])
    }

    func testSamePaddingWithOddTotalForFiveByFive() throws {
        // 6×6, 5×5 stride 2: out 3, total = (3−1)·2 + 5 − 6 = 3 → 1 before, 2 after.
        let geometry = WindowGeometry(inH: 6, inW: 6, kh: 5, kw: 5, sh: 2, sw: 2, padding: .same)
        XCTAssertEqual(geometry.outH, 3)
        XCTAssertEqual(geometry.padTop, 1)
        let valid = WindowGeometry(inH: 6, inW: 6, kh: 3, kw: 3, sh: 3, sw: 3, padding: .valid)
        XCTAssertEqual([valid.outH, valid.padTop], [2, 0])
    }

    func testConvolutionsMatchTheReferenceAcrossBlockings() throws {
        let cases: [(h: Int, w: Int, c: Int, outC: Int, k: Int, stride: Int, same: Bool, depthwise: Bool)] = [
            (5, 7, 3, 24, 5, 2, true, false),  // first-layer shape, every window over the border
            (12, 14, 3, 24, 5, 2, true, false),  // detector's first layer: interior and border windows
            (13, 12, 3, 16, 3, 2, true, false),  // FaceMesh's first layer, odd height
            (7, 5, 12, 28, 1, 1, false, false),  // 1×1 with an overlapping last block and 35 rows
            (3, 3, 32, 1, 3, 3, false, false),  // presence head: one output channel
            (6, 6, 16, 40, 1, 1, true, false),  // 5 blocks: panels of 3 and 2
            (9, 8, 20, 20, 3, 1, true, true),  // depthwise, overlapping block
            (8, 8, 8, 8, 3, 2, true, true),  // depthwise stride 2, odd padding after
            (5, 5, 3, 3, 3, 1, true, true),  // depthwise with fewer than 8 channels
            (6, 6, 8, 8, 5, 1, true, true),  // depthwise 5×5 (generic path)
            // AVX-512 (CKernels) tails: only a panel's or slab's real channels are stored.
            (4, 5, 42, 36, 1, 1, false, false),  // 1×1, panels of 32 and 16 (4 real)
            (3, 4, 16, 213, 1, 1, false, false),  // 1×1, six panels of 32 and one of 24 (21 real)
            (9, 7, 28, 28, 3, 1, true, true),  // depthwise, a slab of 12 real channels
            (9, 9, 36, 36, 3, 2, true, true),  // depthwise stride 2, a slab of 4 real channels
            (2, 2, 24, 24, 3, 1, true, true),  // depthwise on a map smaller than its window
            (1, 1, 16, 16, 3, 1, true, true),  // depthwise on one pixel: only the centre tap
            (6, 5, 8, 24, 2, 2, false, false),  // 2×2 stride 2 VALID (iris): no padded copy
            (16, 16, 3, 24, 5, 2, true, false),  // detector's first layer: padded copy, 8-row blocks
            // Depthwise windows other than 3×3 (the hand model's 5×5) in CKernels on AVX-512.
            (11, 13, 40, 40, 5, 1, true, true),  // 5×5 stride 1: interior groups of four, a slab of 8
            (14, 15, 24, 24, 5, 2, true, true),  // 5×5 stride 2, odd width
            (3, 3, 16, 16, 5, 1, true, true),  // 5×5 on a map smaller than its window
            (9, 10, 20, 20, 5, 2, false, true),  // 5×5 stride 2 VALID
            (8, 9, 18, 18, 4, 1, true, true),  // 4×4 (no specialised copy): the generic loop
        ]
        for (n, t) in cases.enumerated() {
            let weightCount = t.depthwise ? t.k * t.k * t.c : t.outC * t.k * t.k * t.c
            let weights = values(weightCount, seed: UInt32(n * 3 + 1))
            let bias = values(t.outC, seed: UInt32(n * 3 + 2))
            let input = values(t.h * t.w * t.c, seed: UInt32(n * 3 + 3))
            let outH = t.same ? (t.h + t.stride - 1) / t.stride : (t.h - t.k) / t.stride + 1
            let outW = t.same ? (t.w + t.stride - 1) / t.stride : (t.w - t.k) / t.stride + 1
            let g = convGraph(
                h: t.h, w: t.w, c: t.c, outC: t.outC, k: t.k, stride: t.stride, same: t.same,
                depthwise: t.depthwise, weights: weights, bias: bias, outH: outH, outW: outW)
            let expected = reference(
                input: input, h: t.h, w: t.w, c: t.c, weights: weights, kh: t.k, kw: t.k,
                outC: t.outC, bias: bias, stride: t.stride, same: t.same, depthwise: t.depthwise)
            let actual = try g.run(input)
            XCTAssertEqual(actual.count, expected.count, "case \(n)")
            XCTAssertLessThan(maxAbsDifference(actual, expected), 1e-4, "case \(n): \(t)")
        }
    }

    func testFusedConvAddPaddedResidualAndPRelu() throws {
        // conv 1×1 (2 → 10 channels) + PAD(residual 2 → 10 channels) → ADD → PRELU, as in FaceMesh.
        var g = GraphBuilder()
        let x = g.activation([1, 3, 3, 2])
        let weights = values(20, seed: 7), bias = values(10, seed: 8), alpha = values(10, seed: 9)
        let wt = g.constant([10, 1, 1, 2], weights), b = g.constant([10], bias)
        let conv = g.activation([1, 3, 3, 10])
        g.op(Op.conv, [x, wt, b], [conv], optionsType: 1, options: Op.convOptions(same: false, stride: 1))
        let paddings = g.constantInt32([4, 2], [0, 0, 0, 0, 0, 0, 0, 8])
        let padded = g.activation([1, 3, 3, 10])
        g.op(Op.pad, [x, paddings], [padded])
        let sum = g.activation([1, 3, 3, 10])
        g.op(Op.add, [conv, padded], [sum], optionsType: 11, options: [(0, .u8(0))])
        let slopes = g.constant([1, 1, 10], alpha)
        let y = g.activation([1, 3, 3, 10])
        g.op(Op.prelu, [sum, slopes], [y])
        g.inputs = [x]; g.outputs = [y]
        let input = values(18, seed: 10)
        let interpreter = try Interpreter(model: try TFLiteModel(bytes: g.bytes(), name: "fused"))
        XCTAssertEqual(interpreter.stepCount, 1, "conv, pad, add and prelu should fuse into one step")
        _ = interpreter.input().update(fromContentsOf: input)
        interpreter.run()
        let convOut = reference(
            input: input, h: 3, w: 3, c: 2, weights: weights, kh: 1, kw: 1, outC: 10, bias: bias,
            stride: 1, same: false, depthwise: false)
        var expected = [Float]()
        for p in 0..<9 {
            for ch in 0..<10 {
                let v = convOut[p * 10 + ch] + (ch < 2 ? input[p * 2 + ch] : 0)
                expected.append(v >= 0 ? v : v * alpha[ch])
            }
        }
        XCTAssertLessThan(maxAbsDifference(interpreter.output(0), expected), 1e-5)
    }

    func testPoolListedAfterTheConvolutionFusesIntoItsStore() throws {
        // The iris model's downsampling blocks: conv 2×2/2, then (listed after it) the pooled shortcut, ADD, PRELU.
        // The pool is planned first, so the ADD and PRELU fold into the convolution's store: two steps, not four.
        var g = GraphBuilder()
        let x = g.activation([1, 4, 4, 3])
        let weights = values(36, seed: 11), bias = values(3, seed: 12), alpha = values(3, seed: 13)
        let wt = g.constant([3, 2, 2, 3], weights), b = g.constant([3], bias)
        let conv = g.activation([1, 2, 2, 3])
        g.op(Op.conv, [x, wt, b], [conv], optionsType: 1, options: Op.convOptions(same: false, stride: 2))
        let pooled = g.activation([1, 2, 2, 3])
        g.op(Op.maxPool, [x], [pooled], optionsType: 5, options: Op.poolOptions(same: false, stride: 2, filter: 2))
        let sum = g.activation([1, 2, 2, 3])
        g.op(Op.add, [conv, pooled], [sum], optionsType: 11, options: [(0, .u8(0))])
        let slopes = g.constant([1, 1, 3], alpha)
        let y = g.activation([1, 2, 2, 3])
        g.op(Op.prelu, [sum, slopes], [y])
        g.inputs = [x]; g.outputs = [y]
        let input = values(48, seed: 14)
        let interpreter = try Interpreter(model: try TFLiteModel(bytes: g.bytes(), name: "pool after conv"))
        XCTAssertEqual(interpreter.stepCount, 2, "the pool, then the convolution with the ADD and PRELU fused")
        _ = interpreter.input().update(fromContentsOf: input)
        interpreter.run()
        let convOut = reference(
            input: input, h: 4, w: 4, c: 3, weights: weights, kh: 2, kw: 2, outC: 3, bias: bias,
            stride: 2, same: false, depthwise: false)
        var expected = [Float]()
        for oy in 0..<2 {
            for ox in 0..<2 {
                for ch in 0..<3 {
                    let window = [(0, 0), (0, 1), (1, 0), (1, 1)].map { dy, dx in
                        input[((2 * oy + dy) * 4 + 2 * ox + dx) * 3 + ch]
                    }
                    let v = convOut[(oy * 2 + ox) * 3 + ch] + window.max()!
                    expected.append(v >= 0 ? v : v * alpha[ch])
                }
            }
        }
        XCTAssertLessThan(maxAbsDifference(interpreter.output(0), expected), 1e-5)
    }

    func testAddReluPreluStandalone() throws {
        var g = GraphBuilder()
        let a = g.activation([1, 1, 1, 3])
        let relu = g.activation([1, 1, 1, 3])
        g.op(Op.relu, [a], [relu])
        let sum = g.activation([1, 1, 1, 3])
        g.op(Op.add, [a, relu], [sum], optionsType: 11, options: [(0, .u8(0))])
        let slopes = g.constant([3], [0.5, -1, 2])
        let y = g.activation([1, 1, 1, 3])
        g.op(Op.prelu, [sum, slopes], [y])
        g.inputs = [a]; g.outputs = [y]
        // a = [-2, 3, -1]: relu = [0, 3, 0]; sum = [-2, 6, -1]; prelu = [-1, 6, -2].
        XCTAssertEqual(try g.run([-2, 3, -1]), [-1, 6, -2])
    }

    func testMaxPoolPadReshapeConcatenation() throws {
        var g = GraphBuilder()
        let x = g.activation([1, 4, 4, 1])
        let pooled = g.activation([1, 2, 2, 1])
        g.op(Op.maxPool, [x], [pooled], optionsType: 5, options: Op.poolOptions(same: false, stride: 2, filter: 2))
        let paddings = g.constantInt32([4, 2], [0, 0, 0, 0, 0, 0, 1, 0])
        let padded = g.activation([1, 2, 2, 2])
        g.op(Op.pad, [pooled, paddings], [padded])
        let flat = g.activation([1, 8])
        g.op(Op.reshape, [padded], [flat], optionsType: 17, options: [(0, .int32s([1, -1]))])
        let again = g.activation([1, 4])
        g.op(Op.reshape, [pooled], [again], optionsType: 17, options: [(0, .int32s([1, 4]))])
        let joined = g.activation([1, 12])
        g.op(Op.concatenation, [flat, again], [joined], optionsType: 10, options: [(0, .i32(1)), (1, .u8(0))])
        g.inputs = [x]; g.outputs = [joined]
        let input: [Float] = [
            1, 2, 5, 6,
            3, 4, 7, 8,
            -1, -2, 0, 9,
            -3, -4, 2, 1,
        ]
        // Pool: [4, 8, -1, 9]; pad adds a zero channel before each: [0,4, 0,8, 0,-1, 0,9].
        XCTAssertEqual(try g.run(input), [0, 4, 0, 8, 0, -1, 0, 9, 4, 8, -1, 9])
    }

    func testMaxPoolSameIgnoresPadding() throws {
        var g = GraphBuilder()
        let x = g.activation([1, 3, 3, 1])
        let y = g.activation([1, 2, 2, 1])
        g.op(Op.maxPool, [x], [y], optionsType: 5, options: Op.poolOptions(same: true, stride: 2, filter: 2))
        g.inputs = [x]; g.outputs = [y]
        // SAME 3→2: padding 1 after; windows {-1,-2,-4,-5}, {-3,-6}, {-7,-8}, {-9}: padding must not add 0.
        XCTAssertEqual(try g.run([-1, -2, -3, -4, -5, -6, -7, -8, -9]), [-1, -3, -7, -9])
    }

    func testDequantizedHalfWeights() throws {
        // Weights 0.5 (0x3800) and the smallest subnormal 2^-24 (0x0001), dequantized at load.
        var g = GraphBuilder()
        let x = g.activation([1, 1, 1, 2])
        let half = g.constantHalf([1, 1, 1, 2], bits: [0x3800, 0x0001])
        let weights = g.activation([1, 1, 1, 2])
        g.op(Op.dequantize, [half], [weights])
        let b = g.constant([1], [0])
        let y = g.activation([1, 1, 1, 1])
        g.op(Op.conv, [x, weights, b], [y], optionsType: 1, options: Op.convOptions(same: false, stride: 1))
        g.inputs = [x]; g.outputs = [y]
        XCTAssertEqual(try g.run([4, Float(1 << 24)]), [3])
    }

    func testHalfToFloatConversion() {
        XCTAssertEqual(floatFromHalfBits(0x3c00), 1)
        XCTAssertEqual(floatFromHalfBits(0xc000), -2)
        XCTAssertEqual(floatFromHalfBits(0x7bff), 65504)
        XCTAssertEqual(floatFromHalfBits(0x0001), 0x1p-24)  // smallest subnormal
        XCTAssertEqual(floatFromHalfBits(0x03ff), 1023 * 0x1p-24)  // largest subnormal
        XCTAssertEqual(floatFromHalfBits(0x8200), -512 * 0x1p-24)  // negative subnormal
        XCTAssertEqual(floatFromHalfBits(0x0400), 0x1p-14)  // smallest normal
        XCTAssertEqual(floatFromHalfBits(0x8000).sign, .minus)
        XCTAssertEqual(floatFromHalfBits(0x7c00), .infinity)
        XCTAssertTrue(floatFromHalfBits(0x7e00).isNaN)
    }

    func testMemoryPlanReusesActivations() throws {
        let interpreter = try Interpreter(model: try TestData.landmarks)
        // Every activation of FaceMesh summed is several MB; the plan must fold them into far less.
        let total = try TestData.landmarks.tensors.filter { $0.data == nil }.reduce(0) { $0 + $1.elementCount }
        XCTAssertLessThan(interpreter.arenaSize, total / 3)
    }
}
