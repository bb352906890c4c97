internal import CKernels

#if canImport(Glibc)
import Glibc
#endif

// The small operators of a plan: pooling, ADD, activations, PAD and CONCATENATION (the convolutions are in
// Interpreter+Convolution.swift, the classifier head in Interpreter+Dense.swift).

extension PlanBuilder {
    mutating func planPool(_ index: Int, _ op: TFLiteOperator) throws {
        guard case .pool(let window) = op.options, let input = op.inputs.first else {
            throw PlanError(text: "MAX_POOL_2D (operator \(index)) has no pooling options")
        }
        let (inH, inW, c) = try nhwc(input)
        let (outH, outW, outC) = try nhwc(op.outputs[0])
        let g = WindowGeometry(
            inH: inH, inW: inW, kh: window.filterH, kw: window.filterW, sh: window.strideH,
            sw: window.strideW, padding: window.padding)
        guard g.outH == outH, g.outW == outW, outC == c else {
            throw PlanError(text: "MAX_POOL_2D (operator \(index)) has an inconsistent output shape")
        }
        let blocks = channelBlocks(c)
        let activation = KernelActivation(window.activation)
        let out = op.outputs[0]
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return {
                        maxPool(input: src, channels: c, g: g, blocks: blocks, activation: activation, output: dst)
                    }
                }))
        label("POOL \(inH)x\(inW)x\(c)")
        // The window clipped to the input: a model's filter size is any int32, the input at most 2^26 floats.
        cost("POOL", flops: outH * outW * c * min(g.kh, inH) * min(g.kw, inW))
    }

    mutating func planAdd(_ index: Int, _ op: TFLiteOperator) throws {
        guard op.inputs.count == 2, case .add(let activation) = op.options else {
            throw PlanError(text: "ADD (operator \(index)) needs two inputs")
        }
        let a = op.inputs[0], b = op.inputs[1], out = op.outputs[0]
        guard shape(a) == shape(b), shape(a) == shape(out), !constantValues.has(a), !constantValues.has(b) else {
            throw PlanError(text: "ADD (operator \(index)) with broadcasting or constants is not supported")
        }
        let count = model.tensors[out].elementCount
        plans.append(
            StepPlan(
                reads: [a, b], writes: [out],
                make: { address in
                    let x = address(a), y = address(b), dst = address(out)
                    return { addElementwise(x, y, count: count, activation: activation, output: dst) }
                }))
        cost("other", flops: count)
    }

    mutating func planActivation(_ index: Int, _ op: TFLiteOperator) throws {
        guard let input = op.inputs.first, !constantValues.has(input),
            model.tensors[input].elementCount == model.tensors[op.outputs[0]].elementCount
        else {
            throw PlanError(text: "operator \(index) needs an activation input of its output's size")
        }
        let out = op.outputs[0]
        let s = shape(input)
        let channels = s.last ?? 1
        let pixels = model.tensors[input].elementCount / max(channels, 1)
        var alphaPointer: UnsafePointer<Float>?
        if op.code == .prelu {
            guard op.inputs.count == 2, let alpha = constantValues[op.inputs[1]], alpha.count == channels else {
                throw PlanError(text: "PRELU (operator \(index)) needs one constant slope per channel")
            }
            alphaPointer = constantPool.store(alpha)
        }
        let alpha = alphaPointer
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return { activationLayer(src, pixels: pixels, channels: channels, alpha: alpha, output: dst) }
                }))
        cost("other", flops: pixels * channels)
    }

    mutating func planPad(_ index: Int, _ op: TFLiteOperator) throws {
        guard op.inputs.count == 2, let paddings = int32Values[op.inputs[1]] else {
            throw PlanError(text: "PAD (operator \(index)) needs constant int32 paddings")
        }
        let input = op.inputs[0], out = op.outputs[0]
        let (h, w, c) = try nhwc(input)
        let (outH, outW, outC) = try nhwc(out)
        // Summed as Int: two Int32 paddings near Int32.max overflowed (a fuzzed model).
        let pad = paddings.map(Int.init)
        guard pad.count == 8, pad.allSatisfy({ $0 >= 0 }), pad[0] == 0, pad[1] == 0,
            outH == h + pad[2] + pad[3], outW == w + pad[4] + pad[5], outC == c + pad[6] + pad[7]
        else {
            throw PlanError(text: "PAD (operator \(index)) has paddings \(paddings) that do not match its shapes")
        }
        let top = pad[2], left = pad[4], front = pad[6]
        let total = outH * outW * outC
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return {
                        dst.update(repeating: 0, count: total)
                        for y in 0..<h {
                            for x in 0..<w {
                                let target = dst + (((y &+ top) &* outW &+ x &+ left) &* outC &+ front)
                                target.update(from: src + (y &* w &+ x) &* c, count: c)
                            }
                        }
                    }
                }))
    }

    mutating func planConcatenation(_ index: Int, _ op: TFLiteOperator) throws {
        guard case .concatenation(var axis, let activation) = op.options, activation == .none else {
            throw PlanError(text: "CONCATENATION (operator \(index)) with a fused activation is not supported")
        }
        let out = op.outputs[0]
        let outShape = shape(out)
        if axis < 0 { axis += outShape.count }
        guard axis >= 0, axis < outShape.count else {
            throw PlanError(text: "CONCATENATION (operator \(index)) has axis \(axis) for rank \(outShape.count)")
        }
        let outer = outShape[..<axis].reduce(1, *)
        var chunks: [Int] = []
        for input in op.inputs {
            let s = shape(input)
            guard s.count == outShape.count, !constantValues.has(input),
                s.enumerated().allSatisfy({ $0.offset == axis || $0.element == outShape[$0.offset] })
            else {
                throw PlanError(text: "CONCATENATION (operator \(index)) has inputs of mismatched shapes")
            }
            chunks.append(s[axis...].reduce(1, *))
        }
        guard chunks.reduce(0, +) * outer == model.tensors[out].elementCount else {
            throw PlanError(text: "CONCATENATION (operator \(index)) output size does not add up")
        }
        let inputs = op.inputs
        let outChunk = chunks.reduce(0, +)
        plans.append(
            StepPlan(
                reads: inputs, writes: [out],
                make: { address in
                    let sources = inputs.map { UnsafePointer(address($0)) }, dst = address(out)
                    return {
                        for o in 0..<outer {
                            var position = o * outChunk
                            for (source, chunk) in zip(sources, chunks) {
                                (dst + position).update(from: source + o * chunk, count: chunk)
                                position += chunk
                            }
                        }
                    }
                }))
    }
}
