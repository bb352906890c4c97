import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// A small deterministic generator, so a failing mutation can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Mutates `bytes`: flipped bytes, a cut, an inserted run, or a 0xFF/0x00 burst (marker-like noise).
func mutate(_ bytes: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
    var out = bytes
    for _ in 0..<Int.random(in: 1...4, using: &rng) where !out.isEmpty {
        let at = Int.random(in: 0..<out.count, using: &rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: out[at] ^= UInt8.random(in: 1...255, using: &rng)
        case 1: out.removeSubrange(at...)
        case 2:
            out.insert(
                contentsOf: (0..<Int.random(in: 1...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng)
                }, at: at)
        case 3: out.replaceSubrange(at..<min(out.count, at + 8), with: repeatElement(0xFF, count: 8))
        default: out.replaceSubrange(at..<min(out.count, at + 4), with: repeatElement(0x00, count: 4))
        }
    }
    return out
}

/// Thousands of damaged images must each decode to a well-formed frame or fail with `MediaDataError`:
/// never a crash, a hang or a malformed frame.
final class ImageFuzzTests: XCTestCase {
    func testDamagedImagesNeverCrashTheDecoders() throws {
        var seeds: [[UInt8]] = try [
            "rgb16.png", "palette.png", "interlaced.png", "gray1.png", "quadrants.jpg",
            "quadrants-progressive.jpg", "quadrants-gray.jpg", "quadrants-cmyk.jpg",
        ]
        .map { Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/" + $0)))) }
        seeds.append(Array("P6\n# c\n4 2\n255\n".utf8) + (0..<24).map { UInt8($0 * 9) })
        seeds.append(Array("P3 2 2 65535\n0 1 2 3 4 5 60000 7 8 9 10 65535\n".utf8))
        seeds.append(Array("P2 3 1 15 0 7 15".utf8))
        var rng = SplitMix64(state: 20_261_130)
        var decoded = 0
        var refused = 0
        for round in 0..<3000 {
            let seed = seeds[round % seeds.count]
            let bytes = mutate(seed, using: &rng)
            do {
                let frame = try ImageFile.decode(bytes)
                XCTAssertTrue(frame.isWellFormed, "round \(round)")
                XCTAssertEqual(frame.data.count, frame.format.byteCount(width: frame.width, height: frame.height))
                decoded += 1
            } catch {
                XCTAssertFalse(error.summary.isEmpty)
                refused += 1
            }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        XCTAssertGreaterThan(decoded, 100)
        XCTAssertGreaterThan(refused, 100)
    }
}
