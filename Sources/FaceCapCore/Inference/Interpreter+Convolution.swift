// Convolution planning (CONV_2D and DEPTHWISE_CONV_2D) in its steps: the operator read and checked, the ops
// folded into its store (an ADD of a residual, then RELU or PRELU), the weights packed for the kernel that runs
// it (CKernels' AVX-512 or AVX2 panels, or the Swift kernels' 8-channel blocks), and the step that runs it, with
// the input padded once at load where the window needs a border. Index arithmetic as in Kernels.swift's header.

internal import CKernels

/// A convolution as the model gives it, checked against its tensors.
struct ConvolutionOp {
    var input: Int
    var inH: Int, inW: Int, inC: Int
    var kh: Int, kw: Int
    var depthwise: Bool
    var weights: [Float]
    var bias: [Float]
    var activation: TFLiteActivation
    var g: WindowGeometry
}

/// What is folded into a convolution's store: its final output tensor, the residual added, the activation.
struct ConvolutionEpilogue {
    var output: Int
    var residual: Int?
    var residualChannels = 0
    var activation: TFLiteActivation
    var prelu: [Float]?
}

extension PlanBuilder {
    // MARK: convolutions with fused residual and activation

    mutating func planConvolution(
        _ index: Int, _ op: TFLiteOperator, soleConsumer: (Int) -> Int?,
        producer: [Int], skipped: inout Set<Int>
    ) throws {
        let conv = try convolution(index, op)
        let epilogue = fusedEpilogue(
            index, op, conv, soleConsumer: soleConsumer, producer: producer,
            skipped: &skipped)
        let (outH, outW, outC) = try nhwc(epilogue.output)
        if conv.depthwise, avx512GEMM || avx2CKernels {
            planDepthwiseC(conv, epilogue, outH: outH, outW: outW, outC: outC)
            return
        }
        let blocks = channelBlocks(outC, residualChannels: epilogue.residualChannels)
        var packedBias = [Float](repeating: 0, count: blocks.count * 8)
        var packedAlpha = [Float](repeating: 0, count: blocks.count * 8)
        for (b, block) in blocks.enumerated() {
            for lane in 0..<block.lanes {
                packedBias[b * 8 + lane] = conv.bias[block.start + lane]
                packedAlpha[b * 8 + lane] = epilogue.prelu?[block.start + lane] ?? 0
            }
        }
        let biasPointer = constantPool.store(packedBias)
        let activation: KernelActivation
        if let prelu = epilogue.prelu {
            // Depthwise kernels read slopes per packed block, the GEMM epilogue per channel.
            activation = .prelu(constantPool.store(conv.depthwise ? packedAlpha : prelu))
        } else {
            activation = KernelActivation(epilogue.activation)
        }
        if conv.depthwise {
            planDepthwiseSwift(
                conv, output: epilogue.output, blocks: blocks, bias: biasPointer,
                activation: activation, outH: outH, outW: outW, outC: outC)
            return
        }
        let (packed, floats) = packGemm(conv, blocks: blocks, bias: biasPointer, outC: outC)
        planGemmConvolution(
            conv, epilogue, packed: packed, activation: activation, outH: outH, outW: outW,
            outC: outC)
        // The weights the step reads, for the prefetch.
        plans[plans.count - 1].weights = UnsafeRawPointer(packed.weights)
        plans[plans.count - 1].weightBytes = floats * 4
    }

    /// Operator `index` read as a convolution: its input, window, weights and bias, each checked.
    private func convolution(_ index: Int, _ op: TFLiteOperator) throws -> ConvolutionOp {
        guard op.inputs.count >= 2 else { throw PlanError(text: "operator \(index) lacks weights") }
        let input = op.inputs[0]
        let (inH, inW, inC) = try nhwc(input)
        let (outH, outW, outC) = try nhwc(op.outputs[0])
        let weights = try floats(op.inputs[1])
        let wShape = shape(op.inputs[1])
        let bias =
            op.inputs.count > 2 && op.inputs[2] >= 0
            ? try floats(op.inputs[2])
            : [Float](repeating: 0, count: outC)
        guard wShape.count == 4, bias.count == outC else {
            throw PlanError(text: "operator \(index) has weights \(wShape) for \(outC) output channels")
        }
        let window: TFLiteWindow
        let depthwise = op.code == .depthwiseConv2D
        switch op.options {
        case .conv(let w) where !depthwise: window = w
        case .depthwise(let w) where depthwise: window = w
        default: throw PlanError(text: "operator \(index) has the wrong options")
        }
        let kh = wShape[1], kw = wShape[2]
        if depthwise {
            guard wShape[0] == 1, wShape[3] == inC, outC == inC else {
                throw PlanError(text: "depthwise operator \(index) has weights \(wShape) for \(inC) channels")
            }
        } else {
            guard wShape[0] == outC, wShape[3] == inC else {
                throw PlanError(text: "operator \(index) has weights \(wShape) for \(inC) → \(outC) channels")
            }
        }
        let g = WindowGeometry(
            inH: inH, inW: inW, kh: kh, kw: kw, sh: window.strideH, sw: window.strideW,
            padding: window.padding)
        guard g.outH == outH, g.outW == outW else {
            throw PlanError(
                text: "operator \(index) declares output \(outH)×\(outW), "
                    + "the window gives \(g.outH)×\(g.outW)")
        }
        return ConvolutionOp(
            input: input, inH: inH, inW: inW, inC: inC, kh: kh, kw: kw, depthwise: depthwise,
            weights: weights, bias: bias, activation: window.activation, g: g)
    }

    /// Fusion: conv → ADD(residual) → RELU/PRELU, when each intermediate has no other reader. The ops folded in
    /// go into `skipped`.
    private func fusedEpilogue(
        _ index: Int, _ op: TFLiteOperator, _ conv: ConvolutionOp,
        soleConsumer: (Int) -> Int?, producer: [Int],
        skipped: inout Set<Int>
    ) -> ConvolutionEpilogue {
        var epilogue = ConvolutionEpilogue(output: op.outputs[0], activation: conv.activation)
        let outC = conv.bias.count
        if !conv.depthwise, conv.activation == .none, let addIndex = soleConsumer(epilogue.output),
            model.operators[addIndex].code == .add, case .add(let addActivation) = model.operators[addIndex].options
        {
            let add = model.operators[addIndex]
            let output = epilogue.output
            // Fused ops are elementwise: only one that keeps the convolution's shape can be folded into it
            // (a fuzzed model's ADD or RELU with another output shape overran the bias).
            let other = add.inputs.count == 2 ? (add.inputs[0] == output ? add.inputs[1] : add.inputs[0]) : -1
            if other >= 0, add.outputs.count == 1, shape(add.outputs[0]) == shape(output),
                shape(other) == shape(output), !constantValues.has(other)
            {
                var source = other, channels = outC, padIndex: Int?
                if producer[other] >= 0, model.operators[producer[other]].code == .pad, soleConsumer(other) == addIndex,
                    let padded = channelOnlyPad(model.operators[producer[other]])
                {
                    source = padded.source
                    channels = padded.channels
                    padIndex = producer[other]
                }
                // The residual must be made before the convolution runs (in the run order, see runOrder).
                if producer[source] < 0 || runPosition[producer[source]] < runPosition[index] {
                    epilogue.residual = source
                    epilogue.residualChannels = channels
                    epilogue.activation = addActivation
                    skipped.insert(addIndex)
                    if let padIndex { skipped.insert(padIndex) }
                    epilogue.output = add.outputs[0]
                }
            }
        }
        if epilogue.activation == .none, let next = soleConsumer(epilogue.output),
            model.operators[next].outputs.count == 1, shape(model.operators[next].outputs[0]) == shape(epilogue.output)
        {
            let nextOp = model.operators[next]
            if nextOp.code == .relu {
                epilogue.activation = .relu
                skipped.insert(next)
                epilogue.output = nextOp.outputs[0]
            } else if nextOp.code == .prelu, nextOp.inputs.count == 2, let alpha = constantValues[nextOp.inputs[1]],
                alpha.count == outC
            {
                epilogue.prelu = alpha
                skipped.insert(next)
                epilogue.output = nextOp.outputs[0]
            }
        }
        return epilogue
    }

    /// For PAD that only appends zero channels: its input and that input's channel count.
    private func channelOnlyPad(_ op: TFLiteOperator) -> (source: Int, channels: Int)? {
        guard op.inputs.count == 2, let paddings = int32Values[op.inputs[1]], paddings.count == 8,
            paddings[0...6].allSatisfy({ $0 == 0 }), shape(op.inputs[0]).count == 4,
            shape(op.outputs[0]).count == 4, Array(shape(op.inputs[0])[0..<3]) == Array(shape(op.outputs[0])[0..<3]),
            shape(op.inputs[0])[3] + Int(paddings[7]) == shape(op.outputs[0])[3]
        else { return nil }
        return (op.inputs[0], shape(op.inputs[0])[3])
    }

    // MARK: depthwise

    /// The whole layer in CKernels, 16 channels at a time (AVX-512, or AVX2 in two 8-lane halves): weights
    /// tap-major (t = ky·kw + kx) in plain channel order, padded to a multiple of 16 (the last slab's loads and
    /// stores are masked to the real channels). 3×3 at stride 1 or 2 on maps at least six wide has its own
    /// kernel; any other window (the hand model's 5×5, stride 1 and 2), and 3×3 on maps under six wide (whose
    /// edge pixels, most of the row there, take four at a time in lockstep), the general one.
    private mutating func planDepthwiseC(
        _ conv: ConvolutionOp, _ epilogue: ConvolutionEpilogue,
        outH: Int, outW: Int, outC: Int
    ) {
        let (input, inH, inW, inC, kh, kw, g) = (conv.input, conv.inH, conv.inW, conv.inC, conv.kh, conv.kw, conv.g)
        let out = epilogue.output
        let taps = kh * kw
        let threeByThree = kh == 3 && kw == 3 && g.sh == g.sw && (g.sh == 1 || g.sh == 2) && outW >= 6
        let cp = (inC + 15) / 16 * 16
        var packed = [Float](repeating: 0, count: taps * cp)
        for t in 0..<taps {
            for ch in 0..<inC { packed[t * cp + ch] = conv.weights[t * inC + ch] }
        }
        let w = constantPool.store(packed)
        let plainBias = constantPool.store(conv.bias + [Float](repeating: 0, count: cp - inC))
        let (act, alpha) = cActivation(
            epilogue.activation,
            prelu: epilogue.prelu.map {
                constantPool.store(
                    $0
                        + [Float](
                            repeating: 0, count: cp - inC))
            })
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    if threeByThree, !avx512GEMM {
                        return {
                            fc_dw3x3_avx2(
                                src, inH, inW, inC, g.sh, g.padTop, g.padLeft, outH, outW, w, cp,
                                plainBias, act, alpha, dst)
                        }
                    }
                    if !avx512GEMM {
                        return {
                            fc_dw_avx2(
                                src, inH, inW, inC, kh, kw, g.sh, g.sw, g.padTop, g.padLeft, outH, outW, w,
                                cp, plainBias, act, alpha, dst)
                        }
                    }
                    if threeByThree {
                        return {
                            fc_dw3x3_avx512(
                                src, inH, inW, inC, g.sh, g.padTop, g.padLeft, outH, outW, w, cp,
                                plainBias, act, alpha, dst)
                        }
                    }
                    return {
                        fc_dw_avx512(
                            src, inH, inW, inC, kh, kw, g.sh, g.sw, g.padTop, g.padLeft, outH, outW, w, cp,
                            plainBias, act, alpha, dst)
                    }
                }))
        label("DW \(kh)x\(kw)/\(g.sh) \(inH)x\(inW)x\(inC)")
        cost("DW", flops: 2 * outH * outW * outC * taps, constants: conv.weights.count + conv.bias.count)
        if !threeByThree {
            // The weights the step reads, for the prefetch (named for the general kernel only, as before).
            plans[plans.count - 1].weights = UnsafeRawPointer(w)
            plans[plans.count - 1].weightBytes = packed.count * 4
        }
    }

    /// The Swift depthwise kernel: weights packed per 8-channel block as [kh·kw][8].
    private mutating func planDepthwiseSwift(
        _ conv: ConvolutionOp, output out: Int, blocks: [ChannelBlock],
        bias: UnsafePointer<Float>, activation: KernelActivation,
        outH: Int, outW: Int, outC: Int
    ) {
        let (input, inC, g) = (conv.input, conv.inC, conv.g)
        let taps = conv.kh * conv.kw
        var packed = [Float](repeating: 0, count: blocks.count * taps * 8)
        for (b, block) in blocks.enumerated() {
            for t in 0..<taps {
                for lane in 0..<block.lanes {
                    packed[(b * taps + t) * 8 + lane] = conv.weights[t * inC + block.start + lane]
                }
            }
        }
        let w = constantPool.store(packed)
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return {
                        FaceCapCore.depthwise(
                            input: src, channels: inC, g: g, blocks: blocks, weights: w,
                            bias: bias, activation: activation, output: dst)
                    }
                }))
        label("DW \(conv.kh)x\(conv.kw)/\(g.sh) \(conv.inH)x\(conv.inW)x\(inC)")
        cost("DW", flops: 2 * outH * outW * outC * taps, constants: conv.weights.count + conv.bias.count)
    }

    // MARK: GEMM

    /// The weights packed for `gemm`: CKernels' panels of plain, side-by-side channels (AVX-512, or AVX2 where
    /// AVX-512 is not used) — 32 wide, the last one 16, 24 or 32 wide with only its real channels stored — so
    /// every panel runs in CKernels with the residual and activation fused into the store; else the Swift
    /// kernels' panels of 8-channel blocks.
    private mutating func packGemm(
        _ conv: ConvolutionOp, blocks: [ChannelBlock], bias biasPointer: UnsafePointer<Float>,
        outC: Int
    ) -> (gemm: PackedGemm, floats: Int) {
        let k = conv.kh * conv.kw * conv.inC
        let weights = conv.weights
        var panels: [(block: Int, blocks: Int, offset: Int)] = []
        var packed: [Float] = []
        var wide: [WidePanel] = []
        var gemmBias = biasPointer
        if avx512GEMM || avx2CKernels {
            var start = 0
            while start < outC {
                let left = outC - start
                let width = left > 24 ? 32 : left > 16 ? 24 : 16
                wide.append(WidePanel(start: start, width: width, valid: min(width, left), offset: packed.count))
                for kk in 0..<k {
                    for j in 0..<width {
                        packed.append(start + j < outC ? weights[(start + j) * k + kk] : 0)
                    }
                }
                start += width
            }
            gemmBias = constantPool.store(conv.bias + [Float](repeating: 0, count: 32))
            if avx512GEMM { wide = pairedPanels(wide, k: k) }
        } else {
            var b = 0
            for width in panelWidths(blocks: blocks.count) {
                panels.append((b, width, packed.count))
                for kk in 0..<k {
                    for j in 0..<width {
                        let block = blocks[b + j]
                        for lane in 0..<8 {
                            packed.append(lane < block.lanes ? weights[(block.start + lane) * k + kk] : 0)
                        }
                    }
                }
                b += width
            }
        }
        return (
            PackedGemm(
                panels: panels, wide: wide, blocks: blocks, weights: constantPool.store(packed),
                bias: gemmBias, k: k, n: outC), packed.count
        )
    }

    /// A convolution through `gemm`: a 1×1 one is one GEMM over the pixels; a windowed one reads each output
    /// row's patches in place (kh runs of kw·C floats one input row apart, no im2col copy). With SAME padding it
    /// reads them from a copy of the input inside a zero border, made at load and kept by the interpreter: only
    /// the interior is rewritten per run, and every pixel — the border ones too — then takes the same multi-row
    /// kernels (a border pixel's outside taps multiply zeros, as an im2col gather's zeros did).
    private mutating func planGemmConvolution(
        _ conv: ConvolutionOp, _ epilogue: ConvolutionEpilogue,
        packed gemmWeights: PackedGemm, activation: KernelActivation,
        outH: Int, outW: Int, outC: Int
    ) {
        let (input, inH, inW, inC, kh, kw, g) = (conv.input, conv.inH, conv.inW, conv.inC, conv.kh, conv.kw, conv.g)
        let out = epilogue.output, k = gemmWeights.k
        let pointwise = kh == 1 && kw == 1 && g.sh == 1 && g.sw == 1 && g.padTop == 0 && g.padLeft == 0
        let m = outH * outW
        let paddedH = max(inH + g.padTop, outH > 0 ? (outH - 1) * g.sh + kh : 0)
        let paddedW = max(inW + g.padLeft, outW > 0 ? (outW - 1) * g.sw + kw : 0)
        let padded =
            !pointwise && (paddedH != inH || paddedW != inW)
            ? constantPool.scratch(paddedH * paddedW * inC) : nil
        let residual = epilogue.residual, residualChannels = epilogue.residualChannels
        let reads = [input] + (residual.map { [$0] } ?? [])
        plans.append(
            StepPlan(
                reads: reads, writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    let residualValue = residual.map {
                        Residual(
                            pointer: address($0), stride: residualChannels,
                            channels: residualChannels)
                    }
                    if pointwise {
                        return {
                            gemm(
                                a: src, lda: k, m: m, packed: gemmWeights, c: dst, ldc: outC, residual: residualValue,
                                activation: activation)
                        }
                    }
                    let rowFloats = paddedW * inC
                    let direct = Segments(count: kh, length: kw * inC, stride: rowFloats)
                    // Offsets into tensors and buffers planned (and allocated) at load: they fit in an Int, so they
                    // wrap rather than check (see Kernels.swift). Window rows lie inside the (padded) input: paddedH
                    // and paddedW cover the last output's window.
                    return {
                        var image = UnsafePointer(src)
                        if let padded {
                            for y in 0..<inH {
                                (padded + ((y &+ g.padTop) &* paddedW &+ g.padLeft) &* inC)
                                    .update(from: src + y &* inW &* inC, count: inW &* inC)
                            }
                            image = UnsafePointer(padded)
                        }
                        for oy in 0..<outH {
                            var rowResidual = residualValue
                            rowResidual?.pointer += oy &* outW &* residualChannels
                            gemm(
                                a: image + oy &* g.sh &* rowFloats, lda: g.sw &* inC, m: outW, segments: direct,
                                packed: gemmWeights, c: dst + oy &* outW &* outC, ldc: outC, residual: rowResidual,
                                activation: activation)
                        }
                    }
                }))
        if pointwise || (padded == nil && m <= 16) {
            planBatchedConvolution(
                conv, epilogue, packed: gemmWeights, activation: activation, outH: outH,
                outW: outW, outC: outC, pointwise: pointwise)
        }
        label("CONV \(kh)x\(kw)/\(g.sh) \(inH)x\(inW)x\(inC)->\(outC)\(residual != nil ? "+res" : "")")
        cost(
            pointwise ? "CONV 1x1" : "CONV kxk", flops: 2 * m * outC * k,
            constants: conv.weights.count + conv.bias.count)
    }

    /// Several images in one step (the last plan's `makeBatched`). A 1×1 convolution is one GEMM over all their
    /// pixels (their tensors lie one after the other), so each weight panel is read once for all of them. A
    /// small windowed convolution without padding (the iris model's 2×2/2 at 4×4 and 2×2 at 2×2): one or two
    /// pixels per output row would each take a single-row kernel, bound by the multiply-add latency. Its patches
    /// (kh runs of kw·C floats, in the order the packed weights run) are copied into one matrix instead, m ·
    /// images rows of k, and go through one GEMM with the multi-row kernels: the same multiply-adds per output
    /// in the same order. The copy buffer is sized for `batch` images at load; patch rows lie inside the input
    /// (the window fits: no padding).
    private mutating func planBatchedConvolution(
        _ conv: ConvolutionOp, _ epilogue: ConvolutionEpilogue,
        packed gemmWeights: PackedGemm, activation: KernelActivation,
        outH: Int, outW: Int, outC: Int, pointwise: Bool
    ) {
        let (input, inH, inW, inC, kh, kw, g) = (conv.input, conv.inH, conv.inW, conv.inC, conv.kh, conv.kw, conv.g)
        let out = epilogue.output, k = gemmWeights.k, m = outH * outW
        let residual = epilogue.residual, residualChannels = epilogue.residualChannels
        if pointwise {
            plans[plans.count - 1].makeBatched = { address in
                let src = address(input), dst = address(out)
                let residualValue = residual.map {
                    Residual(
                        pointer: address($0), stride: residualChannels,
                        channels: residualChannels)
                }
                return { n in
                    gemm(
                        a: src, lda: k, m: m &* n, packed: gemmWeights, c: dst, ldc: outC, residual: residualValue,
                        activation: activation)
                }
            }
            return
        }
        let patches = constantPool.scratch(m * batch * k)
        let inFloats = inH * inW * inC
        plans[plans.count - 1].makeBatched = { address in
            let src = address(input), dst = address(out)
            let residualValue = residual.map {
                Residual(
                    pointer: address($0), stride: residualChannels,
                    channels: residualChannels)
            }
            let rowFloats = inW * inC, runFloats = kw * inC
            return { n in
                var row = patches
                for image in 0..<n {
                    let base = src + image &* inFloats
                    for oy in 0..<outH {
                        for ox in 0..<outW {
                            for ky in 0..<kh {
                                (row + ky &* runFloats).update(
                                    from: base + ((oy &* g.sh &+ ky) &* rowFloats &+ ox &* g.sw &* inC),
                                    count: runFloats)
                            }
                            row += k
                        }
                    }
                }
                gemm(
                    a: patches, lda: k, m: m &* n, packed: gemmWeights, c: dst, ldc: outC,
                    residual: residualValue, activation: activation)
            }
        }
    }
}
