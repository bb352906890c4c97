import FaceCapCore
import XCTest

/// The YUV chroma test that tells an infrared picture from a colour one.
final class FrameChromaTests: XCTestCase {
    /// YUYV 64×48 whose luma ramps across the frame; `chroma` gives each U and V byte.
    private func yuyv(
        luma: (Int) -> UInt8 = { UInt8(16 + $0 % 64 * 3) },
        chroma: (Int) -> UInt8 = { _ in 128 }
    ) -> Frame {
        var data: [UInt8] = []
        for index in 0..<(32 * 48) {
            data += [luma(index * 2), chroma(index * 2), luma(index * 2 + 1), chroma(index * 2 + 1)]
        }
        return Frame(format: .yuyv, width: 64, height: 48, data: data)
    }

    func testChromaFlatAt128WithLumaThatVariesIsInfrared() {
        XCTAssertEqual(yuyv().chromaIsFlat, true)
        XCTAssertEqual(yuyv(chroma: { $0 == 700 ? 129 : 128 }).chromaIsFlat, false, "one chroma byte off: colour")
        XCTAssertEqual(yuyv(chroma: { 120 + UInt8($0 % 16) }).chromaIsFlat, false)
        XCTAssertNil(yuyv(luma: { _ in 16 }).chromaIsFlat, "a black frame (a camera starting up) says nothing")
        XCTAssertNil(yuyv(luma: { UInt8(100 + $0 % 23) }).chromaIsFlat, "luma spanning 22 levels is too uniform")
        var planar = Frame(
            format: .yuv420p, width: 4, height: 4,
            data: (0..<16).map { UInt8($0 * 10) } + [UInt8](repeating: 128, count: 8))
        XCTAssertEqual(planar.chromaIsFlat, true)
        planar.data[17] = 127
        XCTAssertEqual(planar.chromaIsFlat, false)
        XCTAssertNil(Frame(format: .rgb24, width: 2, height: 1, data: [0, 0, 0, 255, 255, 255]).chromaIsFlat)
        XCTAssertNil(
            Frame(format: .yuyv, width: 64, height: 48, data: [1, 2, 3]).chromaIsFlat, "short data: no answer")
    }
}
