import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// The photo writer: quality, no metadata, round trip through our decoder, atomic 0600 writes and
/// failures that leave nothing behind.
final class ImageJPEGWriteTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUpWithError() throws { temp = try TemporaryDirectory() }
    override func tearDown() { temp.remove() }

    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let mse = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
        return 10 * log10(255 * 255 / max(mse, 1e-12))
    }

    func testRoundTripKeepsThePhoto() throws {
        let photo = try ImageFile.read(path: fixturePath("sergey.png"))
        let bytes = try JPEGFile.encode(photo)
        let decoded = try ImageFile.decode(bytes)
        XCTAssertEqual([decoded.width, decoded.height], [600, 600])
        XCTAssertEqual(decoded.format, .rgb24)
        let quality = psnr(decoded.data, photo.data)
        XCTAssertGreaterThan(quality, 38, "PSNR \(quality) dB at quality \(JPEGFile.photoQuality)")
        // Lower quality really is lower: the setting reaches libjpeg.
        let rough = try ImageFile.decode(try JPEGFile.encode(photo, quality: 30))
        XCTAssertLessThan(psnr(rough.data, photo.data), quality - 3)
    }

    func testNoMetadataBeyondJFIF() throws {
        let photo = try ImageFile.read(path: fixturePath("dino.jpg"))  // its source has EXIF and XMP
        var small = Frame.empty()
        photo.resize(width: 320, height: 189, into: &small)
        let bytes = try JPEGFile.encode(small)
        XCTAssertEqual(Array(bytes.prefix(4)), [0xFF, 0xD8, 0xFF, 0xE0], "SOI then the JFIF APP0")
        XCTAssertEqual(Array(bytes[6..<10]), Array("JFIF".utf8))
        // Walk the markers up to the image data: only APP0, quantisation, Huffman tables, SOF0 and SOS.
        var markers: [UInt8] = []
        var i = 2
        while i + 3 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        XCTAssertEqual(Set(markers), [0xE0, 0xDB, 0xC4, 0xC0, 0xDA])
    }

    func testEveryFrameFormatEncodes() throws {
        let gray = Frame(format: .gray, width: 16, height: 8, colorRange: .full, data: (0..<128).map { UInt8($0 * 2) })
        let grayJPEG = try ImageFile.decode(try JPEGFile.encode(gray))
        XCTAssertEqual(grayJPEG.format, .gray)
        XCTAssertGreaterThan(psnr(grayJPEG.data, gray.data), 35)
        // Limited-range grey is stretched before encoding: Y 16 → 0, 235 → 255.
        let limited = Frame(
            format: .gray, width: 16, height: 16, colorRange: .limited,
            data: [UInt8](repeating: 16, count: 128) + [UInt8](repeating: 235, count: 128))
        let stretched = try ImageFile.decode(try JPEGFile.encode(limited))
        XCTAssertLessThanOrEqual(stretched.data[0], 2)
        XCTAssertGreaterThanOrEqual(stretched.data[255], 253)
        // A YUYV camera frame (mid grey, neutral chroma) comes out as RGB grey.
        let yuyv = Frame(
            format: .yuyv, width: 16, height: 8,
            data: [UInt8](repeating: 0, count: 256).enumerated().map {
                $0.offset % 2 == 0 ? 126 : 128
            })
        let fromCamera = try ImageFile.decode(try JPEGFile.encode(yuyv))
        XCTAssertEqual(fromCamera.format, .rgb24)
        XCTAssertTrue(fromCamera.data.allSatisfy { abs(Int($0) - 128) <= 2 })
        XCTAssertThrowsError(try JPEGFile.encode(Frame.empty()))
    }

    func testAtomicWriteIsPrivateAndLeavesNoTemporaryFile() throws {
        let photo = Frame(
            format: .rgb24, width: 32, height: 24, colorRange: .full,
            data: (0..<(32 * 24 * 3)).map { UInt8($0 % 251) })
        let path = temp.path("facecap-20261130-001500.jpg")
        umask(0o022)
        try JPEGFile.write(photo, to: path)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try ImageFile.read(path: path).width, 32)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: temp.url.path), ["facecap-20261130-001500.jpg"])
        // Replacing keeps the same guarantees.
        try AtomicFile.write(Array("{}".utf8), to: path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("{}".utf8))
        // A relative path writes in the current directory.
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(temp.url.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }
        try AtomicFile.write([1, 2, 3], to: "relative.bin")
        XCTAssertEqual(try Data(contentsOf: temp.url.appendingPathComponent("relative.bin")), Data([1, 2, 3]))
    }

    func testFailuresLeaveNoPartialFile() throws {
        let photo = try ImageFile.read(path: fixturePath("sergey.png"))
        XCTAssertThrowsError(try JPEGFile.write(photo, to: temp.path("missing/photo.jpg"))) { error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .directoryMissing)
            XCTAssertEqual(
                (error as? OutputFileError)?.message,
                temp.path("missing/photo.jpg")
                    + ": the folder does not exist; create it or choose another with --output")
        }
        XCTAssertThrowsError(try JPEGFile.write(photo, to: temp.url.path)) { error in
            XCTAssertEqual((error as? OutputFileError)?.problem, .isDirectory)
        }
        // Disk full (a file-size limit gives EFBIG): the old photo stays whole, no temporary file remains.
        let path = temp.path("photo.jpg")
        try AtomicFile.write(Array("previous".utf8), to: path)
        try withFileSizeLimit(4096) {
            XCTAssertThrowsError(try JPEGFile.write(photo, to: path)) { error in
                XCTAssertEqual((error as? OutputFileError)?.problem, .diskFull)
                XCTAssertEqual((error as? OutputFileError)?.exitCode, .failure)
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("previous".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.url.path), ["photo.jpg"])
        if getuid() != 0 {
            let locked = temp.path("locked")
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            chmod(locked, 0o500)
            XCTAssertThrowsError(try JPEGFile.write(photo, to: locked + "/p.jpg")) { error in
                XCTAssertEqual((error as? OutputFileError)?.problem, .permissionDenied)
            }
            chmod(locked, 0o700)
        }
    }
}
