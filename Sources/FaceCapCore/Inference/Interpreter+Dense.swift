#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The operators of a classifier head, as MediaPipe's hand-landmark model ends: MEAN over the spatial axes,
// FULLY_CONNECTED layers and LOGISTIC. Each is small (a few thousand to a hundred thousand multiply-adds),
// so plain loops; like every step they allocate nothing in `run()`.

extension PlanBuilder {
    /// Plans MEAN, FULLY_CONNECTED or LOGISTIC (operator `index`).
    mutating func planDense(_ index: Int, _ op: TFLiteOperator) throws {
        switch op.code {
        case .mean: try planMean(index, op)
        case .fullyConnected: try planFullyConnected(index, op)
        default: try planLogistic(index, op)
        }
        label("\(op.code) \(shape(op.inputs[0]))->\(shape(op.outputs[0]))")
    }

    /// MEAN over a run of adjacent axes (e.g. H and W of NHWC: global average pooling), with or without
    /// `keep_dims`. The axes come from a constant int32 tensor; negative axes count from the end.
    private mutating func planMean(_ index: Int, _ op: TFLiteOperator) throws {
        guard op.inputs.count == 2, case .reducer(let keepDims) = op.options,
            let rawAxes = int32Values[op.inputs[1]]
        else {
            throw PlanError(text: "MEAN (operator \(index)) needs constant int32 axes")
        }
        let input = op.inputs[0], out = op.outputs[0]
        let s = shape(input)
        guard constantValues[input] == nil, !s.isEmpty else {
            throw PlanError(text: "MEAN (operator \(index)) of a constant or scalar tensor is not supported")
        }
        let axes = Set(rawAxes.map { Int($0) < 0 ? Int($0) + s.count : Int($0) }).sorted()
        guard let first = axes.first, let last = axes.last, first >= 0, last < s.count,
            last - first + 1 == axes.count
        else {
            throw PlanError(
                text: "MEAN (operator \(index)) over axes \(rawAxes) of shape \(s): only adjacent "
                    + "axes are supported")
        }
        let outer = s[..<first].reduce(1, *), reduced = s[first...last].reduce(1, *)
        let inner = s[(last + 1)...].reduce(1, *)
        let expected =
            keepDims
            ? s.enumerated().map { axes.contains($0.offset) ? 1 : $0.element }
            : s.enumerated().filter { !axes.contains($0.offset) }.map(\.element)
        // A rank-0 result is stored as [] or [1].
        guard shape(out) == expected || (expected.isEmpty && shape(out) == [1]) else {
            throw PlanError(text: "MEAN (operator \(index)) declares output \(shape(out)), the axes give \(expected)")
        }
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return { meanOverAxes(src, outer: outer, reduced: reduced, inner: inner, output: dst) }
                }))
    }

    /// FULLY_CONNECTED with constant weights [units, depth] (TFLite's default format) and an optional
    /// constant bias: every `depth` input values in a row give `units` outputs.
    private mutating func planFullyConnected(_ index: Int, _ op: TFLiteOperator) throws {
        guard op.inputs.count >= 2, case .fullyConnected(let activation, _) = op.options else {
            throw PlanError(text: "FULLY_CONNECTED (operator \(index)) lacks weights")
        }
        let input = op.inputs[0], out = op.outputs[0]
        let wShape = shape(op.inputs[1])
        let weights = try floats(op.inputs[1])
        guard constantValues[input] == nil, wShape.count == 2 else {
            throw PlanError(text: "FULLY_CONNECTED (operator \(index)) needs an activation input and 2-D weights")
        }
        let units = wShape[0], depth = wShape[1]
        let inputCount = model.tensors[input].elementCount
        let rows = inputCount / max(depth, 1)
        guard depth >= 1, rows * depth == inputCount, model.tensors[out].elementCount == rows * units,
            shape(out).last == units
        else {
            throw PlanError(
                text: "FULLY_CONNECTED (operator \(index)) has weights \(wShape) for input "
                    + "\(shape(input)) and output \(shape(out))")
        }
        var bias = [Float](repeating: 0, count: units)
        if op.inputs.count > 2, op.inputs[2] >= 0 {
            bias = try floats(op.inputs[2])
            guard bias.count == units else {
                throw PlanError(text: "FULLY_CONNECTED (operator \(index)) has \(bias.count) biases for \(units) units")
            }
        }
        let w = constantPool.store(weights), b = constantPool.store(bias)
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return {
                        fullyConnected(
                            src, rows: rows, depth: depth, weights: w, bias: b, units: units,
                            activation: activation, output: dst)
                    }
                }))
    }

    /// LOGISTIC (the sigmoid), elementwise.
    private mutating func planLogistic(_ index: Int, _ op: TFLiteOperator) throws {
        guard let input = op.inputs.first, constantValues[input] == nil,
            model.tensors[input].elementCount == model.tensors[op.outputs[0]].elementCount
        else {
            throw PlanError(text: "LOGISTIC (operator \(index)) needs an activation input of its output's size")
        }
        let out = op.outputs[0]
        let count = model.tensors[input].elementCount
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return { logistic(src, count: count, output: dst) }
                }))
    }
}

/// `output[o, i] = mean over r of input[o, r, i]` for an input laid out as outer × reduced × inner.
func meanOverAxes(
    _ input: UnsafePointer<Float>, outer: Int, reduced: Int, inner: Int,
    output: UnsafeMutablePointer<Float>
) {
    let scale = 1 / Float(reduced)
    for o in 0..<outer {
        let dst = output + o &* inner
        let base = input + o &* reduced &* inner
        dst.update(repeating: 0, count: inner)
        for r in 0..<reduced {
            let row = base + r &* inner
            for i in 0..<inner { dst[i] += row[i] }
        }
        for i in 0..<inner { dst[i] *= scale }
    }
}

/// `output[r, u] = activation(bias[u] + Σ_d input[r, d] · weights[u, d])`.
func fullyConnected(
    _ input: UnsafePointer<Float>, rows: Int, depth: Int, weights: UnsafePointer<Float>,
    bias: UnsafePointer<Float>, units: Int, activation: TFLiteActivation,
    output: UnsafeMutablePointer<Float>
) {
    for r in 0..<rows {
        let x = input + r &* depth
        for u in 0..<units {
            let w = weights + u &* depth
            // Eight partial sums, added pairwise at the end (the order LiteRT's kernels use differs; both
            // stay within float32 rounding of the exact sum).
            var lanes = SIMD8<Float>(repeating: 0)
            var d = 0
            while d &+ 8 <= depth {
                lanes +=
                    UnsafeRawPointer(x + d).loadUnaligned(as: SIMD8<Float>.self)
                    * UnsafeRawPointer(w + d).loadUnaligned(as: SIMD8<Float>.self)
                d &+= 8
            }
            var sum = lanes.sum()
            while d < depth {
                sum += x[d] * w[d]
                d &+= 1
            }
            output[r &* units &+ u] = clampActivation(sum + bias[u], activation)
        }
    }
}

/// `output[i] = 1 / (1 + e^(−input[i]))`.
func logistic(_ input: UnsafePointer<Float>, count: Int, output: UnsafeMutablePointer<Float>) {
    for i in 0..<count { output[i] = 1 / (1 + expf(-input[i])) }
}

/// A fused activation on one value.
@inline(__always)
func clampActivation(_ v: Float, _ activation: TFLiteActivation) -> Float {
    switch activation {
    case .none: return v
    case .relu: return max(v, 0)
    case .relu6: return min(max(v, 0), 6)
    case .reluN1To1: return min(max(v, -1), 1)
    }
}
