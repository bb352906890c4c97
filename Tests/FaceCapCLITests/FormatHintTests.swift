import Foundation
import XCTest

/// Image formats facecap does not read get a way to convert them; a photo given as a clip gets a way to make one.
final class FormatHintTests: ScratchDirectoryTestCase {
    /// Writes a file that starts with `bytes` (a format's signature), padded to look like an image.
    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try write(name, Data(bytes + [UInt8](repeating: 0, count: 64)))
    }

    func testWebPBMPGIFAndTIFFAreNamedWithAConversion() throws {
        let cases: [(String, [UInt8])] = [
            ("WebP", Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
            ("BMP", Array("BM".utf8) + [0x36, 0x10, 0, 0]),
            ("GIF", Array("GIF89a".utf8)),
            ("TIFF", Array("II".utf8) + [0x2A, 0]),
            ("TIFF", Array("MM".utf8) + [0, 0x2A]),
            ("HEIF/HEIC", [0, 0, 0, 0x18] + Array("ftypheic".utf8)),
        ]
        for (name, signature) in cases {
            let path = try write("image.\(name.lowercased().prefix(4))", signature)
            let result = try runFacecap(["analyze", path])
            XCTAssertEqual(result.status, 66, "\(name): \(result.stderr)")
            XCTAssertEqual(
                result.stderr,
                "facecap: \(path): a \(name) image, which facecap does not read (it reads "
                    + "JPEG, PNG, PPM/PGM and .y4m clips); convert it to PNG first, e.g. 'convert IN OUT.png' "
                    + "(ImageMagick) or 'ffmpeg -i IN OUT.png'\n")
            // Given as a clip, the same sentence.
            let replay = try runFacecap(["--plain", "--input", path], stdin: Data())
            XCTAssertEqual(replay.status, 66, "\(name): \(replay.stderr)")
            XCTAssertTrue(replay.stderr.contains("a \(name) image, which facecap does not read"), replay.stderr)
        }
        let unknown = try runFacecap(["analyze", try write("noise.bin", Array("hello".utf8))])
        XCTAssertEqual(unknown.status, 66)
        XCTAssertTrue(unknown.stderr.contains("not a JPEG, PNG, PPM/PGM or Y4M file"), unknown.stderr)
    }

    func testAPhotoGivenAsAClipSaysHowToMakeAClipOfIt() throws {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/sergey.png").path
        let result = try runFacecap(["--plain", "--input", photo], stdin: Data())
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("'ffmpeg -loop 1 -i PHOTO -frames:v 90 -pix_fmt yuv420p OUT.y4m'"),
            result.stderr)
    }
}
