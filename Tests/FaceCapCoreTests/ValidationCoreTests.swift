import Foundation
import XCTest

@testable import FaceCapCore

/// The pure half of validation: the server reply contract, the multipart body, the JSON reader, the
/// validator's thresholds and checks (on sergey's golden face moved by construction), and the report.
final class ValidationCoreTests: XCTestCase {
    // MARK: Server replies

    private func reply(
        _ status: Int, _ body: String, headers: [(String, String)] = [],
        now: Double? = nil
    ) -> ValidationOutcome {
        ServerReply.parse(status: status, headers: headers, body: Array(body.utf8), now: now)
    }

    func testA200WithTheContractsJSONIsAVerdict() {
        XCTAssertEqual(
            reply(200, #"{"result":"pass","reasons":[],"message":"Welcome"}"#),
            .verdict(ValidationVerdict(result: .pass, reasons: [], message: "Welcome")))
        XCTAssertEqual(
            reply(200, #" {"result": "retry", "reasons": ["tooDark", "eyesClosed"]} "#),
            .verdict(ValidationVerdict(result: .retry, reasons: ["tooDark", "eyesClosed"])))
        XCTAssertEqual(
            reply(200, #"{"result":"manualReview","reasons":null,"message":null,"extra":{"a":[1]}}"#),
            .verdict(ValidationVerdict(result: .manualReview)))
        // Server text is cleaned: no terminal escapes, one line, bounded.
        let long = String(repeating: "x", count: 500)
        let body = #"{"result":"retry","reasons":["a\u001b[31mb"],"message":"line\n\u001b]0;t\u0007two  \#(long)"}"#
        guard case .verdict(let v) = reply(200, body) else {
            return XCTFail("not a verdict")
        }
        XCTAssertEqual(v.reasons, ["ab"], "the whole escape sequence goes, not only its ESC")
        XCTAssertTrue(v.message!.hasPrefix("line two xxx"), v.message!)
        XCTAssertEqual(v.message!.count, ServerReply.maxMessageLength + 1)
        XCTAssertTrue(v.message!.hasSuffix("…"))
        XCTAssertEqual(
            ServerReply.sanitise("a\u{1B}[2Jb\u{9B}1;31mc\u{1B}P1$r\u{1B}\\d\u{1B}7e\u{1B}]8;;x\u{9C}f", limit: 50),
            "abcdef", "CSI, C1 CSI, DCS to ST, ESC 7, OSC to C1 ST")
    }

    func testA200ThatIsNotTheContractIsAServerErrorNeverACrash() {
        let bodies = [
            "", "garbage", "[]", "{}", #"{"result":"ok"}"#, #"{"result":1}"#,
            #"{"result":"pass","reasons":"tooDark"}"#, #"{"result":"pass","reasons":[1]}"#,
            #"{"result":"pass","message":3}"#, #"{"result":"pass"} trailing"#,
            String(repeating: "[", count: 10_000), #"{"result":"pass\ud800"}"#, "\u{FEFF}{}",
        ]
        for body in bodies {
            guard case .unreachable(let reason, nil) = reply(200, body) else {
                XCTFail("\(body.prefix(40)) → \(reply(200, body))")
                continue
            }
            XCTAssertTrue(
                reason.text.hasPrefix("the server's reply is not the JSON the contract asks for ("), reason.text)
        }
        XCTAssertEqual(
            reply(200, #"{"result":"ok"}"#),
            .unreachable(
                reason: .notContract(problem: #""result" is "ok""#), retryAfter: nil))
        XCTAssertEqual(
            reply(200, ""),
            .unreachable(
                reason: .notContract(problem: "empty body"), retryAfter: nil))
        let huge = [UInt8](repeating: 0x20, count: ServerReply.maxReplyBytes + 1)
        XCTAssertEqual(
            ServerReply.parse(status: 200, headers: [], body: huge),
            .unreachable(reason: .replyTooLarge(limit: "1 MB"), retryAfter: nil))
    }

    func testServerErrorsAndBusyAreUnreachableWithRetryAfter() {
        XCTAssertEqual(
            reply(503, "down for maintenance", headers: [("Retry-After", " 7 ")]),
            .unreachable(reason: .serverError(status: 503, message: "down for maintenance"), retryAfter: 7))
        XCTAssertEqual(
            reply(429, "", headers: [("retry-after", "120")]),
            .unreachable(reason: .busy, retryAfter: 120))
        XCTAssertEqual(
            reply(500, "<html><body>Oops</body></html>"),
            .unreachable(reason: .serverError(status: 500, message: nil), retryAfter: nil))
        // An HTTP-date, relative to now; a date in the past means "now"; junk is ignored.
        let now = 784_111_777.0  // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(ServerReply.parseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT", now: now), 30)
        XCTAssertEqual(ServerReply.parseRetryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0)
        XCTAssertNil(ServerReply.parseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT", now: nil))
        XCTAssertNil(ServerReply.parseRetryAfter("soon", now: now))
        XCTAssertNil(ServerReply.parseRetryAfter("-5", now: now))
        XCTAssertEqual(ServerReply.parseRetryAfter("99999999999999999999999", now: nil), 86_400)
        XCTAssertEqual(
            reply(204, ""),
            .unreachable(
                reason: .unexpectedStatus(204),
                retryAfter: nil))
    }

    func testOther4xxAreRefusedWithTheServersMessageOrWhatToCheck() {
        XCTAssertEqual(
            reply(400, #"{"message":"photo part missing"}"#),
            .refused(status: 400, message: "photo part missing"))
        XCTAssertEqual(reply(422, "Face\tnot\r\naccepted\u{7}"), .refused(status: 422, message: "Face not accepted"))
        XCTAssertEqual(
            reply(401, ""),
            .refused(status: 401, message: "the server refused the request (HTTP 401); check FACECAP_TOKEN"))
        // A text without a word in it is no message: what to check instead (not an empty clause on standard error).
        XCTAssertEqual(
            reply(422, #"{"message":" . "}"#),
            .refused(status: 422, message: "the server refused the request (HTTP 422)"))
        XCTAssertEqual(reply(422, "-"), .refused(status: 422, message: "the server refused the request (HTTP 422)"))
        XCTAssertEqual(
            reply(404, "<!DOCTYPE html><h1>Not Found</h1>"),
            .refused(
                status: 404,
                message: "no validation endpoint at this address (HTTP 404); check --server"))
        XCTAssertEqual(
            reply(308, "", headers: [("Location", "https://example.org/v2")]),
            .refused(
                status: 308,
                message: "the server redirects to https://example.org/v2; give the final "
                    + "address with --server"))
        guard case .refused(_, let message) = reply(403, String(repeating: "é", count: 1000)) else {
            return XCTFail("403 not refused")
        }
        XCTAssertLessThanOrEqual(message.count, ServerReply.maxMessageLength + 1)
    }

    // MARK: JSON reader

    func testTheJSONReaderFollowsTheGrammar() {
        XCTAssertEqual(
            JSONValue.parse(Array(#"{"a":[1,-2.5e2,true,false,null,"x\"\u00e9\ud83d\ude00"]}"#.utf8)),
            .object([
                (
                    "a",
                    .array([
                        .number(1), .number(-250), .bool(true), .bool(false), .null,
                        .string("x\"é😀"),
                    ])
                )
            ]))
        for bad in ["01", "1.", ".5", "+1", "[1,]", "{\"a\"}", "\"\u{1}\"", "nul", "[", "\"\\x\"", "1 2", "inf"] {
            XCTAssertNil(JSONValue.parse(Array(bad.utf8)), bad)
        }
        XCTAssertNil(JSONValue.parse([0x22, 0xFF, 0x22]), "invalid UTF-8 in a string")
        func nested(_ depth: Int) -> [UInt8] {
            Array((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
        }
        XCTAssertNil(JSONValue.parse(nested(JSONValue.maxDepth + 1)))
        XCTAssertNotNil(JSONValue.parse(nested(JSONValue.maxDepth)))
        XCTAssertEqual(JSONValue.parse(Array("0".utf8)), .number(0))
        XCTAssertEqual(JSONValue.parse(Array("-0.5".utf8)), .number(-0.5))
    }

    // MARK: Multipart

    func testTheMultipartBodyHasBothPartsAndRefusesABoundaryInsideThem() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0x00, 0x0D, 0x0A, 0xFF, 0xD9]
        let body = try XCTUnwrap(
            MultipartBody.photoAndReport(
                jpeg: jpeg, report: Array("{}\n".utf8),
                boundary: "facecap-0123abcd"))
        XCTAssertEqual(body.contentType, "multipart/form-data; boundary=facecap-0123abcd")
        let expected: [UInt8] =
            Array(
                """
                --facecap-0123abcd\r
                Content-Disposition: form-data; name="photo"; filename="photo.jpg"\r
                Content-Type: image/jpeg\r
                \r

                """.utf8) + jpeg
            + Array(
                """
                \r
                --facecap-0123abcd\r
                Content-Disposition: form-data; name="report"; filename="report.json"\r
                Content-Type: application/json\r
                \r
                {}

                """.utf8) + Array("\r\n--facecap-0123abcd--\r\n".utf8)
        XCTAssertEqual(body.bytes, expected)
        XCTAssertNil(MultipartBody.photoAndReport(jpeg: Array("xxfacecap-1yy".utf8), report: [], boundary: "facecap-1"))
        XCTAssertNil(MultipartBody(parts: [], boundary: "bad boundary"))
        XCTAssertNil(MultipartBody(parts: [], boundary: String(repeating: "a", count: 71)))
        let named = MultipartBody(
            parts: [.init(name: "a\"b", filename: "x\r\ny", contentType: "text/plain", data: [])],
            boundary: "b")
        XCTAssertTrue(String(decoding: named!.bytes, as: UTF8.self).contains(#"name="a%22b"; filename="x%0D%0Ay""#))
    }

    // MARK: One gate: the validator's limits are live guidance's

    func testTheValidatorsLimitsAreTheOneTableAndTheFarLimitsOnlyChooseWords() throws {
        let a = AnalyzerThresholds()
        XCTAssertEqual(LocalValidator().thresholds, a)
        XCTAssertEqual([a.maxYaw, a.maxPitch, a.maxRoll], [15, 15, 12])
        XCTAssertEqual(
            [a.minFaceLuma, a.maxFaceLuma, a.maxDarkFraction, a.maxBrightFraction, a.minLightBalance],
            [60, 205, 0.40, 0.05, 0.5])
        XCTAssertEqual([a.minSharpness, a.minInterEyeDistance, a.minEdgeMargin], [150, 60, 0.02])
        XCTAssertEqual([a.secondFaceMinScore, a.secondFaceMinRelativeWidth], [0.5, 0.25])
        // The far band only picks the gentler or the plain words.
        XCTAssertEqual(
            [
                a.farMinFaceLuma, a.farMaxFaceLuma, a.farMaxDarkFraction, a.farMaxBrightFraction,
                a.farMinLightBalance, a.farMaxYaw, a.farMaxPitch, a.farMaxRoll,
            ],
            [45, 220, 0.50, 0.08, 0.40, 20, 20, 16])
        XCTAssertLessThan(a.farMinFaceLuma, a.minFaceLuma)
        XCTAssertGreaterThan(a.farMaxFaceLuma, a.maxFaceLuma)
        XCTAssertLessThan(a.farMinLightBalance, a.minLightBalance)
        XCTAssertGreaterThan(a.farMaxRoll, a.maxRoll)
        // A thresholds file moves both: the validator is built from the same value.
        let custom = try AnalyzerThresholds(json: #"{"maxYaw": 12, "minInterEyeDistance": 80}"#)
        XCTAssertEqual([LocalValidator(thresholds: custom).thresholds.maxYaw, custom.minInterEyeDistance], [12, 80])
    }

    // MARK: The validator on sergey's golden face, placed by construction

    private func assess(
        _ placement: AnalysisFixtures.Placement, width: Int = 640, height: Int = 480,
        thresholds: AnalyzerThresholds = AnalyzerThresholds(),
        edit: (inout Face) -> Void = { _ in }
    ) -> LocalValidator.Assessment {
        var (frame, face) = AnalysisFixtures.frame(placement, width: width, height: height)
        edit(&face)
        return LocalValidator(thresholds: thresholds).assess(frame, faces: [face])
    }

    func testAGoodPhotoPassesAndEachFaultGivesItsReason() {
        let good = assess(.init(faceWidth: 0.4))
        XCTAssertEqual(good.reasons, [], "\(good.metrics)")
        XCTAssertEqual(good.verdict(isFinal: false), ValidationVerdict(result: .pass))
        XCTAssertGreaterThan(good.interEyeDistance ?? 0, 60)

        XCTAssertEqual(assess(.init(faceWidth: 0.4, degrees: 16)).reasons, ["keepHeadLevel"])
        XCTAssertEqual(assess(.init(faceWidth: 0.4, gain: 0.5)).reasons, ["tooDark"])
        XCTAssertEqual(assess(.init(faceWidth: 0.4, gain: 1.9, offset: 30)).reasons, ["tooBright"])
        XCTAssertEqual(assess(.init(faceWidth: 0.4, blurRadius: 4)).reasons, ["blurry"])
        // A small face: its eyes are fewer than 60 px apart.
        let small = assess(.init(faceWidth: 0.14))
        XCTAssertEqual(small.reasons, ["moveCloser"])
        XCTAssertLessThan(small.interEyeDistance!, 60)
        // Cut by the right edge.
        XCTAssertTrue(assess(.init(faceWidth: 0.4, centreX: 0.9)).reasons.starts(with: ["faceNotVisible"]))
        // No face, and a face the landmark model did not confirm.
        var (frame, _) = AnalysisFixtures.frame(.init())
        XCTAssertEqual(LocalValidator().assess(frame, faces: []).reasons, ["noFace"])
        XCTAssertEqual(assess(.init(faceWidth: 0.4)) { $0.landmarks = nil }.reasons, ["faceUnclear"])
        frame.data.removeLast(10)
        XCTAssertEqual(LocalValidator().assess(frame, faces: []).reasons, ["photoUnusable"])
    }

    func testPoseEyesAndSecondFacesUseTheValidatorsStricterLimits() {
        // Yaw/pitch and eyes are measured from landmarks: bend them as a turned head or shut lids would.
        var t = AnalyzerThresholds()
        t.maxYaw = 0.1
        XCTAssertEqual(assess(.init(faceWidth: 0.4), thresholds: t).reasons, ["lookStraight"])
        t = AnalyzerThresholds()
        t.minEyeAspectRatio = 0.3  // above sergey's 0.25: the eyes now count as closed
        XCTAssertEqual(assess(.init(faceWidth: 0.4), thresholds: t).reasons, ["eyesClosed"])
        // Lids together on one eye only: the validator wants both open (the analyzer one).
        let oneShut = assess(.init(faceWidth: 0.4)) { face in
            var p = face.landmarks!.points
            for (upper, lower) in [(160, 144), (158, 153)] { p[upper] = p[lower] }
            face.landmarks!.points = p
        }
        XCTAssertEqual(oneShut.reasons, ["eyesClosed"])
        // A second face a third as wide counts for the validator (the analyzer waits for 40 %).
        let (frame, face) = AnalysisFixtures.frame(.init(faceWidth: 0.4))
        var other = face
        other.landmarks = nil
        other.detection.box.width = face.detection.box.width / 3
        other.detection.box.height = face.detection.box.height / 3
        other.detection.score = 0.55
        XCTAssertEqual(LocalValidator().assess(frame, faces: [face, other]).reasons, ["multipleFaces"])
        other.detection.score = 0.45
        XCTAssertEqual(LocalValidator().assess(frame, faces: [face, other]).reasons, [])
        // A detection the landmark model did not confirm is no face at all.
        other.detection.score = 0.9
        other.isRejected = true
        XCTAssertEqual(LocalValidator().assess(frame, faces: [face, other]).reasons, [])
        XCTAssertEqual(LocalValidator().assess(frame, faces: [other]).reasons, ["faceUnclear"])
    }

    func testTheFinalAttemptTurnsAFailureIntoManualReview() {
        let dark = assess(.init(faceWidth: 0.4, gain: 0.5))
        XCTAssertEqual(dark.verdict(isFinal: true), ValidationVerdict(result: .manualReview, reasons: ["tooDark"]))
        XCTAssertEqual(dark.verdict(isFinal: false), ValidationVerdict(result: .retry, reasons: ["tooDark"]))
        XCTAssertEqual(assess(.init(faceWidth: 0.4)).verdict(isFinal: true), ValidationVerdict(result: .pass))
    }

    // MARK: Report

    func testTheReportCarriesEverythingTheContractListsAndParsesBack() throws {
        let (frame, face) = AnalysisFixtures.frame(.init(faceWidth: 0.4))
        let metrics = FaceMeasures.measure(frame: frame, faces: [face], thresholds: AnalyzerThresholds())
        let report = PhotoReport(
            version: "0.1.0", capturedAt: "2026-11-29T22:30:00+01:00", captureMode: .auto, attempt: 2, isFinal: false,
            source: .camera(device: "/dev/video0", width: 640, height: 480, frameRate: 30, pixelFormat: "yuyv"),
            photoWidth: 640, photoHeight: 480, metrics: metrics, guidance: [.ready], face: face,
            models: [.init(file: "face_landmark.tflite", sha256: String(repeating: "ab", count: 32))])
        let before = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.jsonBytes())) as? [String: Any])
        XCTAssertNil(before["validation"], "no verdict yet")
        XCTAssertEqual((before["capture"] as? [String: Any])?["mode"] as? String, "auto")
        XCTAssertEqual((before["capture"] as? [String: Any])?["attempt"] as? Int, 2)
        let source = (before["capture"] as? [String: Any])?["source"] as? [String: Any]
        XCTAssertEqual(source?["device"] as? String, "/dev/video0")
        XCTAssertEqual((before["photo"] as? [String: Any])?["mirrored"] as? Bool, false)
        let landmarks = ((before["face"] as? [String: Any])?["landmarks"] as? [[Double]]) ?? []
        XCTAssertEqual(landmarks.count, 468)
        XCTAssertEqual(landmarks[1][0], Double(face.landmarks!.points[1].x), accuracy: 0.051)
        XCTAssertEqual(((before["face"] as? [String: Any])?["keypoints"] as? [[Double]])?.count, 6)
        XCTAssertEqual((before["metrics"] as? [String: Any])?["faceCount"] as? Int, 1)
        XCTAssertEqual(before["guidance"] as? [String], ["ready"])
        let facecap = before["facecap"] as? [String: Any]
        XCTAssertEqual(facecap?["version"] as? String, "0.1.0")
        XCTAssertEqual((facecap?["models"] as? [String: String])?["face_landmark.tflite"]?.count, 64)

        let after = report.with(
            verdict: ValidationVerdict(result: .retry, reasons: ["tooDark"], message: "m"),
            by: .server)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(after.jsonBytes())) as? [String: Any])
        let validation = try XCTUnwrap(parsed["validation"] as? [String: Any])
        XCTAssertEqual(validation["validator"] as? String, "server")
        XCTAssertEqual(validation["result"] as? String, "retry")
        XCTAssertEqual(validation["reasons"] as? [String], ["tooDark"])
        // A manual capture without a face, from a clip.
        var manual = report
        manual.captureMode = .manual
        manual.face = nil
        manual.source = .clip(path: "clip \"1\".y4m")
        let clip = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(manual.jsonBytes())) as? [String: Any])
        XCTAssertTrue(clip["face"] is NSNull)
        XCTAssertEqual(
            ((clip["capture"] as? [String: Any])?["source"] as? [String: Any])?["path"] as? String,
            "clip \"1\".y4m")
    }
}
