import XCTest

@testable import FaceCapCore

final class FrameGeometryTests: XCTestCase {
    /// A 4×3 grey ramp: value = 10 × (row × 4 + column).
    let ramp = Frame(format: .gray, width: 4, height: 3, colorRange: .full, data: (0..<12).map { UInt8($0 * 10) })

    func testCropClampsToTheFrame() {
        var out = Frame.empty()
        XCTAssertTrue(ramp.crop(x: 1, y: 1, width: 2, height: 2, into: &out))
        XCTAssertEqual([out.width, out.height], [2, 2])
        XCTAssertEqual(out.data, [50, 60, 90, 100])
        XCTAssertTrue(ramp.crop(x: -5, y: 2, width: 7, height: 9, into: &out))
        XCTAssertEqual([out.width, out.height], [2, 1])
        XCTAssertEqual(out.data, [80, 90])
        XCTAssertFalse(ramp.crop(x: 4, y: 0, width: 3, height: 3, into: &out))
        XCTAssertEqual(out.data, [])
        let rgb = Frame(format: .rgb24, width: 2, height: 1, colorRange: .full, data: [1, 2, 3, 4, 5, 6])
        XCTAssertTrue(rgb.crop(x: 1, y: 0, width: 1, height: 1, into: &out))
        XCTAssertEqual(out.format, .rgb24)
        XCTAssertEqual(out.data, [4, 5, 6])
    }

    func testShrinkingAveragesTheCoveredPixels() {
        let square = Frame(
            format: .gray, width: 4, height: 2, colorRange: .full, data: [0, 10, 20, 30, 40, 50, 60, 70])
        var out = Frame.empty()
        square.resize(width: 2, height: 1, into: &out)
        XCTAssertEqual(out.data, [25, 45])
        // A fine checkerboard shrinks to flat grey, not to one of its colours (no aliasing).
        let board = Frame(
            format: .rgb24, width: 8, height: 8, colorRange: .full,
            data: (0..<64).flatMap { i -> [UInt8] in ((i % 8 + i / 8) % 2 == 0) ? [0, 0, 0] : [200, 200, 200] })
        board.resize(width: 2, height: 2, into: &out)
        XCTAssertEqual(out.data, [UInt8](repeating: 100, count: 12))
        // Same size is a copy.
        ramp.resize(width: 4, height: 3, into: &out)
        XCTAssertEqual(out.data, ramp.data)
    }

    func testEnlargingInterpolates() {
        let pair = Frame(format: .gray, width: 2, height: 1, colorRange: .full, data: [0, 200])
        var out = Frame.empty()
        pair.resize(width: 4, height: 1, into: &out)
        // Pixel centres at 0.25 and 0.75 of the gap: clamped 0, then 50, 150, 200.
        XCTAssertEqual(out.data, [0, 50, 150, 200])
        pair.resize(width: 2, height: 3, into: &out)
        XCTAssertEqual(out.data, [0, 200, 0, 200, 0, 200])
    }

    func testMirror() {
        var out = Frame.empty()
        ramp.mirror(into: &out)
        XCTAssertEqual(out.data, [30, 20, 10, 0, 70, 60, 50, 40, 110, 100, 90, 80])
        let rgb = Frame(format: .rgb24, width: 2, height: 1, colorRange: .full, data: [1, 2, 3, 4, 5, 6])
        rgb.mirror(into: &out)
        XCTAssertEqual(out.data, [4, 5, 6, 1, 2, 3])
    }

    func testNonPackedFormatsGiveAnEmptyOutputNotATrap() {
        let yuv = Frame(format: .yuv420p, width: 4, height: 2, data: [UInt8](repeating: 1, count: 12))
        var out = Frame(format: .gray, width: 1, height: 1, data: [9])
        XCTAssertFalse(yuv.crop(x: 0, y: 0, width: 2, height: 2, into: &out))
        XCTAssertEqual([out.width, out.height, out.data.count], [0, 0, 0])
        out = Frame(format: .gray, width: 1, height: 1, data: [9])
        yuv.resize(width: 2, height: 1, into: &out)
        XCTAssertEqual([out.width, out.height, out.data.count], [0, 0, 0])
        out = Frame(format: .gray, width: 1, height: 1, data: [9])
        yuv.mirror(into: &out)
        XCTAssertEqual(out.data.count, 0)
        XCTAssertFalse(yuv.applyingOrientation(6, into: &out))
        XCTAssertEqual(out.data.count, 0)
    }

    func testAnUnallocatableOutputSizeIsRefusedNotWrittenPast() {
        // The output's byte count overflows: resize must refuse before writing through the pointer.
        var out = Frame(format: .gray, width: 1, height: 1, data: [9])
        XCTAssertFalse(ramp.resize(width: 1 << 32, height: 1 << 32, into: &out))
        XCTAssertEqual([out.width, out.height, out.data.count], [0, 0, 0])
        XCTAssertFalse(ramp.resize(width: -4, height: 3, into: &out))
        XCTAssertEqual([out.width, out.height, out.data.count], [0, 0, 0])
        // A frame whose data is shorter than its size says is not read past either.
        let short = Frame(format: .gray, width: 4, height: 3, data: [1, 2, 3])
        XCTAssertFalse(short.mirror(into: &out))
        XCTAssertFalse(short.resize(width: 2, height: 2, into: &out))
        XCTAssertEqual(out.data.count, 0)
        XCTAssertTrue(ramp.resize(width: 2, height: 2, into: &out))
    }
}
