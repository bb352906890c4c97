// Max pooling, and the elementwise ops (add, activation layers). Layout and index arithmetic as in
// Kernels.swift's header.

/// Max pooling; cells outside the input are ignored (TFLite treats padding as −∞).
func maxPool(
    input: UnsafePointer<Float>, channels: Int, g: WindowGeometry, blocks: [ChannelBlock],
    activation: KernelActivation, output: UnsafeMutablePointer<Float>
) {
    if g.kh == 2, g.kw == 2, g.sh == 2, g.sw == 2, g.padTop == 0, g.padLeft == 0, 2 * g.outH <= g.inH,
        2 * g.outW <= g.inW, channels >= 8, case .none = activation
    {
        maxPool2x2(input: input, channels: channels, g: g, output: output)
        return
    }
    for oy in 0..<g.outH {
        let iy0 = oy * g.sh - g.padTop
        let kyLo = max(0, -iy0), kyHi = max(kyLo, min(g.kh, g.inH - iy0))
        for ox in 0..<g.outW {
            let ix0 = ox * g.sw - g.padLeft
            let kxLo = max(0, -ix0), kxHi = max(kxLo, min(g.kw, g.inW - ix0))
            let out = output + (oy &* g.outW &+ ox) &* channels
            for (b, block) in blocks.enumerated() {
                var acc = V8(repeating: -.infinity)
                for ky in kyLo..<kyHi {
                    for kx in kxLo..<kxHi {
                        let p = input + (((iy0 &+ ky) &* g.inW &+ ix0 &+ kx) &* channels &+ block.start)
                        acc = max8(acc, block.lanes == 8 ? load8(p) : loadPartial(p, block.lanes))
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

/// The 2×2/2 pooling of these models, every window inside the input.
private func maxPool2x2(
    input: UnsafePointer<Float>, channels c: Int, g: WindowGeometry,
    output: UnsafeMutablePointer<Float>
) {
    let rowStride = g.inW * c
    for oy in 0..<g.outH {
        var out = output + oy &* g.outW &* c
        var p = input + 2 &* oy &* rowStride
        for _ in 0..<g.outW {
            var ch = 0
            while true {
                let start = min(ch, c &- 8)
                let top = max8(load8(p + start), load8(p + (c &+ start)))
                let bottom = max8(load8(p + (rowStride &+ start)), load8(p + (rowStride &+ c &+ start)))
                store8(max8(top, bottom), out + start)
                ch &+= 8
                if ch >= c { break }
            }
            p += 2 &* c
            out += c
        }
    }
}

/// out = activation(a + b) elementwise (same shapes).
func addElementwise(
    _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
    activation: TFLiteActivation, output: UnsafeMutablePointer<Float>
) {
    let kernelActivation = KernelActivation(activation)
    var i = 0
    while i &+ 8 <= count {
        store8(activate(load8(a + i) + load8(b + i), kernelActivation, 0), output + i)
        i &+= 8
    }
    while i < count {
        let v = a[i] + b[i]
        output[i] = activate(V8(repeating: v), kernelActivation, 0)[0]
        i &+= 1
    }
}

/// ReLU or per-channel PReLU over `pixels × channels` values (slopes unpacked, one per channel).
func activationLayer(
    _ input: UnsafePointer<Float>, pixels: Int, channels: Int, alpha: UnsafePointer<Float>?,
    output: UnsafeMutablePointer<Float>
) {
    for p in 0..<pixels {
        let src = input + p &* channels, dst = output + p &* channels
        for ch in 0..<channels {
            let v = src[ch]
            if let alpha { dst[ch] = v >= 0 ? v : v * alpha[ch] } else { dst[ch] = max(v, 0) }
        }
    }
}
