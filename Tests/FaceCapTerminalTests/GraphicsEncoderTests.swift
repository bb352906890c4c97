import CCurses
import Foundation
import XCTest

@testable import FaceCapTerminal

/// A sixel decoder for the tests: the colour registers an image defines, and each pixel's register (-1 where
/// nothing was painted), read the way a VT340 reads the string.
struct SixelImage {
    var width = 0, height = 0
    var declared: (width: Int, height: Int)?
    var registers: [Int: (Int, Int, Int)] = [:]
    var pixels: [Int: Int] = [:]
    var bands = 0
    var longestBandRows = 0

    subscript(x: Int, y: Int) -> Int { pixels[y << 16 | x] ?? -1 }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count > 4, bytes[0] == 0x1B, bytes[1] == UInt8(ascii: "P"),
            let q = bytes.firstIndex(of: UInt8(ascii: "q")),
            bytes.suffix(2) == [0x1B, UInt8(ascii: "\\")]
        else { throw DecodeError.framing }
        var i = q + 1
        let end = bytes.count - 2
        func number() -> Int {
            var n = 0
            while i < end, (0x30...0x39).contains(bytes[i]) {
                n = n * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            return n
        }
        var x = 0, top = 0, colour = 0
        var maxRow = 0
        while i < end {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                _ = number(); i += 1; _ = number(); i += 1
                let w = number(); i += 1
                let h = number()
                declared = (w, h)
            case UInt8(ascii: "#"):
                i += 1
                colour = number()
                if i < end, bytes[i] == UInt8(ascii: ";") {
                    i += 1
                    let system = number(); i += 1
                    let r = number(); i += 1
                    let g = number(); i += 1
                    let b = number()
                    guard system == 2 else { throw DecodeError.colourSystem }
                    registers[colour] = (r, g, b)
                }
            case UInt8(ascii: "$"):
                x = 0
                i += 1
            case UInt8(ascii: "-"):
                x = 0
                top += 6
                bands += 1
                i += 1
            case UInt8(ascii: "!"):
                i += 1
                let count = number()
                let value = Int(bytes[i]) - 63
                for _ in 0..<count { paint(value, x: x, top: top, colour: colour, maxRow: &maxRow); x += 1 }
                i += 1
            case 63...126:
                paint(Int(c) - 63, x: x, top: top, colour: colour, maxRow: &maxRow)
                x += 1
                i += 1
            default:
                throw DecodeError.unexpected(c)
            }
        }
        bands += 1
        height = maxRow + 1
    }

    private mutating func paint(_ value: Int, x: Int, top: Int, colour: Int, maxRow: inout Int) {
        width = max(width, x + 1)
        for bit in 0..<6 where value & (1 << bit) != 0 {
            pixels[(top + bit) << 16 | x] = colour
            maxRow = max(maxRow, top + bit)
        }
    }

    enum DecodeError: Error {
        case framing, colourSystem
        case unexpected(UInt8)
    }
}

final class GraphicsEncoderTests: XCTestCase {
    /// A picture with smooth gradients and hard edges: every band has several colours.
    private func picture(width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 3
                rgb[p] = UInt8(x * 255 / max(1, width - 1))
                rgb[p + 1] = UInt8(y * 255 / max(1, height - 1))
                rgb[p + 2] = (x / 7 + y / 5) % 2 == 0 ? 200 : 30
            }
        }
        return rgb
    }

    func testSixelDecodesToTheDitheredRegistersOfEveryPixelScaledUp() throws {
        let (w, h, scale) = (37, 23, 2)
        let rgb = picture(width: w, height: h)
        var encoder = SixelEncoder()
        var out: [UInt8] = []
        encoder.encode(rgb, sourceWidth: w, sourceHeight: h, scale: scale, width: w * scale, height: 44, into: &out)
        let image = try SixelImage(out)
        XCTAssertEqual(image.declared?.width, w * scale)
        XCTAssertEqual(image.declared?.height, 44)
        XCTAssertEqual(image.width, w * scale)
        XCTAssertEqual(image.height, 44)
        // 44 rows are 8 bands (the last one 2 rows high), separated by 7 "-".
        XCTAssertEqual(image.bands, 8)
        var seen = Set<Int>()
        for y in 0..<44 {
            for x in 0..<(w * scale) {
                let sx = x / scale, sy = y / scale, p = (sy * w + sx) * 3
                let expected = SixelEncoder.register(rgb[p], rgb[p + 1], rgb[p + 2], x: sx, y: sy)
                XCTAssertEqual(image[x, y], expected, "pixel \(x), \(y)")
                seen.insert(expected)
            }
        }
        // Exactly the registers used are defined, each with its level's colour.
        XCTAssertEqual(Set(image.registers.keys), seen)
        for (register, colour) in image.registers {
            let (r, g, b) = SixelEncoder.percentages(register)
            XCTAssertTrue(colour == (r, g, b))
            XCTAssertTrue((0...100).contains(r) && (0...100).contains(g) && (0...100).contains(b))
        }
        XCTAssertLessThan(seen.max()!, SixelEncoder.colourCount)
    }

    func testSixelPaletteIsSixBySevenBySixAndTheDitherAveragesToTheColour() {
        XCTAssertEqual(SixelEncoder.percentages(0).r, 0)
        XCTAssertTrue(SixelEncoder.percentages(SixelEncoder.colourCount - 1) == (100, 100, 100))
        XCTAssertTrue(SixelEncoder.percentages(3 * 42 + 5 * 6 + 1) == (60, 83, 20))
        // A mid grey between two levels: the 4×4 pattern mixes the two around it in the right share.
        let grey: UInt8 = 140
        var sum = 0.0
        for y in 0..<4 {
            for x in 0..<4 {
                sum += Double(
                    SixelEncoder.percentages(
                        SixelEncoder.register(grey, grey, grey, x: x, y: y)
                    ).r)
            }
        }
        XCTAssertEqual(sum / 16 * 2.55, Double(grey), accuracy: 6)
    }

    func testSixelOfAStillPictureIsTheSameBytesAndRunsAreLengthCoded() throws {
        var rgb = [UInt8](repeating: 0, count: 200 * 12 * 3)
        for i in stride(from: 0, to: rgb.count, by: 3) { rgb[i] = 255 }
        var encoder = SixelEncoder()
        var first: [UInt8] = [], second: [UInt8] = []
        encoder.encode(rgb, sourceWidth: 200, sourceHeight: 12, scale: 1, width: 200, height: 12, into: &first)
        encoder.encode(rgb, sourceWidth: 200, sourceHeight: 12, scale: 1, width: 200, height: 12, into: &second)
        XCTAssertEqual(first, second)
        // One colour, two full bands: "!200~" each.
        let text = String(decoding: first, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "!200~").count - 1, 2, text)
        XCTAssertLessThan(first.count, 60)
    }

    func testKittyChunksAreAtMost4096Base64BytesAndCarryTheCompressedPicture() throws {
        let (w, h) = (160, 120)
        let rgb = picture(width: w, height: h).map { $0 ^ UInt8.random(in: 0...15) }
        var encoder = KittyEncoder()
        var out: [UInt8] = []
        encoder.encode(rgb, width: w, height: h, id: 42, columns: 40, rows: 15, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}_G"))
        let commands = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        XCTAssertGreaterThan(commands.count, 2, "a picture this size takes several chunks")
        var payload = ""
        for (k, command) in commands.enumerated() {
            XCTAssertTrue(command.hasPrefix("\u{1B}_G"), command)
            let body = command.dropFirst(3)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            XCTAssertEqual(parts.count, 2)
            let keys = Dictionary(
                uniqueKeysWithValues: parts[0].split(separator: ",").map {
                    let kv = $0.split(separator: "=", maxSplits: 1)
                    return (String(kv[0]), String(kv[1]))
                })
            XCTAssertLessThanOrEqual(parts[1].utf8.count, 4096)
            XCTAssertEqual(keys["m"], k == commands.count - 1 ? "0" : "1")
            if k < commands.count - 1 { XCTAssertEqual(parts[1].utf8.count % 4, 0) }
            if k == 0 {
                XCTAssertEqual(keys["a"], "T")
                XCTAssertEqual(keys["f"], "24")
                XCTAssertEqual(keys["o"], "z")
                XCTAssertEqual(keys["s"], "160")
                XCTAssertEqual(keys["v"], "120")
                XCTAssertEqual(keys["i"], "42")
                XCTAssertEqual(keys["c"], "40")
                XCTAssertEqual(keys["r"], "15")
                XCTAssertEqual(keys["C"], "1")
                XCTAssertEqual(keys["q"], "2")
            } else {
                XCTAssertEqual(Set(keys.keys), ["m"], "continuation chunks carry only m")
            }
            payload += parts[1]
        }
        let packed = try XCTUnwrap(Data(base64Encoded: payload))
        var unpacked = [UInt8](repeating: 0, count: rgb.count + 16)
        var length = uLongf(unpacked.count)
        let status = packed.withUnsafeBytes { source in
            uncompress(&unpacked, &length, source.bindMemory(to: UInt8.self).baseAddress, uLong(packed.count))
        }
        XCTAssertEqual(status, Z_OK)
        XCTAssertEqual(Array(unpacked[0..<Int(length)]), rgb)
    }

    func testBase64MatchesFoundationAtEveryPadding() {
        for count in 0..<10 {
            let bytes = (0..<count).map { UInt8(($0 * 73 + 11) & 0xFF) }
            var out: [UInt8] = []
            KittyEncoder.base64(bytes[...], into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), Data(bytes).base64EncodedString())
        }
    }

    func testKittyDeleteNamesTheImageAndFreesIt() {
        XCTAssertEqual(
            String(decoding: KittyEncoder.delete(id: 7351), as: UTF8.self), "\u{1B}_Ga=d,d=I,q=2,i=7351\u{1B}\\")
    }
}
