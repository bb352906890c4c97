// Depthwise convolution and the window geometry it shares with pooling. Layout and index arithmetic as in
// Kernels.swift's header.

/// Spatial geometry of a windowed op: input size, output size, kernel, strides and leading padding.
struct WindowGeometry {
    var inH: Int, inW: Int, outH: Int, outW: Int
    var kh: Int, kw: Int, sh: Int, sw: Int
    var padTop: Int, padLeft: Int

    /// TFLite's rule (kernels/padding.h): SAME → out = ceil(in/stride), total = max((out−1)·s + k − in, 0),
    /// before = ⌊total/2⌋ and the odd pixel goes after; VALID → out = (in − k)/s + 1, no padding.
    init(inH: Int, inW: Int, kh: Int, kw: Int, sh: Int, sw: Int, padding: TFLitePadding) {
        self.inH = inH; self.inW = inW; self.kh = kh; self.kw = kw; self.sh = sh; self.sw = sw
        switch padding {
        case .same:
            outH = (inH + sh - 1) / sh
            outW = (inW + sw - 1) / sw
            padTop = max((outH - 1) * sh + kh - inH, 0) / 2
            padLeft = max((outW - 1) * sw + kw - inW, 0) / 2
        case .valid:
            outH = inH >= kh ? (inH - kh) / sh + 1 : 0
            outW = inW >= kw ? (inW - kw) / sw + 1 : 0
            padTop = 0
            padLeft = 0
        }
    }
}

/// Depthwise convolution (multiplier 1). Weights packed per block as [kh·kw][8], bias [8] per block.
func depthwise(
    input: UnsafePointer<Float>, channels: Int, g: WindowGeometry, blocks: [ChannelBlock],
    weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, activation: KernelActivation,
    output: UnsafeMutablePointer<Float>
) {
    let taps = g.kh * g.kw
    if g.kh == 3, g.kw == 3, channels >= 8 {
        depthwise3x3(
            input: input, channels: channels, g: g, blocks: blocks, weights: weights, bias: bias,
            activation: activation, output: output)
        return
    }
    for oy in 0..<g.outH {
        let iy0 = oy * g.sh - g.padTop
        let kyLo = max(0, -iy0), kyHi = min(g.kh, g.inH - iy0)
        for ox in 0..<g.outW {
            let ix0 = ox * g.sw - g.padLeft
            let kxLo = max(0, -ix0), kxHi = min(g.kw, g.inW - ix0)
            let out = output + (oy &* g.outW &+ ox) &* channels
            for (b, block) in blocks.enumerated() {
                var acc = load8(bias + b &* 8)
                let wb = weights + b &* taps &* 8
                for ky in kyLo..<max(kyLo, kyHi) {
                    for kx in kxLo..<max(kxLo, kxHi) {
                        let p = input + (((iy0 &+ ky) &* g.inW &+ ix0 &+ kx) &* channels &+ block.start)
                        let x = block.lanes == 8 ? load8(p) : loadPartial(p, block.lanes)
                        acc.addProduct(x, load8(wb + (ky &* g.kw &+ kx) &* 8))
                    }
                }
                acc = activate(acc, activation, b)
                if block.lanes == 8 {
                    store8(acc, out + block.start)
                } else {
                    storePartial(acc, out + block.start, block.lanes)
                }
            }
        }
    }
}

/// The common 3×3 case: weights of a block held in registers, interior pixels in a tight loop without
/// bounds checks, the (at most two) border columns and rows through the checked path.
private func depthwise3x3(
    input: UnsafePointer<Float>, channels: Int, g: WindowGeometry, blocks: [ChannelBlock],
    weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, activation: KernelActivation,
    output: UnsafeMutablePointer<Float>
) {
    let c = channels
    let rowStride = g.inW * c
    let blockCount = (c + 7) / 8
    let noActivation: Bool
    if case .none = activation { noActivation = true } else { noActivation = false }
    // Output columns whose 3 input columns are all inside the image.
    let oxLo = min(g.outW, (g.padLeft + g.sw - 1) / g.sw)
    var oxHi = g.outW
    while oxHi > oxLo, (oxHi - 1) * g.sw - g.padLeft + 2 >= g.inW { oxHi -= 1 }
    let step = g.sw * c

    @inline(__always) func border(_ oy: Int, _ ox: Int, _ b: Int, _ start: Int) {
        let iy0 = oy &* g.sh &- g.padTop, ix0 = ox &* g.sw &- g.padLeft
        let wb = weights + b &* 72
        var acc = load8(bias + b &* 8)
        for ky in 0..<3 {
            let iy = iy0 &+ ky
            if iy < 0 || iy >= g.inH { continue }
            for kx in 0..<3 {
                let ix = ix0 &+ kx
                if ix < 0 || ix >= g.inW { continue }
                acc.addProduct(load8(input + ((iy &* g.inW &+ ix) &* c &+ start)), load8(wb + (ky &* 3 &+ kx) &* 8))
            }
        }
        store8(noActivation ? acc : activate(acc, activation, b), output + ((oy &* g.outW &+ ox) &* c &+ start))
    }

    for oy in 0..<g.outH {
        let iy0 = oy * g.sh - g.padTop
        let rowInside = iy0 >= 0 && iy0 + 2 < g.inH
        for b in 0..<blockCount {
            let start = min(b * 8, c - 8)
            if !rowInside {
                for ox in 0..<g.outW { border(oy, ox, b, start) }
                continue
            }
            for ox in 0..<oxLo { border(oy, ox, b, start) }
            // Weights are re-read from L1 inside the loops: held in nine named SIMD8 values across the loop,
            // the compiler splits them into 128-bit halves and the kernel runs at half width.
            let wb = weights + b &* 72
            let bv = load8(bias + b &* 8)
            var p = input + (iy0 &* rowStride &+ (oxLo &* g.sw &- g.padLeft) &* c &+ start)
            var out = output + ((oy &* g.outW &+ oxLo) &* c &+ start)
            var n = oxHi - oxLo
            if g.sw == 1 {
                // Four outputs per step share six input columns per kernel row: 18 loads for 36 FMAs.
                while n >= 4 {
                    depthwise3x3Four(
                        p, rowStride: rowStride, c: c, weights: wb, bias: bv, activation: activation,
                        noActivation: noActivation, block: b, output: out)
                    p += 4 &* c
                    out += 4 &* c
                    n &-= 4
                }
            }
            while n > 0 {
                var acc = bv
                for ky in 0..<3 {
                    let row = p + ky &* rowStride, kw = wb + ky &* 24
                    acc.addProduct(load8(row), load8(kw))
                    acc.addProduct(load8(row + c), load8(kw + 8))
                    acc.addProduct(load8(row + 2 &* c), load8(kw + 16))
                }
                store8(noActivation ? acc : activate(acc, activation, b), out)
                p += step
                out += c
                n &-= 1
            }
            for ox in oxHi..<g.outW { border(oy, ox, b, start) }
        }
    }
}

/// Four neighbouring outputs of one 3×3 depthwise block at stride 1 (`depthwise3x3`'s interior): `p` is the
/// first one's top-left input pixel, `output` its output pixel.
@inline(__always)
private func depthwise3x3Four(
    _ p: UnsafePointer<Float>, rowStride: Int, c: Int, weights wb: UnsafePointer<Float>,
    bias bv: V8, activation: KernelActivation, noActivation: Bool, block b: Int,
    output out: UnsafeMutablePointer<Float>
) {
    var a0 = bv, a1 = bv, a2 = bv, a3 = bv
    for ky in 0..<3 {
        let row = p + ky &* rowStride
        let x0 = load8(row), x1 = load8(row + c), x2 = load8(row + 2 &* c)
        let x3 = load8(row + 3 &* c), x4 = load8(row + 4 &* c), x5 = load8(row + 5 &* c)
        let kw = wb + ky &* 24
        let k0 = load8(kw), k1 = load8(kw + 8), k2 = load8(kw + 16)
        a0.addProduct(x0, k0); a1.addProduct(x1, k0); a2.addProduct(x2, k0); a3.addProduct(x3, k0)
        a0.addProduct(x1, k1); a1.addProduct(x2, k1); a2.addProduct(x3, k1); a3.addProduct(x4, k1)
        a0.addProduct(x2, k2); a1.addProduct(x3, k2); a2.addProduct(x4, k2); a3.addProduct(x5, k2)
    }
    if noActivation {
        store8(a0, out); store8(a1, out + c); store8(a2, out + 2 &* c); store8(a3, out + 3 &* c)
    } else {
        store8(activate(a0, activation, b), out)
        store8(activate(a1, activation, b), out + c)
        store8(activate(a2, activation, b), out + 2 &* c)
        store8(activate(a3, activation, b), out + 3 &* c)
    }
}
