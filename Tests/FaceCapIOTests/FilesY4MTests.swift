import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// `.y4m` files on disk: the writer `facecap record` uses and the streaming reader behind replay/analyze.
final class FilesY4MTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUpWithError() throws { temp = try TemporaryDirectory() }
    override func tearDown() { temp.remove() }

    func patterned(_ format: PixelFormat, _ width: Int, _ height: Int, seed: Int) -> Frame {
        let count = format.byteCount(width: width, height: height)!
        return Frame(
            format: format, width: width, height: height,
            data: (0..<count).map { UInt8(truncatingIfNeeded: $0 * 13 + seed * 7 + $0 / 3) })
    }

    func readAll(_ path: String) throws -> (Y4MHeader, [Frame]) {
        let reader = try Y4MFileReader(path: path)
        var frames: [Frame] = []
        var frame = Frame.empty()
        while try reader.readFrame(into: &frame) { frames.append(frame) }
        return (reader.header, frames)
    }

    func testWriteThenReadEveryFormat() throws {
        // 640×480 4:2:0 frames are larger than the reader's 64 KiB read-ahead, so both paths are used.
        for (format, width, height) in [
            (PixelFormat.yuv420p, 640, 480), (.yuv422p, 33, 25), (.yuv444p, 16, 12),
            (.gray, 7, 5), (.yuyv, 10, 4),
        ] {
            let path = temp.path("\(format).y4m")
            let writer = try Y4MFileWriter(
                path: path, width: width, height: height, format: format, frameRate: 30,
                colorRange: .limited)
            let frames = (0..<4).map { patterned(format, width, height, seed: $0) }
            for frame in frames { try writer.write(frame) }
            try writer.close()
            try writer.close()
            XCTAssertEqual(writer.framesWritten, 4)
            let (header, read) = try readAll(path)
            XCTAssertEqual(header.width, width)
            XCTAssertEqual(header.frameRate, Y4MRatio(30, 1))
            XCTAssertEqual(read.count, 4, "\(format)")
            for (got, want) in zip(read, frames) {
                if format == .yuyv {
                    XCTAssertEqual(got.format, .yuv422p)
                    var back = [UInt8](repeating: 0, count: want.data.count)
                    got.data.withUnsafeBufferPointer { src in
                        back.withUnsafeMutableBufferPointer {
                            PlanarPacking.yuv422pToYUYV(src, width: width, height: height, into: $0)
                        }
                    }
                    XCTAssertEqual(back, want.data)
                } else {
                    XCTAssertEqual(got.format, format)
                    XCTAssertEqual(got.data, want.data, "\(format)")
                }
            }
            var info = stat()
            XCTAssertEqual(stat(path, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600)
        }
    }

    func testRGBIsWrittenAs444() throws {
        let path = temp.path("rgb.y4m")
        let writer = try Y4MFileWriter(
            path: path, width: 2, height: 1, format: .rgb24, frameRate: 29.97, colorRange: .full)
        try writer.write(Frame(format: .rgb24, width: 2, height: 1, colorRange: .full, data: [255, 0, 0, 20, 40, 60]))
        try writer.close()
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).prefix(80), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("YUV4MPEG2 W2 H1 F30000:1001 Ip A1:1 C444 XCOLORRANGE=FULL\nFRAME\n"), text)
        let (_, frames) = try readAll(path)
        var rgb = Frame.empty()
        frames[0].convertToRGB24(into: &rgb)
        for (got, want) in zip(rgb.data, [255, 0, 0, 20, 40, 60] as [UInt8]) {
            XCTAssertLessThanOrEqual(abs(Int(got) - Int(want)), 2)
        }
    }

    func testExistingFileIsReplacedAndMadePrivate() throws {
        let path = try temp.write("old.y4m", Array(repeating: 7, count: 10_000))
        chmod(path, 0o644)
        let writer = try Y4MFileWriter(path: path, width: 2, height: 2, format: .gray, frameRate: 30, colorRange: .full)
        try writer.write(patterned(.gray, 2, 2, seed: 1))
        try writer.close()
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try readAll(path).1.count, 1)
    }

    func testWriterErrors() throws {
        XCTAssertThrowsError(
            try Y4MFileWriter(
                path: temp.path("no/such/dir/x.y4m"), width: 2, height: 2, format: .gray,
                frameRate: 30, colorRange: .full)
        ) { error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .directoryMissing)
            XCTAssertEqual((error as? OutputFileError)?.exitCode, .failure)
        }
        XCTAssertThrowsError(
            try Y4MFileWriter(
                path: temp.url.path, width: 2, height: 2, format: .gray, frameRate: 30,
                colorRange: .full)
        ) { error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .isDirectory)
        }
        // /dev/full accepts the open and fails every write with ENOSPC.
        XCTAssertThrowsError(
            try Y4MFileWriter(
                path: "/dev/full", width: 2, height: 2, format: .gray, frameRate: 30,
                colorRange: .full)
        ) { error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .diskFull)
            XCTAssertEqual(
                (error as? OutputFileError)?.message,
                "/dev/full: the disk is full (or over quota); free some space and try again")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/dev/full"))
        let writer = try Y4MFileWriter(
            path: temp.path("a.y4m"), width: 4, height: 4, format: .yuv420p, frameRate: 30,
            colorRange: .limited)
        XCTAssertThrowsError(try writer.write(patterned(.yuv420p, 4, 2, seed: 0))) { error in
            guard case .frameMismatch = (error as? OutputFileError)?.problem else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try writer.write(patterned(.rgb24, 4, 4, seed: 0)))
    }

    /// What a clip writer refuses is a typed value, worded by the catalogue: a clip shape no clip has, a frame of
    /// another size, a frame after the end.
    func testAWriterSaysWhatItRefusesThroughTheCatalogue() throws {
        let path = temp.path("shape.y4m")
        XCTAssertThrowsError(
            try Y4MFileWriter(path: path, width: 0, height: 2, format: .gray, frameRate: 30, colorRange: .full)
        ) { error in
            XCTAssertEqual(
                (error as? OutputFileError)?.problem, .frameMismatch(.clipShape(width: 0, height: 2, frameRate: 30)))
            XCTAssertEqual(
                (error as? OutputFileError)?.message,
                "\(path): cannot write this frame (0×2 at 30.0 fps is not a valid clip size and rate)")
        }
        let writer = try Y4MFileWriter(
            path: temp.path("a.y4m"), width: 4, height: 4, format: .gray, frameRate: 30, colorRange: .full)
        XCTAssertThrowsError(try writer.write(patterned(.gray, 2, 4, seed: 0))) { error in
            XCTAssertEqual(
                (error as? OutputFileError)?.problem,
                .frameMismatch(
                    .data(
                        .malformed(
                            .frameMismatch(
                                format: .gray, width: 2, height: 4, clip: .gray, clipWidth: 4, clipHeight: 4)))))
        }
        try writer.close()
        XCTAssertThrowsError(try writer.write(patterned(.gray, 4, 4, seed: 0))) { error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .frameMismatch(.writerClosed))
            XCTAssertEqual(
                (error as? OutputFileError)?.message,
                "\(temp.path("a.y4m")): cannot write this frame (the writer is closed)")
        }
    }

    func testDiskFullMidRecordingLeavesWholeFrames() throws {
        let path = temp.path("full.y4m")
        let frameBytes = 64 * 48 * 3 / 2
        let writer = try Y4MFileWriter(
            path: path, width: 64, height: 48, format: .yuv420p, frameRate: 30,
            colorRange: .limited)
        let headerBytes = writer.header.serialized().count
        // A file-size limit (EFBIG, as a full disk would give ENOSPC) halfway through the third frame.
        try withFileSizeLimit(headerBytes + 2 * (frameBytes + 6) + frameBytes / 2) {
            try writer.write(patterned(.yuv420p, 64, 48, seed: 0))
            try writer.write(patterned(.yuv420p, 64, 48, seed: 1))
            XCTAssertThrowsError(try writer.write(patterned(.yuv420p, 64, 48, seed: 2))) { error in
                XCTAssertEqual((error as? OutputFileError)?.problem, .diskFull)
            }
        }
        try writer.close()
        XCTAssertEqual(writer.framesWritten, 2)
        let (_, frames) = try readAll(path)
        XCTAssertEqual(
            frames.map(\.data), [patterned(.yuv420p, 64, 48, seed: 0).data, patterned(.yuv420p, 64, 48, seed: 1).data])
    }

    func testTruncatedLastFrameIsReportedAfterTheWholeOnes() throws {
        let path = temp.path("cut.y4m")
        let writer = try Y4MFileWriter(
            path: path, width: 320, height: 240, format: .yuv420p, frameRate: 25,
            colorRange: .limited)
        for seed in 0..<3 { try writer.write(patterned(.yuv420p, 320, 240, seed: seed)) }
        try writer.close()
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        try full.prefix(full.count - 1000).write(to: URL(fileURLWithPath: path))
        let reader = try Y4MFileReader(path: path)
        var frame = Frame.empty()
        XCTAssertTrue(try reader.readFrame(into: &frame))
        XCTAssertEqual(frame.data, patterned(.yuv420p, 320, 240, seed: 0).data)
        XCTAssertTrue(try reader.readFrame(into: &frame))
        XCTAssertEqual(frame.timestamp, 0.04, accuracy: 1e-9)
        XCTAssertThrowsError(try reader.readFrame(into: &frame)) { error in
            guard let error = error as? InputFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.problem, .data(.truncated(.frameBytes(frame: 2, present: 114200, expected: 115200))))
            XCTAssertEqual(error.exitCode, .noInput)
            XCTAssertEqual(
                error.message,
                "\(path): truncated: frame 2 has 114200 of its 115200 bytes; the file is "
                    + "incomplete, copy or export it again")
        }
        try reader.rewind()
        XCTAssertTrue(try reader.readFrame(into: &frame))
        XCTAssertEqual(frame.data, patterned(.yuv420p, 320, 240, seed: 0).data)
    }

    func testBrokenClipFiles() throws {
        let cases: [(String, [UInt8], InputFileError.Problem)] = [
            ("empty.y4m", [], .data(.empty)),
            (
                "photo.y4m", Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath("crafted/quadrants.jpg")))),
                .data(.wrongKind(.photoNotClip(format: "JPEG")))
            ),
            ("garbage.y4m", Array("garbage".utf8), .data(.unknownFormat)),
            (
                "huge.y4m", Array("YUV4MPEG2 W100000 H100000 F30:1\nFRAME\n".utf8),
                .data(.tooLarge(width: 100000, height: 100000))
            ),
            ("header.y4m", Array("YUV4MPEG2 W4 H4".utf8), .data(.truncated(.headerLine))),
            ("wide.y4m", Array("YUV4MPEG2 W9000 H16 F30:1\n".utf8), .data(.tooLarge(width: 9000, height: 16))),
        ]
        for (name, bytes, problem) in cases {
            let path = try temp.write(name, bytes)
            XCTAssertThrowsError(try Y4MFileReader(path: path), name) { error in
                XCTAssertEqual((error as? InputFileError)?.problem, problem, name)
            }
        }
        XCTAssertEqual(
            MediaDataError.wrongKind(.photoNotClip(format: "JPEG")).summary,
            "a JPEG photo, not a .y4m clip; analyse photos with 'facecap analyze', or make a "
                + "3-second clip of it with 'ffmpeg -loop 1 -i PHOTO -frames:v 90 -pix_fmt yuv420p OUT.y4m' "
                + "(from a video: 'ffmpeg -i VIDEO -pix_fmt yuv420p OUT.y4m'; from a camera: 'facecap record')")
        XCTAssertThrowsError(try Y4MFileReader(path: temp.path("missing.y4m"))) { error in
            XCTAssertEqual((error as? InputFileError)?.problem, .missing)
        }
        let noFrame = try temp.write("noframe.y4m", Array("YUV4MPEG2 W2 H2 Cmono\nFRAMX\n1234".utf8))
        let reader = try Y4MFileReader(path: noFrame)
        var frame = Frame.empty()
        XCTAssertThrowsError(try reader.readFrame(into: &frame)) { error in
            XCTAssertEqual((error as? InputFileError)?.problem, .data(.malformed(.frameWord(frame: 0))))
        }
    }

    func testAHeaderPromisingHugeFramesIsCaughtBeforeAllocatingOne() throws {
        // 8192×4320 4:4:4 frames of 106 MB each, in a file of a few bytes.
        let path = try temp.write("promise.y4m", Array("YUV4MPEG2 W8192 H4320 F30:1 C444\nFRAME\n".utf8) + [1, 2, 3])
        let reader = try Y4MFileReader(path: path)
        var frame = Frame.empty()
        XCTAssertThrowsError(try reader.readFrame(into: &frame)) { error in
            XCTAssertEqual(
                (error as? InputFileError)?.problem,
                .data(.truncated(.frameBytes(frame: 0, present: 3, expected: 106_168_320))))
        }
        XCTAssertEqual(frame.data.count, 0, "nothing was allocated for the frame")
    }

    func testFFmpegClipStreamsLikeInMemory() throws {
        let path = fixturePath("clips/ffmpeg-420.y4m")
        let (header, frames) = try readAll(path)
        let memory = try Y4MReader.decodeAll(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(header, memory.header)
        XCTAssertEqual(frames.map(\.data), memory.frames.map(\.data))
    }
}

/// Runs `body` with RLIMIT_FSIZE set to `bytes` (writes beyond fail with EFBIG; SIGXFSZ ignored meanwhile).
func withFileSizeLimit(_ bytes: Int, _ body: () throws -> Void) throws {
    var old = rlimit()
    getrlimit(fileSizeLimit, &old)
    let oldHandler = signal(SIGXFSZ, SIG_IGN)
    var limit = old
    limit.rlim_cur = rlim_t(bytes)
    setrlimit(fileSizeLimit, &limit)
    defer {
        setrlimit(fileSizeLimit, &old)
        signal(SIGXFSZ, oldHandler)
    }
    try body()
}

#if canImport(Glibc)
import Glibc
let fileSizeLimit = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#endif
