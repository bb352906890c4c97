// RESIZE_BILINEAR, as MediaPipe's palm detector upsamples its coarse feature maps (6×6 → 12×12 → 24×24, 256
// channels, half-pixel centres). The arithmetic is TFLite's reference kernel (reference_ops.h
// ResizeBilinear): the source coordinate of output pixel y is y · scale, or (y + 0.5) · scale − 0.5 with
// half-pixel centres; the lower neighbour is its floor clamped at 0, the upper its ceiling clamped at the last
// row, and the weights are the distances to the lower neighbour (so a coordinate below 0 weighs one pixel).

extension PlanBuilder {
    /// Plans RESIZE_BILINEAR (operator `index`): an NHWC input, a constant int32 size [height, width] that
    /// matches the output, the same channels.
    mutating func planResizeBilinear(_ index: Int, _ op: TFLiteOperator) throws {
        guard op.inputs.count == 2, case .resize(let alignCorners, let halfPixelCenters) = op.options,
            let size = int32Values[op.inputs[1]], size.count == 2
        else {
            throw PlanError(text: "RESIZE_BILINEAR (operator \(index)) needs a constant int32 size [height, width]")
        }
        let input = op.inputs[0], out = op.outputs[0]
        guard !constantValues.has(input) else {
            throw PlanError(text: "RESIZE_BILINEAR (operator \(index)) of a constant tensor is not supported")
        }
        let (inH, inW, c) = try nhwc(input)
        let (outH, outW, outC) = try nhwc(out)
        guard Int(size[0]) == outH, Int(size[1]) == outW, outC == c else {
            throw PlanError(
                text: "RESIZE_BILINEAR (operator \(index)) resizes \(shape(input)) to \(size), "
                    + "its output is \(shape(out))")
        }
        guard !(alignCorners && halfPixelCenters) else {
            throw PlanError(
                text: "RESIZE_BILINEAR (operator \(index)) sets both align_corners and "
                    + "half_pixel_centers")
        }
        let rows = ResizeAxis(input: inH, output: outH, alignCorners: alignCorners, halfPixel: halfPixelCenters)
        let columns = ResizeAxis(input: inW, output: outW, alignCorners: alignCorners, halfPixel: halfPixelCenters)
        plans.append(
            StepPlan(
                reads: [input], writes: [out],
                make: { address in
                    let src = address(input), dst = address(out)
                    return { resizeBilinear(src, width: inW, channels: c, rows: rows, columns: columns, output: dst) }
                }))
        label("RESIZE_BILINEAR \(inH)x\(inW)x\(c)->\(outH)x\(outW)")
        cost("other", flops: outH * outW * c * 8)
    }
}

/// The source rows (or columns) of every output row of a bilinear resize: lower and upper neighbour and the
/// weight of the upper one.
struct ResizeAxis {
    var lower: [Int] = []
    var upper: [Int] = []
    var weight: [Float] = []

    init(input: Int, output: Int, alignCorners: Bool, halfPixel: Bool) {
        let scale = alignCorners && output > 1 ? Float(input - 1) / Float(output - 1) : Float(input) / Float(output)
        for o in 0..<output {
            let source = halfPixel ? (Float(o) + 0.5) * scale - 0.5 : Float(o) * scale
            let low = max(Int(source.rounded(.down)), 0)
            lower.append(low)
            upper.append(min(Int(source.rounded(.up)), input - 1))
            weight.append(source - Float(low))
        }
    }
}

/// `output[y, x, c]` = the four neighbours of (rows[y], columns[x]) in `input` (H × `width` × `channels`),
/// weighted as TFLite's reference kernel weighs them.
func resizeBilinear(
    _ input: UnsafePointer<Float>, width: Int, channels: Int, rows: ResizeAxis, columns: ResizeAxis,
    output: UnsafeMutablePointer<Float>
) {
    var dst = output
    for y in rows.lower.indices {
        let dy = rows.weight[y]
        let top = input + rows.lower[y] &* width &* channels, bottom = input + rows.upper[y] &* width &* channels
        for x in columns.lower.indices {
            let dx = columns.weight[x]
            let a = top + columns.lower[x] &* channels, b = top + columns.upper[x] &* channels
            let p = bottom + columns.lower[x] &* channels, q = bottom + columns.upper[x] &* channels
            let wa = (1 - dy) * (1 - dx), wp = dy * (1 - dx), wb = (1 - dy) * dx, wq = dy * dx
            for ch in 0..<channels {
                dst[ch] = a[ch] * wa + p[ch] * wp + b[ch] * wb + q[ch] * wq
            }
            dst += channels
        }
    }
}
