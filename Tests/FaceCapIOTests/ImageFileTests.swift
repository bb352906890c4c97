import CImageCodecs
import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// Decoding photos: the shared fixtures, crafted files covering each format's variants (their formulas
/// are in Tests/Fixtures/crafted/make_crafted.py), and broken files that must fail with a clear error.
final class ImageFileTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUpWithError() throws { temp = try TemporaryDirectory() }
    override func tearDown() { temp.remove() }

    // The formulas of make_crafted.py.
    let width = 16, height = 12
    func colour(_ x: Int, _ y: Int) -> [UInt8] { [UInt8(x * 16 % 256), UInt8(y * 20 % 256), UInt8((x + y) * 8 % 256)] }
    func grey(_ x: Int, _ y: Int) -> UInt8 { UInt8((x * 16 + y) % 256) }
    let quadrants: [[UInt8]] = [[200, 30, 40], [20, 180, 60], [30, 40, 220], [240, 240, 20]]
    let greyQuadrants: [UInt8] = [30, 90, 160, 230]
    func quadrant(_ x: Int, _ y: Int) -> Int { (x >= 8 ? 1 : 0) + (y >= 6 ? 2 : 0) }

    func crafted(_ name: String) throws -> Frame { try ImageFile.read(path: fixturePath("crafted/" + name)) }

    func assertFormula(
        _ frame: Frame, _ expected: (Int, Int) -> [UInt8], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(frame.width, width, file: file, line: line)
        XCTAssertEqual(frame.height, height, file: file, line: line)
        XCTAssertEqual(frame.colorRange, .full, file: file, line: line)
        for y in 0..<height {
            for x in 0..<width where pixel(frame, x, y) != expected(x, y) {
                XCTFail(
                    "pixel (\(x), \(y)) is \(pixel(frame, x, y)), expected \(expected(x, y))", file: file, line: line)
                return
            }
        }
    }

    /// Lossy images: every pixel away from the quadrant borders within `tolerance` of its quadrant colour.
    func assertQuadrants(
        _ frame: Frame, _ expected: (Int) -> [UInt8], tolerance: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(frame.width, width, file: file, line: line)
        XCTAssertEqual(frame.height, height, file: file, line: line)
        for y in 0..<height where y != 5 && y != 6 {
            for x in 0..<width where x != 7 && x != 8 {
                let got = pixel(frame, x, y)
                let want = expected(quadrant(x, y))
                if zip(got, want).contains(where: { abs(Int($0) - Int($1)) > tolerance }) {
                    XCTFail("pixel (\(x), \(y)) is \(got), expected \(want) ±\(tolerance)", file: file, line: line)
                    return
                }
            }
        }
    }

    func testSharedFixturesDecodeAtTheirSize() throws {
        let sergey = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertEqual([sergey.width, sergey.height], [600, 600])
        XCTAssertEqual(sergey.format, .rgb24)
        XCTAssertEqual(sergey.data.count, 600 * 600 * 3)
        let dino = try ImageFile.read(path: fixturePath("dino.jpg"))
        XCTAssertEqual([dino.width, dino.height], [2876, 1699])
        XCTAssertEqual(dino.format, .rgb24)
        XCTAssertEqual(dino.data.count, 2876 * 1699 * 3)
        // Not a constant image: the decoder really produced pixels.
        XCTAssertGreaterThan(Set(sergey.data).count, 200)
        XCTAssertGreaterThan(Set(dino.data).count, 200)
    }

    func testPNGVariants() throws {
        let rgb16 = try crafted("rgb16.png")
        XCTAssertEqual(rgb16.format, .rgb24)
        assertFormula(rgb16, colour)
        let gray16 = try crafted("gray16.png")
        XCTAssertEqual(gray16.format, .gray)
        assertFormula(gray16) { [self.grey($0, $1)] }
        let rgba = try crafted("rgba8.png")
        XCTAssertEqual(rgba.format, .rgb24)
        assertFormula(rgba, colour)
        let graya = try crafted("graya8.png")
        XCTAssertEqual(graya.format, .gray)
        assertFormula(graya) { [self.grey($0, $1)] }
        let gray1 = try crafted("gray1.png")
        XCTAssertEqual(gray1.format, .gray)
        assertFormula(gray1) { x, y in [(x + y) % 2 == 0 ? 0 : 255] }
        let interlaced = try crafted("interlaced.png")
        XCTAssertEqual(interlaced.format, .rgb24)
        assertFormula(interlaced, colour)
        let palette = try crafted("palette.png")
        XCTAssertEqual(palette.format, .rgb24)
        assertFormula(palette) { self.quadrants[self.quadrant($0, $1)] }
    }

    func testJPEGVariants() throws {
        let baseline = try crafted("quadrants.jpg")
        XCTAssertEqual(baseline.format, .rgb24)
        assertQuadrants(baseline, { self.quadrants[$0] }, tolerance: 6)
        let progressive = try crafted("quadrants-progressive.jpg")
        assertQuadrants(progressive, { self.quadrants[$0] }, tolerance: 6)
        let gray = try crafted("quadrants-gray.jpg")
        XCTAssertEqual(gray.format, .gray)
        assertQuadrants(gray, { [self.greyQuadrants[$0]] }, tolerance: 3)
        let cmyk = try crafted("quadrants-cmyk.jpg")
        XCTAssertEqual(cmyk.format, .rgb24)
        assertQuadrants(cmyk, { self.quadrants[$0] }, tolerance: 8)
    }

    func testFormatIsSniffedNotTakenFromTheExtension() throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/rgb16.png")))
        let path = try temp.write("actually-a-png.jpg", Array(png))
        XCTAssertEqual(try MediaKind.sniff(path: path), .png)
        assertFormula(try ImageFile.read(path: path), colour)
    }

    func testAPipeIsReadToItsEnd() throws {
        // `facecap analyze <(curl …)` hands over a pipe: no size up front, read in chunks.
        let png = try Data(contentsOf: URL(fileURLWithPath: fixturePath("sergey.png")))
        let path = temp.path("pipe")
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.write(png)
                try? handle.close()
            }
        }
        writer.start()
        let frame = try ImageFile.read(path: path)
        XCTAssertEqual([frame.width, frame.height], [600, 600])
        XCTAssertEqual(frame.data, try ImageFile.read(path: fixturePath("sergey.png")).data)
    }

    func testBinaryPPMAndPGM() throws {
        let rgb = Frame(format: .rgb24, width: 3, height: 2, colorRange: .full, data: Array(0..<18))
        let ppm = Array("P6\n# a comment\n3 2 # trailing comment\n255\n".utf8) + rgb.data
        let decoded = try ImageFile.read(path: try temp.write("a.ppm", ppm))
        XCTAssertEqual(decoded.format, .rgb24)
        XCTAssertEqual(decoded.data, rgb.data)
        let pgm = Array("P5 2 2 255 ".utf8) + [0, 100, 200, 255]
        let gray = try ImageFile.read(path: try temp.write("a.pgm", pgm))
        XCTAssertEqual(gray.format, .gray)
        XCTAssertEqual(gray.data, [0, 100, 200, 255])
        XCTAssertEqual(try ImageFile.decode(try XCTUnwrap(PNM.encode(rgb))).data, rgb.data)
    }

    func testPPMWithOtherMaxvals() throws {
        // 16-bit big-endian samples: 0, 65535, 32768 (→ 128), 257 (→ 1).
        let wide = Array("P5\n4 1\n65535\n".utf8) + [0, 0, 0xFF, 0xFF, 0x80, 0x00, 0x01, 0x01]
        XCTAssertEqual(try ImageFile.decode(wide).data, [0, 255, 128, 1])
        // maxval 15: 15 → 255, 1 → 17.
        let small = Array("P5 3 1 15\n".utf8) + [0, 1, 15]
        XCTAssertEqual(try ImageFile.decode(small).data, [0, 17, 255])
    }

    func testASCIIPPMAndPGM() throws {
        let p3 = Array("P3\n# ascii\n2 1\n255\n255 0 0\n 0 0 255\n".utf8)
        let colour = try ImageFile.decode(p3)
        XCTAssertEqual(colour.format, .rgb24)
        XCTAssertEqual(colour.data, [255, 0, 0, 0, 0, 255])
        let p2 = Array("P2 3 1 1000\n0 500 1000".utf8)
        let gray = try ImageFile.decode(p2)
        XCTAssertEqual(gray.format, .gray)
        XCTAssertEqual(gray.data, [0, 128, 255])
    }

    func testMalformedPNMIsAnErrorNotACrash() {
        // Each case: its bytes, the typed error, and the English the summary says it in.
        let cases: [(String, [UInt8], MediaDataError, String)] = [
            (
                "truncated header", Array("P6\n3 ".utf8), .truncated(.header(.height)),
                "truncated: the header ends before its height"
            ),
            (
                "truncated pixels", Array("P6 2 2 255\n".utf8) + [1, 2, 3],
                .truncated(.pixelBytes(expected: 12, present: 3)), "truncated: 12 bytes of pixels expected, 3 present"
            ),
            (
                "zero width", Array("P5 0 2 255\n".utf8), .malformed(.zeroSize(width: 0, height: 2)),
                "(zero width or height (0×2))"
            ),
            (
                "huge", Array("P6 100000 100000 255\n".utf8), .tooLarge(width: 100000, height: 100000),
                "100000×100000 pixels is too large"
            ),
            (
                "bad maxval", Array("P5 1 1 70000\n".utf8) + [0], .malformed(.maxval(70000)),
                "(maxval 70000 is outside 1…65535)"
            ),
            (
                "sample above maxval", Array("P2 2 1 10 3 11".utf8),
                .malformed(.sampleAboveMaxval(index: 1, value: 11, maxval: 10)), "(sample 1 is 11, above maxval 10)"
            ),
            (
                "letters", Array("P6 x 2 255\n".utf8), .malformed(.headerNotANumber(.width)),
                "(the header's width is not a number)"
            ),
            (
                "missing samples", Array("P2 4 1 255 1 2 3  ".utf8), .truncated(.sampleMissing(index: 3, samples: 4)),
                "truncated: sample 3 of 4 is missing"
            ),
            (
                "bitmap", Array("P4 8 1\n".utf8) + [0xFF], .unsupported(.pnmBitmap),
                "unsupported: PBM bitmaps and PAM files (P1, P4, P7) are not read; convert to PPM or PNG"
            ),
        ]
        for (name, bytes, expected, english) in cases {
            XCTAssertThrowsError(try ImageFile.decode(bytes), name) { error in
                XCTAssertEqual(error as? MediaDataError, expected, name)
                let summary = (error as? MediaDataError)?.summary ?? ""
                XCTAssertTrue(summary.contains(english), "\(name): \(summary)")
            }
        }
    }

    func testBrokenFilesGiveOneClearLineAndExit66() throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: fixturePath("sergey.png")))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: fixturePath("dino.jpg")))
        var garbled = Array(jpeg.prefix(2000))
        for i in stride(from: 400, to: garbled.count, by: 7) { garbled[i] = 0xFF }
        let cases: [(String, [UInt8])] = [
            ("empty.png", []),
            ("truncated.png", Array(png.prefix(png.count / 2))),
            ("header-only.png", Array(png.prefix(20))),
            ("truncated.jpg", Array(jpeg.prefix(jpeg.count / 2))),
            ("header-only.jpg", Array(jpeg.prefix(3))),
            ("garbled.jpg", garbled),
            ("garbage.bin", Array("hello, this is not an image at all".utf8)),
        ]
        for (name, bytes) in cases {
            let path = try temp.write(name, bytes)
            XCTAssertThrowsError(try ImageFile.read(path: path), name) { error in
                guard let error = error as? InputFileError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(error.exitCode, .noInput, name)
                XCTAssertTrue(error.message.hasPrefix(path + ": "), error.message)
                XCTAssertFalse(error.message.contains("\n"), error.message)
                if case .data = error.problem {} else { XCTFail("\(name): \(error.problem)") }
            }
        }
        XCTAssertEqual(try errorProblem(temp.path("empty.png")), .data(.empty))
        XCTAssertEqual(
            try errorProblem(temp.path("truncated.png")),
            .data(.truncated(.imageData(format: "PNG"))))
        XCTAssertEqual(
            MediaDataError.truncated(.imageData(format: "PNG")).summary,
            "truncated: the PNG data ends before the image does; the file is incomplete, copy or export it again")
        XCTAssertEqual(
            try errorProblem(temp.path("truncated.jpg")),
            .data(.truncated(.imageData(format: "JPEG"))))
        XCTAssertEqual(try errorProblem(temp.path("garbage.bin")), .data(.unknownFormat))
        let clip = try XCTUnwrap(errorProblem(fixturePath("clips/ffmpeg-420.y4m")))
        guard case .data(let error) = clip, case .wrongKind(.clipNotPhoto) = error else { return XCTFail("\(clip)") }
        XCTAssertTrue(error.summary.hasPrefix("a .y4m clip, not a photo"), error.summary)
    }

    func testHugeDeclaredDimensionsAreRefusedBeforeAllocating() throws {
        // A PNG header declaring 100000×100000 (IHDR only; libpng's own limit would stop at 1000000).
        var ihdr: [UInt8] = Array("IHDR".utf8) + bigEndian(100_000) + bigEndian(100_000) + [8, 2, 0, 0, 0]
        ihdr += bigEndian(crc32(ihdr))
        // libpng reads the header up to the first IDAT: give it an empty one, no pixels behind it.
        let idat: [UInt8] = bigEndian(0) + Array("IDAT".utf8) + bigEndian(crc32(Array("IDAT".utf8)))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + ihdr + idat
        XCTAssertEqual(
            try errorProblem(try temp.write("huge.png", png)), .data(.tooLarge(width: 100_000, height: 100_000)))
        // A JPEG whose SOF0 declares 60000×60000 (within JPEG's 65500 limit, beyond ours).
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/quadrants.jpg")))
        var bytes = Array(jpeg)
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])
        XCTAssertEqual(
            try errorProblem(try temp.write("huge.jpg", bytes)), .data(.tooLarge(width: 60000, height: 60000)))
        // Smaller limits apply too.
        let limits = ImageLimits(maxSide: 500, maxPixels: 1_000_000)
        XCTAssertThrowsError(try ImageFile.read(path: fixturePath("sergey.png"), limits: limits)) { error in
            XCTAssertEqual((error as? InputFileError)?.problem, .data(.tooLarge(width: 600, height: 600)))
        }
    }

    func testATinyPNGDeclaringAHugeImageIsTruncatedBeforeAllocating() throws {
        // 16384×16384 RGB is within the limits, but its 805 MB of pixels cannot come out of a few bytes of
        // deflate data (at most 1032:1): refused as cut short, without first allocating the picture.
        var ihdr: [UInt8] = Array("IHDR".utf8) + bigEndian(16384) + bigEndian(16384) + [8, 2, 0, 0, 0]
        ihdr += bigEndian(crc32(ihdr))
        let zlib: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        var idat: [UInt8] = Array("IDAT".utf8) + zlib
        idat = bigEndian(UInt32(zlib.count)) + idat + bigEndian(crc32(idat))
        let iend: [UInt8] = bigEndian(0) + Array("IEND".utf8) + bigEndian(crc32(Array("IEND".utf8)))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + ihdr + idat + iend
        XCTAssertEqual(
            try errorProblem(try temp.write("promise.png", png)),
            .data(.truncated(.imageData(format: "PNG"))))
        XCTAssertEqual(
            MediaDataError.truncated(.imageData(format: "PNG")).summary,
            "truncated: the PNG data ends before the image does; the file is incomplete, copy or export it again")
        // A small image over the same data is not refused by this check: a 1-bit grey 64×64 image needs
        // 512 bytes of pixels, which 8 bytes of deflate could in principle carry.
        var small: [UInt8] = Array("IHDR".utf8) + bigEndian(64) + bigEndian(64) + [1, 0, 0, 0, 0]
        small += bigEndian(crc32(small))
        let tiny: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + small + idat + iend
        let problem = try errorProblem(try temp.write("tiny.png", tiny))
        XCTAssertNotEqual(problem, .data(.truncated(.imageData(format: "PNG"))))
        XCTAssertEqual(
            MediaDataError.truncated(.imageData(format: "PNG")).summary,
            "truncated: the PNG data ends before the image does; the file is incomplete, copy or export it again")
    }

    func testAJPEGWhoseScanEndsEarlyIsTruncatedNotGrey() throws {
        // The 16×12 fixture's header patched to 64×64: its scan data ends (at the EOI marker) long before
        // the image does. libjpeg only warns and fills the rest with grey; that is a damaged photo.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/quadrants.jpg"))))
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0x00, 0x40, 0x00, 0x40])
        XCTAssertEqual(
            try errorProblem(try temp.write("short-scan.jpg", bytes)),
            .data(.truncated(.imageData(format: "JPEG"))))
        // Patched to 16000×16000 instead, it could not hold the image even with the smallest possible
        // coding: refused from its header, before 768 MB of pixels are allocated.
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0x3E, 0x80, 0x3E, 0x80])
        var info = cic_image_info()
        let decoder = try XCTUnwrap(bytes.withUnsafeBufferPointer { cic_jpeg_open($0.baseAddress, $0.count, &info) })
        cic_jpeg_close(decoder)
        XCTAssertEqual(info.min_data_bytes, 2000 * 2000 / 4)
        XCTAssertEqual(
            try errorProblem(try temp.write("promise.jpg", bytes)),
            .data(.truncated(.imageData(format: "JPEG"))))
        // The unpatched file still decodes.
        XCTAssertNil(try errorProblem(fixturePath("crafted/quadrants.jpg")))
    }

    func testMissingDirectoryAndUnreadableFiles() throws {
        XCTAssertEqual(try errorProblem(temp.path("nope.jpg")), .missing)
        XCTAssertEqual(try errorProblem(temp.url.path), .isDirectory)
        XCTAssertEqual(try errorProblem("/dev/zero"), .notARegularFile)
        let missing = InputFileError(path: "x.jpg", problem: .missing)
        XCTAssertEqual(missing.message, "x.jpg: no such file; check the path")
        if getuid() != 0 {
            let path = try temp.write("secret.png", [1, 2, 3])
            chmod(path, 0)
            XCTAssertEqual(try errorProblem(path), .permissionDenied)
        }
    }

    func errorProblem(_ path: String) throws -> InputFileError.Problem? {
        do {
            _ = try ImageFile.read(path: path)
            return nil
        } catch {
            return error.problem
        }
    }
}

func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// EXIF orientation: phone photos are stored sideways with a tag that says how to turn them.
final class ImageOrientationTests: XCTestCase {
    let quadrants: [[UInt8]] = [[200, 30, 40], [20, 180, 60], [30, 40, 220], [240, 240, 20]]
    /// Which quadrant colour each corner shows (top-left, top-right, bottom-left, bottom-right) for
    /// orientations 1…8, as Pillow's ImageOps.exif_transpose shows them.
    let cornersByOrientation: [[Int]] = [
        [0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0], [2, 3, 0, 1], [0, 2, 1, 3], [2, 0, 3, 1], [3, 1, 2, 0], [1, 3, 0, 2],
    ]

    func corners(_ frame: Frame) -> [Int] {
        let points = [(1, 1), (frame.width - 2, 1), (1, frame.height - 2), (frame.width - 2, frame.height - 2)]
        return points.map { point in
            let p = pixel(frame, point.0, point.1)
            let distances: [Int] = quadrants.map { colour in
                var sum = 0
                for (a, b) in zip(p, colour) { sum += abs(Int(a) - Int(b)) }
                return sum
            }
            return distances.firstIndex(of: distances.min()!)!
        }
    }

    /// `jpeg` with an APP1 EXIF block holding only Orientation, inserted after SOI.
    func withOrientation(_ jpeg: [UInt8], _ orientation: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        // A decoy tag before the orientation, as real files have many.
        let tiff: [UInt8] =
            (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(2)
            + u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
        let body = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    func testEveryOrientationInBothByteOrders() throws {
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/quadrants.jpg"))))
        XCTAssertNil(ExifOrientation.find(inJPEG: jpeg))
        for orientation in 1...8 {
            for little in [true, false] {
                let bytes = withOrientation(jpeg, orientation, littleEndian: little)
                XCTAssertEqual(ExifOrientation.find(inJPEG: bytes), orientation)
                let frame = try ImageFile.decode(bytes)
                let turned = orientation >= 5
                XCTAssertEqual(
                    [frame.width, frame.height], turned ? [12, 16] : [16, 12], "orientation \(orientation)")
                XCTAssertEqual(corners(frame), cornersByOrientation[orientation - 1], "orientation \(orientation)")
            }
        }
    }

    func testAPhoneStyleFileWrittenByPillow() throws {
        let frame = try ImageFile.read(path: fixturePath("crafted/quadrants-exif6.jpg"))
        XCTAssertEqual([frame.width, frame.height], [12, 16])
        XCTAssertEqual(corners(frame), cornersByOrientation[5])
        // The shared fixture carries EXIF with Orientation 1: left as stored.
        let dino = Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath("dino.jpg"))))
        XCTAssertEqual(ExifOrientation.find(inJPEG: dino), 1)
    }

    func testDamagedEXIFIsIgnored() throws {
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/quadrants.jpg"))))
        let good = withOrientation(jpeg, 6, littleEndian: true)
        // The TIFF block starts at byte 12 (SOI, APP1 marker and length, "Exif\0\0").
        // An IFD pointing outside the block, or a bad byte order: no orientation, the pixels as stored.
        var farIFD = good
        farIFD[12 + 4] = 0xF0  // IFD offset 240
        var badOrder = good
        badOrder[12] = 0x58
        for bytes in [farIFD, badOrder] {
            XCTAssertNil(ExifOrientation.find(inJPEG: bytes))
            XCTAssertEqual(try ImageFile.decode(bytes).width, 16)
        }
        // A segment length that ends the block before the orientation entry: the entry is not read.
        var short = good
        short[5] = UInt8(2 + 6 + 8 + 2 + 12)
        XCTAssertNil(ExifOrientation.find(inJPEG: short))
        // An entry count far beyond the block: the entries inside it still count, the rest are not read.
        var manyEntries = good
        manyEntries[12 + 8] = 0xFF
        XCTAssertEqual(ExifOrientation.find(inJPEG: manyEntries), 6)
        var rng = SplitMix64(state: 7)
        for _ in 0..<2000 {
            var bytes = good
            let at = Int.random(in: 2..<60, using: &rng)
            bytes[at] = UInt8.random(in: 0...255, using: &rng)
            if let found = ExifOrientation.find(inJPEG: bytes) { XCTAssertTrue((1...8).contains(found)) }
        }
    }
}
