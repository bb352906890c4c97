import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// The built-in validator on real photos through the real face models (the fixtures, and variants of
/// them built here: turned, darkened, shrunk, blurred, doubled), the built-in checker through the
/// worker, and the photo's JPEG.
final class BuiltInValidatorTests: XCTestCase {
    private func checker(_ validator: LocalValidator = LocalValidator()) throws -> BuiltInChecker {
        let models = try FaceModelsFixture.models()
        // With every model, as the wizard reads its photos.
        return try BuiltInChecker(
            detector: models.detector, landmarks: models.landmarks, iris: models.iris,
            hand: models.hand, palm: models.palm, validator: validator)
    }

    private func photo(_ name: String) throws -> Frame {
        try ImageFile.read(path: fixturePath(name))
    }

    /// The assessment of `frame` as the checker makes it (its own tracker, the full-resolution frame).
    private func assess(_ frame: Frame, validator: LocalValidator = LocalValidator()) throws
        -> LocalValidator.Assessment
    {
        let models = try FaceModelsFixture.models()
        let tracker = try FaceTracker(detector: models.detector, landmarks: models.landmarks, iris: models.iris)
        return validator.assess(frame, faces: tracker.process(frame))
    }

    // MARK: Variants of a photo

    /// `frame` (rgb24) turned `degrees` clockwise about its centre, the corners filled with mid-grey.
    private func rotated(_ frame: Frame, _ degrees: Double) -> Frame {
        let angle = degrees * .pi / 180, (c, s) = (cos(angle), sin(angle))
        let cx = Double(frame.width) / 2, cy = Double(frame.height) / 2
        var data = [UInt8](repeating: 128, count: frame.data.count)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let sx = Int((c * dx + s * dy + cx).rounded(.down)), sy = Int((-s * dx + c * dy + cy).rounded(.down))
                guard sx >= 0, sy >= 0, sx < frame.width, sy < frame.height else { continue }
                for k in 0..<3 { data[(y * frame.width + x) * 3 + k] = frame.data[(sy * frame.width + sx) * 3 + k] }
            }
        }
        var out = frame
        out.data = data
        return out
    }

    private func scaled(_ frame: Frame, gain: Double) -> Frame {
        var out = frame
        out.data = frame.data.map { UInt8(min(255, (Double($0) * gain).rounded())) }
        return out
    }

    private func resized(_ frame: Frame, width: Int, height: Int) -> Frame {
        var out = Frame.empty()
        frame.resize(width: width, height: height, into: &out)
        return out
    }

    /// Three passes of a (2r+1)² box blur: about a Gaussian of σ ≈ r.
    private func blurred(_ frame: Frame, radius: Int) -> Frame {
        var data = frame.data.map(Int.init)
        let w = frame.width, h = frame.height
        for _ in 0..<3 {
            for (dx, dy) in [(1, 0), (0, 1)] {
                var next = data
                for y in 0..<h {
                    for x in 0..<w {
                        for k in 0..<3 {
                            var sum = 0, count = 0
                            for d in -radius...radius {
                                let xx = x + d * dx, yy = y + d * dy
                                guard xx >= 0, yy >= 0, xx < w, yy < h else { continue }
                                sum += data[(yy * w + xx) * 3 + k]
                                count += 1
                            }
                            next[(y * w + x) * 3 + k] = sum / count
                        }
                    }
                }
                data = next
            }
        }
        var out = frame
        out.data = data.map { UInt8($0) }
        return out
    }

    /// Two copies of `frame` side by side: two people in the photo.
    private func twice(_ frame: Frame) -> Frame {
        var data: [UInt8] = []
        let row = frame.width * 3
        for y in 0..<frame.height {
            let line = frame.data[(y * row)..<((y + 1) * row)]
            data += line
            data += line
        }
        return Frame(format: .rgb24, width: frame.width * 2, height: frame.height, colorRange: .full, data: data)
    }

    // MARK: Tests

    func testTheFixturePhotosPass() throws {
        let sergey = try assess(try photo("sergey.png"))
        XCTAssertEqual(sergey.reasons, [], "sergey.png: \(sergey.metrics)")
        XCTAssertEqual(sergey.interEyeDistance ?? 0, 144, accuracy: 2)
        let grace = try assess(try photo("images/grace_hopper.jpg"))
        XCTAssertEqual(grace.reasons, [], "grace_hopper.jpg: \(grace.metrics)")
        XCTAssertEqual(grace.interEyeDistance ?? 0, 86, accuracy: 2)
    }

    func testVariantsOfAGoodPhotoFailForTheirReasons() throws {
        let sergey = try photo("sergey.png")
        XCTAssertEqual(try assess(rotated(sergey, 16)).reasons, ["keepHeadLevel"])
        XCTAssertEqual(try assess(rotated(sergey, -16)).reasons, ["keepHeadLevel"])
        XCTAssertEqual(try assess(rotated(sergey, 5)).reasons, [], "a slight tilt is fine")
        XCTAssertEqual(try assess(scaled(sergey, gain: 0.45)).reasons, ["tooDark"])
        // Eyes 144 px apart at 600 px: at 260 px they are 62 apart (passes), at 240 px 57 (too few pixels).
        XCTAssertEqual(try assess(resized(sergey, width: 260, height: 260)).reasons, [])
        let small = try assess(resized(sergey, width: 240, height: 240))
        XCTAssertEqual(small.reasons, ["moveCloser"])
        XCTAssertLessThan(small.interEyeDistance ?? 99, 60)
        // At 300 px the sharp face reads 523; a box blur of radius 2 (σ ≈ 2 px) reads 34.
        let half = resized(sergey, width: 300, height: 300)
        XCTAssertEqual(try assess(half).reasons, [])
        XCTAssertEqual(try assess(blurred(half, radius: 2)).reasons, ["blurry"])
        XCTAssertEqual(try assess(twice(sergey)).reasons, ["multipleFaces"])
        XCTAssertEqual(try assess(try photo("dino.jpg")).reasons, ["noFace"])
        // A pose limit of 0.5° refuses sergey's −0.6° yaw, as a turned head would be.
        var strict = AnalyzerThresholds()
        strict.maxYaw = 0.5
        strict.maxPitch = 90
        XCTAssertEqual(try assess(sergey, validator: LocalValidator(thresholds: strict)).reasons, ["lookStraight"])
    }

    /// `left` left of column `split`, `right` from it on (two photos of one geometry).
    private func joined(_ left: Frame, _ right: Frame, at split: Int) -> Frame {
        var out = left
        for y in 0..<left.height {
            let start = (y * left.width + split) * 3, end = (y + 1) * left.width * 3
            out.data.replaceSubrange(start..<end, with: right.data[start..<end])
        }
        return out
    }

    func testOneEyeClosedIsRefusedAsEyesClosed() throws {
        // A wink: one eye from the closed-eyes photo, the other from the open one (same geometry), either way.
        let open = try photo("sergey.png"), closed = try photo("eyes/sergey_closed.jpg")
        XCTAssertEqual(open.width, closed.width)
        XCTAssertEqual(try assess(closed).reasons, ["eyesClosed"])
        for (name, wink) in [
            ("image-left eye closed", joined(closed, open, at: open.width / 2)),
            ("image-right eye closed", joined(open, closed, at: open.width / 2)),
        ] {
            let assessment = try assess(wink)
            XCTAssertEqual(assessment.reasons, ["eyesClosed"], "\(name): \(assessment.metrics)")
        }
    }

    func testTheBuiltInCheckerThroughTheWorker() throws {
        let worker = try ValidationWorker(checker: try checker())
        defer { worker.shutdown() }
        let sergey = try photo("sergey.png")
        let report = try ValidationFixtures.photo().report
        let good = try CapturedPhoto(frame: sergey, report: report)
        let passed = ValidationFixtures.run(worker, good, ValidationRequest(attempt: 1, isFinal: false))
        XCTAssertEqual(passed.outcome, .verdict(ValidationVerdict(result: .pass)))
        XCTAssertEqual(passed.progress.last, 1)
        XCTAssertFalse(passed.progress.isEmpty)
        let dark = try CapturedPhoto(frame: scaled(sergey, gain: 0.45), report: report)
        XCTAssertEqual(
            ValidationFixtures.run(worker, dark, ValidationRequest(attempt: 2, isFinal: false)).outcome,
            .verdict(ValidationVerdict(result: .retry, reasons: ["tooDark"])))
        // The last attempt: the failure is a manual review.
        XCTAssertEqual(
            ValidationFixtures.run(worker, dark, ValidationRequest(attempt: 3, isFinal: true)).outcome,
            .verdict(ValidationVerdict(result: .manualReview, reasons: ["tooDark"])))
        // Its tracker starts afresh per photo: the good photo after the dark one passes again.
        XCTAssertEqual(
            ValidationFixtures.run(worker, good, ValidationRequest(attempt: 1, isFinal: false)).outcome,
            .verdict(ValidationVerdict(result: .pass)))
    }

    func testThePhotoJPEGIsFullSizeUnmirroredHighQualityAndWithoutEXIF() throws {
        // A camera-like YUYV frame: bright left half, dark right half, so a mirror would show.
        let width = 1280, height = 720
        var data = [UInt8](repeating: 128, count: width * height * 2)
        for y in 0..<height {
            for x in 0..<width { data[(y * width + x) * 2] = x < width / 2 ? 200 : 40 }
        }
        let frame = Frame(format: .yuyv, width: width, height: height, colorRange: .limited, data: data)
        let photo = try CapturedPhoto(frame: frame, report: try ValidationFixtures.photo().report)
        let decoded = try ImageFile.decode(photo.jpeg)
        XCTAssertEqual([decoded.width, decoded.height], [width, height])
        XCTAssertGreaterThan(pixel(decoded, 10, 10)[0], 200, "the bright half stays on the left")
        XCTAssertLessThan(pixel(decoded, width - 10, 10)[0], 40)
        // Only JFIF's APP0 before the image: no APP1 (EXIF/XMP) or any other application segment.
        let markers = Self.markers(photo.jpeg)
        XCTAssertEqual(markers.first, 0xE0)
        XCTAssertFalse(markers.contains(0xE1), "no APP1")
        XCTAssertTrue(markers.allSatisfy { !(0xE1...0xEF).contains($0) && $0 != 0xFE }, "\(markers)")
        // Quality ≥ 90: every quantisation step at most the one libjpeg uses at quality 90.
        XCTAssertGreaterThanOrEqual(JPEGFile.photoQuality, 90)
        let at90 = Self.quantisation(try JPEGFile.encode(frame, quality: 90))
        let ours = Self.quantisation(photo.jpeg)
        XCTAssertEqual(ours.count, at90.count)
        XCTAssertFalse(ours.isEmpty)
        XCTAssertTrue(zip(ours, at90).allSatisfy { $0 <= $1 })
        XCTAssertLessThan(ours.reduce(0, +), at90.reduce(0, +))
    }

    /// The marker codes up to the start of scan.
    static func markers(_ bytes: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = []
        var i = 2
        while i + 3 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return markers
    }

    /// The 8-bit quantisation tables' entries, in file order.
    static func quantisation(_ bytes: [UInt8]) -> [Int] {
        var values: [Int] = []
        var i = 2
        while i + 3 < bytes.count, bytes[i] == 0xFF, bytes[i + 1] != 0xDA {
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if bytes[i + 1] == 0xDB {
                var j = i + 4
                while j < i + 2 + length {
                    let precision = bytes[j] >> 4
                    let count = precision == 0 ? 64 : 128
                    if precision == 0 { values += bytes[(j + 1)..<(j + 65)].map(Int.init) }
                    j += 1 + count
                }
            }
            i += 2 + length
        }
        return values
    }
}

/// The report's model digests: SHA-256 against known vectors and the sums `make models` checks.
final class ModelDigestTests: XCTestCase {
    func testSHA256MatchesKnownDigests() {
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            SHA256.hex(Array("abc".utf8)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks, and a length where the padding spills into a block of its own.
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testTheModelDigestsAreTheVerifiedOnes() throws {
        let sums = try String(
            contentsOf: fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Resources/models.sha256"), encoding: .utf8)
        let expected = Dictionary(
            uniqueKeysWithValues: sums.split(separator: "\n").map {
                let fields = $0.split(separator: " ", omittingEmptySubsequences: true)
                return (String(fields[1]), String(fields[0]))
            })
        let digests = try ModelFiles.digests()
        XCTAssertEqual(
            digests.map(\.file),
            [
                ModelFiles.detector, ModelFiles.landmarks, ModelFiles.iris, ModelFiles.hand,
                ModelFiles.palm,
            ])
        for digest in digests { XCTAssertEqual(digest.sha256, expected[digest.file], digest.file) }
    }
}
