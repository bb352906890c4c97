import Foundation
import XCTest

@testable import FaceCapCore

/// Y4M parsing and formatting over bytes: round trips for every colour space, real ffmpeg files, and
/// every kind of broken input (which must be an error, never a crash or a huge allocation).
final class Y4MTests: XCTestCase {
    static let clips = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/clips")

    func clip(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: Self.clips.appendingPathComponent(name))) }

    /// A frame whose every byte differs from its neighbours', so a misplaced plane shows.
    func patterned(_ format: PixelFormat, _ width: Int, _ height: Int, seed: Int, range: ColorRange = .limited) -> Frame
    {
        let count = format.byteCount(width: width, height: height)!
        return Frame(
            format: format, width: width, height: height, colorRange: range,
            data: (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 31 + $0 / 5) })
    }

    func encode(_ header: Y4MHeader, _ frames: [Frame], as format: PixelFormat) throws -> [UInt8] {
        let encoder = try Y4MEncoder(header: header, inputFormat: format)
        var bytes = header.serialized()
        for frame in frames { try encoder.append(frame, to: &bytes) }
        return bytes
    }

    func testRoundTripEveryColourSpace() throws {
        for space in Y4MColorSpace.allCases {
            for (width, height) in [(16, 12), (33, 25), (1, 1)] {
                for range in [ColorRange.limited, .full] {
                    let header = Y4MHeader(
                        width: width, height: height, frameRate: Y4MRatio(30000, 1001),
                        colorSpace: space, colorRange: range)
                    let frames = (0..<3).map { patterned(space.pixelFormat, width, height, seed: $0, range: range) }
                    let bytes = try encode(header, frames, as: space.pixelFormat)
                    let decoded = try Y4MReader.decodeAll(bytes)
                    let label = "\(space) \(width)×\(height) \(range)"
                    XCTAssertEqual(decoded.header, header, label)
                    XCTAssertEqual(decoded.frames.count, 3, label)
                    for (index, (got, want)) in zip(decoded.frames, frames).enumerated() {
                        XCTAssertEqual(got.format, space.pixelFormat, label)
                        XCTAssertEqual(got.colorRange, range, label)
                        XCTAssertEqual(got.data, want.data, "\(label) frame \(index)")
                        XCTAssertEqual(got.timestamp, Double(index) * 1001 / 30000, accuracy: 1e-9, label)
                    }
                }
            }
        }
    }

    func testYUYVIsStoredAsPlanar422AndComesBackIdentical() throws {
        for width in [8, 7] {
            let yuyv = patterned(.yuyv, width, 4, seed: 3)
            let header = Y4MEncoder.header(
                width: width, height: 4, format: .yuyv, frameRate: Y4MRatio(30, 1),
                colorRange: .limited)
            XCTAssertEqual(header.colorSpace, .c422)
            let decoded = try Y4MReader.decodeAll(try encode(header, [yuyv], as: .yuyv))
            let planar = try XCTUnwrap(decoded.frames.first)
            XCTAssertEqual(planar.format, .yuv422p)
            // The first pixel pair: Y0 Y1 in the Y plane, U and V in their planes.
            let cw = (width + 1) / 2
            XCTAssertEqual([planar.data[0], planar.data[1]], [yuyv.data[0], yuyv.data[2]])
            XCTAssertEqual(planar.data[width * 4], yuyv.data[1])
            XCTAssertEqual(planar.data[width * 4 + cw * 4], yuyv.data[3])
            var back = [UInt8](repeating: 0, count: yuyv.data.count)
            planar.data.withUnsafeBufferPointer { src in
                back.withUnsafeMutableBufferPointer {
                    PlanarPacking.yuv422pToYUYV(src, width: width, height: 4, into: $0)
                }
            }
            if width % 2 == 0 {
                XCTAssertEqual(back, yuyv.data)
            } else {
                // An odd width has no real last Y1; everything else survives.
                for i in back.indices where (i % (cw * 4)) != cw * 4 - 2 { XCTAssertEqual(back[i], yuyv.data[i]) }
            }
        }
    }

    func testRGBIsStoredAs444AndComesBackClose() throws {
        let rgb = Frame(
            format: .rgb24, width: 4, height: 2, colorRange: .full,
            data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128, 128, 128, 10, 200, 90, 250, 20, 160])
        for range in [ColorRange.full, .limited] {
            let header = Y4MEncoder.header(
                width: 4, height: 2, format: .rgb24, frameRate: Y4MRatio(25, 1), colorRange: range)
            XCTAssertEqual(header.colorSpace, .c444)
            let decoded = try Y4MReader.decodeAll(try encode(header, [rgb], as: .rgb24))
            var back = Frame.empty()
            decoded.frames[0].convertToRGB24(into: &back)
            for (got, want) in zip(back.data, rgb.data) {
                XCTAssertLessThanOrEqual(abs(Int(got) - Int(want)), 2, "\(range)")
            }
        }
    }

    func testEncoderRefusesFramesThatDoNotFit() throws {
        let header = Y4MEncoder.header(
            width: 8, height: 8, format: .yuv420p, frameRate: Y4MRatio(30, 1), colorRange: .limited)
        let encoder = try Y4MEncoder(header: header, inputFormat: .yuv420p)
        var out: [UInt8] = []
        XCTAssertThrowsError(try encoder.append(patterned(.yuv420p, 8, 6, seed: 0), to: &out))
        XCTAssertThrowsError(try encoder.append(patterned(.gray, 8, 8, seed: 0), to: &out))
        XCTAssertThrowsError(try Y4MEncoder(header: header, inputFormat: .yuyv))
        XCTAssertTrue(out.isEmpty)
    }

    func testFilesWrittenByFFmpeg() throws {
        let c420 = try Y4MReader.decodeAll(try clip("ffmpeg-420.y4m"))
        XCTAssertEqual(c420.header.width, 32)
        XCTAssertEqual(c420.header.height, 24)
        XCTAssertEqual(c420.header.frameRate, Y4MRatio(30, 1))
        XCTAssertEqual(c420.header.colorSpace, .c420jpeg)
        XCTAssertEqual(c420.header.colorRange, .limited)
        XCTAssertEqual(c420.header.aspectRatio, Y4MRatio(1, 1))
        XCTAssertEqual(c420.header.otherTags, ["XYSCSS=420JPEG"])
        XCTAssertEqual(c420.frames.count, 3)
        let odd = try Y4MReader.decodeAll(try clip("ffmpeg-422-odd.y4m"))
        XCTAssertEqual([odd.header.width, odd.header.height], [33, 25])
        XCTAssertEqual(odd.frames.map(\.format), [.yuv422p, .yuv422p])
        XCTAssertEqual(odd.frames[0].data.count, 33 * 25 + 2 * 17 * 25)
        let full = try Y4MReader.decodeAll(try clip("ffmpeg-420-full.y4m"))
        XCTAssertEqual(full.header.colorRange, .full)
        let gray = try Y4MReader.decodeAll(try clip("ffmpeg-gray.y4m"))
        XCTAssertEqual(gray.header.colorSpace, .mono)
        XCTAssertEqual(gray.frames.first?.format, .gray)
        // Our header for the same stream reads back the same.
        XCTAssertEqual(try Y4MHeader.parse(line: c420.header.serialized().dropLast()), c420.header)
    }

    func testHeaderDefaultsAndTags() throws {
        let minimal = try Y4MHeader.parse(line: Array("YUV4MPEG2 W4 H2".utf8))
        XCTAssertEqual(minimal.frameRate, Y4MRatio(25, 1))
        XCTAssertEqual(minimal.colorSpace, .c420jpeg)
        XCTAssertEqual(minimal.colorRange, .limited)
        let tagged = try Y4MHeader.parse(
            line: Array("YUV4MPEG2 C420mpeg2 W4  H2 F24000:1001 It A0:0 XCOLORRANGE=FULL Zfuture".utf8))
        XCTAssertEqual(tagged.colorSpace, .c420mpeg2)
        XCTAssertEqual(tagged.frameRate.value, 23.976, accuracy: 0.001)
        XCTAssertEqual(tagged.interlacing, "t")
        XCTAssertEqual(tagged.colorRange, .full)
        XCTAssertEqual(tagged.otherTags, ["Zfuture"])
        XCTAssertEqual(try Y4MHeader.parse(line: Array("YUV4MPEG2 W2 H2 C420paldv".utf8)).colorSpace, .c420paldv)
        XCTAssertEqual(try Y4MHeader.parse(line: Array("YUV4MPEG2 W2 H2 C420".utf8)).pixelFormat, .yuv420p)
        XCTAssertEqual(Y4MRatio(frameRate: 30), Y4MRatio(30, 1))
        XCTAssertEqual(Y4MRatio(frameRate: 29.97), Y4MRatio(30000, 1001))
        XCTAssertEqual(Y4MRatio(frameRate: 12.5), Y4MRatio(25, 2))
        XCTAssertEqual(Y4MRatio(frameRate: .nan), Y4MRatio(30, 1))
        XCTAssertEqual(Y4MRatio(frameRate: -5), Y4MRatio(30, 1))
        XCTAssertEqual(Y4MRatio(frameRate: 1e300), Y4MRatio(1_000_000, 1))
    }

    func testFRAMELinesWithParametersAreAccepted() throws {
        let header = Y4MHeader(width: 2, height: 2, frameRate: Y4MRatio(30, 1), colorSpace: .mono)
        let bytes =
            header.serialized() + Array("FRAME Ixyz\n".utf8) + [1, 2, 3, 4] + Array("FRAME\n".utf8) + [5, 6, 7, 8]
        XCTAssertEqual(try Y4MReader.decodeAll(bytes).frames.map(\.data), [[1, 2, 3, 4], [5, 6, 7, 8]])
    }

    func testMalformedInputIsAClearErrorNotACrash() {
        let ok = Array("YUV4MPEG2 W4 H2 Cmono\n".utf8)
        // Each case: its bytes, the typed error, and the English the summary says it in.
        let cases: [(String, [UInt8], MediaDataError, String)] = [
            ("empty", [], .empty, "the file is empty"),
            (
                "truncated header", Array("YUV4MPEG2 W4 H2".utf8), .truncated(.headerLine),
                "truncated: the header line has no end"
            ),
            (
                "endless header", Array("YUV4MPEG2 ".utf8) + [UInt8](repeating: 0x41, count: 5000),
                .malformed(.headerLineTooLong(limit: 4096)), "(the header line is longer than 4096 bytes)"
            ),
            ("not y4m", Array("YUV4MPEG W4 H2\n".utf8), .malformed(.y4mSignature), "(not a YUV4MPEG2 header)"),
            (
                "bad width", Array("YUV4MPEG2 Wabc H2\n".utf8), .malformed(.notANumber(.width, text: "abc")),
                "(W (width) is \"abc\", not a positive number)"
            ),
            (
                "negative height", Array("YUV4MPEG2 W4 H-2\n".utf8), .malformed(.notANumber(.height, text: "-2")),
                "(H (height) is \"-2\", not a positive number)"
            ),
            (
                "no height", Array("YUV4MPEG2 W4\n".utf8), .malformed(.noSize),
                "(the header lacks its W (width) or H (height) tag)"
            ),
            (
                "zero dims", Array("YUV4MPEG2 W0 H0\n".utf8), .malformed(.zeroSize(width: 0, height: 0)),
                "(zero width or height (0×0))"
            ),
            (
                "huge", Array("YUV4MPEG2 W100000 H100000\n".utf8), .tooLarge(width: 100000, height: 100000),
                "100000×100000 pixels is too large"
            ),
            (
                "overflowing", Array("YUV4MPEG2 W99999999999999999999 H2\n".utf8),
                .malformed(.notANumber(.width, text: "99999999999999999999")),
                "(W (width) is \"99999999999999999999\", not a positive number)"
            ),
            (
                "zero rate", Array("YUV4MPEG2 W4 H2 F30:0\n".utf8), .malformed(.frameRate("30:0")),
                "(frame rate F30:0 must be positive)"
            ),
            (
                "bad rate", Array("YUV4MPEG2 W4 H2 F30\n".utf8), .malformed(.notARatio(.frameRate, text: "30")),
                "(F (frame rate) is \"30\", not a ratio like 30:1)"
            ),
            (
                "bad interlace", Array("YUV4MPEG2 W4 H2 Ix\n".utf8), .malformed(.interlacing("x")),
                "(interlacing Ix is not one of p, t, b, m, ?)"
            ),
            (
                "bad range", Array("YUV4MPEG2 W4 H2 XCOLORRANGE=WIDE\n".utf8),
                .malformed(.colorRange("COLORRANGE=WIDE")), "(XCOLORRANGE=WIDE is neither FULL nor LIMITED)"
            ),
            (
                "10-bit", Array("YUV4MPEG2 W4 H2 C420p10\n".utf8), .unsupported(.colorSpace("420p10")),
                "unsupported: colour space C420p10 (facecap reads 8-bit C420jpeg, C420mpeg2, C420paldv, C420, C422, "
                    + "C444 and Cmono; convert with ffmpeg -pix_fmt yuv420p)"
            ),
            (
                "missing FRAME", ok + Array("FRAMX\n".utf8) + [1, 2, 3, 4, 5, 6, 7, 8],
                .malformed(.frameWord(frame: 0)), "(frame 0 does not start with FRAME)"
            ),
            (
                "pixels without FRAME", ok + [UInt8](repeating: 9, count: 2000), .malformed(.frameLine(frame: 0)),
                "(frame 0 does not start with a FRAME line)"
            ),
            (
                "cut in FRAME", ok + Array("FRA".utf8), .truncated(.frameLine(frame: 0)),
                "truncated: frame 0 ends within its FRAME line"
            ),
            (
                "truncated frame", ok + Array("FRAME\n".utf8) + [1, 2, 3],
                .truncated(.frameBytes(frame: 0, present: 3, expected: 8)), "truncated: frame 0 has 3 of its 8 bytes"
            ),
        ]
        for (name, bytes, expected, english) in cases {
            XCTAssertThrowsError(try Y4MReader.decodeAll(bytes), name) { error in
                XCTAssertEqual(error as? MediaDataError, expected, name)
                let summary = (error as? MediaDataError)?.summary ?? ""
                XCTAssertTrue(summary.contains(english), "\(name): \(summary)")
            }
        }
    }

    /// A clip's or a photo's problem is said whole in the person's language: no English phrase inside a German
    /// line (the reason was an English string built at the throw site).
    func testAFilesProblemIsSaidWholeInTheLanguage() throws {
        let german = try XCTUnwrap(shippedTranslations().first { $0.language == "de" })
        let said = speaking(german) {
            [
                MediaDataError.malformed(.notANumber(.width, text: "abc")),
                .truncated(.frameBytes(frame: 2, present: 3, expected: 8)), .unsupported(.pnmBitmap),
            ].map(\.summary)
        }
        XCTAssertEqual(
            said,
            [
                "beschädigt oder ungültig (W (Breite) ist „abc“, keine positive Zahl); exportieren oder nehmen Sie "
                    + "sie erneut auf",
                "abgeschnitten: Bild 2 hat 3 von 8 Byte; die Datei ist unvollständig, kopieren oder exportieren Sie "
                    + "sie erneut",
                "nicht unterstützt: PBM-Bitmaps und PAM-Dateien (P1, P4, P7) werden nicht gelesen; wandeln Sie sie in "
                    + "PPM oder PNG um",
            ])
    }

    /// What a clip writer refuses is said whole in the person's language too (it was English built at the throw
    /// site, inside a translated line).
    func testAClipWritersRefusalIsSaidInTheLanguage() throws {
        let translations = try shippedTranslations()
        let german = try XCTUnwrap(translations.first { $0.language == "de" })
        let french = try XCTUnwrap(translations.first { $0.language == "fr" })
        let refusals: [ClipFrameMismatch] = [
            .clipShape(width: 0, height: 2, frameRate: 30), .writerClosed, .data(.malformed(.noSize)),
        ]
        XCTAssertEqual(
            speaking(german) { refusals.map(\.text) },
            [
                "0×2 mit 30.0 fps ist keine gültige Größe und Bildrate für einen Clip",
                "der Clip, in den geschrieben wird, ist bereits geschlossen",
                speaking(german) { MediaDataError.malformed(.noSize).summary },
            ])
        XCTAssertEqual(
            speaking(french) { refusals.prefix(2).map(\.text) },
            [
                "0×2 à 30.0\u{A0}i/s n'est pas une taille et une fréquence d'images valides pour un clip",
                "le clip en cours d'écriture est déjà fermé",
            ])
        XCTAssertEqual(
            refusals.prefix(2).map(\.text),
            ["0×2 at 30.0 fps is not a valid clip size and rate", "the writer is closed"])
    }

    func testFramesBeforeATruncatedOneAreUsable() throws {
        let header = Y4MHeader(width: 2, height: 2, frameRate: Y4MRatio(30, 1), colorSpace: .mono)
        let bytes = header.serialized() + Y4M.frameLine + [1, 2, 3, 4] + Y4M.frameLine + [5, 6]
        var reader = try Y4MReader(bytes: bytes)
        var frame = Frame.empty()
        XCTAssertTrue(try reader.nextFrame(into: &frame))
        XCTAssertEqual(frame.data, [1, 2, 3, 4])
        XCTAssertThrowsError(try reader.nextFrame(into: &frame)) { error in
            XCTAssertEqual(error as? MediaDataError, .truncated(.frameBytes(frame: 1, present: 2, expected: 4)))
            XCTAssertEqual(
                (error as? MediaDataError)?.summary,
                "truncated: frame 1 has 2 of its 4 bytes; the file is incomplete, copy or export it again")
        }
        reader.rewind()
        XCTAssertTrue(try reader.nextFrame(into: &frame))
        XCTAssertEqual(frame.data, [1, 2, 3, 4])
    }

    func testHeaderOnlyClipHasNoFrames() throws {
        let header = Y4MHeader(width: 2, height: 2, frameRate: Y4MRatio(30, 1), colorSpace: .c444)
        XCTAssertEqual(try Y4MReader.decodeAll(header.serialized()).frames.count, 0)
    }
}

/// Damaged Y4M streams decode whole frames or fail with `MediaDataError`, never crash.
final class Y4MFuzzTests: XCTestCase {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    func testDamagedStreamsNeverCrashTheParser() throws {
        let header = Y4MHeader(
            width: 6, height: 4, frameRate: Y4MRatio(30, 1), colorSpace: .c420jpeg,
            otherTags: ["XYSCSS=420JPEG"])
        let encoder = try Y4MEncoder(header: header, inputFormat: .yuv420p)
        var clean = header.serialized()
        for i in 0..<3 {
            try encoder.append(
                Frame(format: .yuv420p, width: 6, height: 4, data: [UInt8](repeating: UInt8(i), count: 36)),
                to: &clean)
        }
        var rng = Generator(state: 42)
        var whole = 0
        var refused = 0
        for _ in 0..<3000 {
            var bytes = clean
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    bytes[at] = [0x20, 0x0A, 0x3A, 0x30, 0x39, 0x57, 0x48, 0x43][Int.random(in: 0..<8, using: &rng)]
                case 1: bytes.removeSubrange(at...)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: at)
                default: bytes.remove(at: at)
                }
            }
            do {
                let (parsed, frames) = try Y4MReader.decodeAll(bytes)
                for frame in frames {
                    XCTAssertEqual(frame.data.count, parsed.frameByteCount)
                    XCTAssertTrue(frame.isWellFormed)
                }
                whole += 1
            } catch {
                XCTAssertFalse(error.summary.isEmpty)
                refused += 1
            }
        }
        XCTAssertGreaterThan(whole, 50)
        XCTAssertGreaterThan(refused, 50)
    }
}
