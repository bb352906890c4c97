internal import CCurses

/// Appends `value` in decimal (the encoders' numbers: no String per number in the per-frame loop).
@inline(__always)
func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 10 {
        out.append(UInt8(0x30 + value))
        return
    }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var n = value, count = 0
    withUnsafeMutableBytes(of: &digits) { d in
        while n > 0 && count < 10 {
            d[count] = UInt8(0x30 + n % 10)
            n /= 10
            count += 1
        }
        for k in stride(from: count - 1, through: 0, by: -1) { out.append(d[k]) }
    }
}

/// Sixel images from RGB pixels: a fixed palette of 6 × 7 × 6 levels (252 colour registers, only those
/// used are defined) reached through a 4×4 ordered dither, so a still picture encodes to the same bytes
/// frame after frame; each six-row band sends, per colour present, one run-length coded row of sixels.
struct SixelEncoder {
    static let levels = SIMD3<Int>(6, 7, 6)
    static let colourCount = 6 * 7 * 6
    /// Bayer 4×4 thresholds, (k + 0.5) / 16.
    static let bayer: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { (Float($0) + 0.5) / 16 }

    private var indices: [UInt8] = []
    private var bits: [UInt8] = []
    private var inBand = [Bool](repeating: false, count: SixelEncoder.colourCount)
    private var used = [Bool](repeating: false, count: SixelEncoder.colourCount)
    private var bandColours: [Int] = []

    /// The register for `rgb` at pixel (x, y): the dithered level of each channel.
    @inline(__always)
    static func register(_ r: UInt8, _ g: UInt8, _ b: UInt8, x: Int, y: Int) -> Int {
        let t = bayer[(y & 3) * 4 + (x & 3)]
        @inline(__always) func level(_ c: UInt8, _ n: Int) -> Int { min(n - 1, Int(Float(c) * Float(n - 1) / 255 + t)) }
        return (level(r, 6) * 7 + level(g, 7)) * 6 + level(b, 6)
    }

    /// A register's colour, in sixel's percentages.
    static func percentages(_ register: Int) -> (r: Int, g: Int, b: Int) {
        let r = register / 42, g = register / 6 % 7, b = register % 6
        return ((r * 100 + 2) / 5, (g * 100 + 3) / 6, (b * 100 + 2) / 5)
    }

    /// The image's start: DCS 9 (square pixels); 1 (pixels not painted keep what is there); q; raster
    /// attributes 1:1 and the size; then the colour registers the picture uses.
    private func appendHeader(width: Int, height: Int, into out: inout [UInt8]) {
        out += [0x1B, UInt8(ascii: "P")] + Array("9;1q\"1;1;".utf8)
        appendDecimal(width, to: &out)
        out.append(UInt8(ascii: ";"))
        appendDecimal(height, to: &out)
        for register in 0..<Self.colourCount where used[register] {
            let (r, g, b) = Self.percentages(register)
            out.append(UInt8(ascii: "#"))
            appendDecimal(register, to: &out)
            out += Array(";2;".utf8)
            appendDecimal(r, to: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(g, to: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(b, to: &out)
        }
    }

    /// Appends one sixel image (DCS … ST) of `width × height` pixels to `out`: the `sourceWidth ×
    /// sourceHeight` RGB picture (3 bytes a pixel, row-major) with each pixel repeated `scale` times each way.
    mutating func encode(
        _ rgb: [UInt8], sourceWidth: Int, sourceHeight: Int, scale: Int, width: Int, height: Int,
        into out: inout [UInt8]
    ) {
        precondition(rgb.count >= sourceWidth * sourceHeight * 3 && scale >= 1)
        let width = min(width, sourceWidth * scale), height = min(height, sourceHeight * scale)
        guard width > 0, height > 0 else { return }
        if indices.count < sourceWidth * sourceHeight {
            indices = [UInt8](repeating: 0, count: sourceWidth * sourceHeight)
        }
        if bits.count < Self.colourCount * width { bits = [UInt8](repeating: 0, count: Self.colourCount * width) }
        for i in used.indices { used[i] = false }
        for y in 0..<sourceHeight {
            for x in 0..<sourceWidth {
                let p = (y * sourceWidth + x) * 3
                let register = Self.register(rgb[p], rgb[p + 1], rgb[p + 2], x: x, y: y)
                indices[y * sourceWidth + x] = UInt8(register)
                used[register] = true
            }
        }
        appendHeader(width: width, height: height, into: &out)
        var bandTop = 0
        while bandTop < height {
            bandColours.removeAll(keepingCapacity: true)
            let bandRows = min(6, height - bandTop)
            for x in 0..<width {
                let sx = x / scale
                for r in 0..<bandRows {
                    let c = Int(indices[(bandTop + r) / scale * sourceWidth + sx])
                    if !inBand[c] {
                        inBand[c] = true
                        bandColours.append(c)
                    }
                    bits[c * width + x] |= UInt8(1 << r)
                }
            }
            for (k, c) in bandColours.enumerated() {
                if k > 0 { out.append(UInt8(ascii: "$")) }
                out.append(UInt8(ascii: "#"))
                appendDecimal(c, to: &out)
                let base = c * width
                // The last column this colour paints: nothing after it is sent.
                var last = width - 1
                while last > 0 && bits[base + last] == 0 { last -= 1 }
                var x = 0
                while x <= last {
                    let value = bits[base + x]
                    var run = 1
                    while x + run <= last && bits[base + x + run] == value { run += 1 }
                    let character = value + 63
                    if run > 3 {
                        out.append(UInt8(ascii: "!"))
                        appendDecimal(run, to: &out)
                        out.append(character)
                    } else {
                        for _ in 0..<run { out.append(character) }
                    }
                    x += run
                }
                for i in base..<(base + width) { bits[i] = 0 }
                inBand[c] = false
            }
            bandTop += 6
            if bandTop < height { out.append(UInt8(ascii: "-")) }
        }
        out += [0x1B, UInt8(ascii: "\\")]
    }
}

/// kitty graphics protocol commands: an RGB picture compressed with zlib (`o=z`), in base64, in chunks of
/// at most 4096 payload bytes (the protocol's limit), shown at the cursor stretched over `columns × rows`
/// cells; the cursor does not move (`C=1`) and the terminal sends no reply (`q=2`).
struct KittyEncoder {
    static let chunkLimit = 4096
    private var packed: [UInt8] = []
    private var text: [UInt8] = []
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the commands that transmit and place (`a=T`) the `width × height` RGB picture `rgb` as image
    /// `id`, placement 1: sent again with the same id, it replaces the picture in place.
    mutating func encode(
        _ rgb: [UInt8], width: Int, height: Int, id: Int, columns: Int, rows: Int,
        into out: inout [UInt8]
    ) {
        let count = width * height * 3
        precondition(rgb.count >= count)
        let bound = ccurses_deflate_bound(count)
        if packed.count < bound { packed = [UInt8](repeating: 0, count: bound) }
        let packedCount = rgb.withUnsafeBufferPointer { source in
            packed.withUnsafeMutableBufferPointer { target in
                ccurses_deflate(source.baseAddress, count, target.baseAddress, bound, 1)
            }
        }
        text.removeAll(keepingCapacity: true)
        Self.base64(packedCount > 0 ? packed[0..<packedCount] : rgb[0..<count], into: &text)
        var offset = 0
        var first = true
        repeat {
            let end = min(text.count, offset + Self.chunkLimit)
            let more = end < text.count
            out += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
            if first {
                out += Array("a=T,f=24,".utf8)
                if packedCount > 0 { out += Array("o=z,".utf8) }
                out += Array("s=".utf8)
                appendDecimal(width, to: &out)
                out += Array(",v=".utf8)
                appendDecimal(height, to: &out)
                out += Array(",i=".utf8)
                appendDecimal(id, to: &out)
                out += Array(",p=1,c=".utf8)
                appendDecimal(columns, to: &out)
                out += Array(",r=".utf8)
                appendDecimal(rows, to: &out)
                out += Array(",C=1,q=2,".utf8)
            }
            out += Array("m=".utf8)
            out.append(more ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            out.append(UInt8(ascii: ";"))
            out += text[offset..<end]
            out += [0x1B, UInt8(ascii: "\\")]
            offset = end
            first = false
        } while offset < text.count
    }

    /// Deletes image `id` and frees its data.
    static func delete(id: Int) -> [UInt8] {
        var out: [UInt8] = [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")] + Array("a=d,d=I,q=2,i=".utf8)
        appendDecimal(id, to: &out)
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    static func base64(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        let a = alphabet
        var i = bytes.startIndex
        let end = bytes.endIndex
        out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
        while i + 3 <= end {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(a[Int(n >> 18)])
            out.append(a[Int(n >> 12 & 63)])
            out.append(a[Int(n >> 6 & 63)])
            out.append(a[Int(n & 63)])
            i += 3
        }
        let left = end - i
        if left > 0 {
            let n = UInt32(bytes[i]) << 16 | (left == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(a[Int(n >> 18)])
            out.append(a[Int(n >> 12 & 63)])
            out.append(left == 2 ? a[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
    }
}
