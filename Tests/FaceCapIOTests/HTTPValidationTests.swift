import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// The server contract end to end: real libcurl against a real scripted HTTP server on 127.0.0.1
/// (Tests/Support/validation_server.py), driven through `ValidationWorker` as the run loop drives it.
final class HTTPValidationTests: XCTestCase {
    var temp: TemporaryDirectory!
    let token = "s3cret-token-\(UUID().uuidString)"

    override func setUpWithError() throws {
        temp = try TemporaryDirectory()
        // The server's record holds reports with face landmarks: a private folder, as for real photos.
        chmod(temp.url.path, 0o700)
    }

    override func tearDown() { temp.remove() }

    private func validator(
        _ server: ValidationServer, token: String? = nil, total: Double = 30,
        caBundle: String? = nil
    ) throws -> HTTPValidator {
        HTTPValidator(
            .init(
                url: server.url, token: try token.flatMap { try BearerToken($0) }, version: "0.1.0-test",
                connectTimeout: 10, totalTimeout: total, caBundlePath: caBundle))
    }

    private func worker(_ server: ValidationServer, token: String? = nil, total: Double = 30) throws
        -> ValidationWorker
    {
        try ValidationWorker(checker: try validator(server, token: token, total: total))
    }

    private func pass(_ reasons: [String] = []) -> [String: Any] {
        ["status": 200, "json": ["result": "pass", "reasons": reasons, "message": "Selfie accepted"]]
    }

    private func retry(_ reasons: [String]) -> [String: Any] {
        ["status": 200, "json": ["result": "retry", "reasons": reasons]]
    }

    // MARK: Verdicts

    func testAPassSendsTheContractsHeadersAndParts() throws {
        let server = try ValidationServer([pass()], in: temp)
        let worker = try worker(server, token: token)
        defer { worker.shutdown() }
        let photo = try ValidationFixtures.photo()
        let first = ValidationRequest(attempt: 1, isFinal: false)
        let (outcome, progress, _) = ValidationFixtures.run(worker, photo, first)
        XCTAssertEqual(outcome, .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")))
        XCTAssertEqual(progress.last, 1, "upload progress ends at 1: \(progress)")
        XCTAssertEqual(progress, progress.sorted())

        let requests = try server.requests()
        XCTAssertEqual(requests.count, 1)
        let request = requests[0]
        XCTAssertEqual(request["method"] as? String, "POST")
        XCTAssertEqual(request["path"] as? String, "/validate")
        XCTAssertEqual(request.header("authorization"), "Bearer \(token)")
        XCTAssertEqual(request.header("x-facecap-attempt"), "1")
        XCTAssertEqual(request.header("idempotency-key"), photo.idempotencyKey)
        XCTAssertNotNil(
            photo.idempotencyKey.range(
                of: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression
            ))
        XCTAssertNil(request.header("x-facecap-final"), "only the final attempt says so")
        XCTAssertEqual(request.header("user-agent"), "facecap/0.1.0-test")
        XCTAssertNil(request.header("expect"), "no 100-continue stall")
        XCTAssertTrue(request.header("content-type")?.hasPrefix("multipart/form-data; boundary=") ?? false)
        let parts = request.parts
        XCTAssertEqual(parts.map { $0["name"] as? String }, ["photo", "report"])
        XCTAssertEqual(parts[0]["contentType"] as? String, "image/jpeg")
        XCTAssertEqual(parts[0]["size"] as? Int, photo.jpeg.count)
        XCTAssertEqual(parts[1]["contentType"] as? String, "application/json")
        let report = try XCTUnwrap(parts[1]["text"] as? String)
        XCTAssertEqual(report, String(decoding: photo.reportJSON, as: UTF8.self))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        XCTAssertNil(json["validation"], "the report sent before a verdict has none")
        XCTAssertFalse(report.contains(token))
    }

    func testTheTokenIsSentButReachesNoReportFileOrOutcome() throws {
        let server = try ValidationServer(
            [retry(["tooDark"]), ["status": 401, "json": ["message": "bad token"]]],
            in: temp)
        let worker = try worker(server, token: token)
        defer { worker.shutdown() }
        let photo = try ValidationFixtures.photo()
        let first = ValidationFixtures.run(worker, photo, ValidationRequest(attempt: 1, isFinal: false)).outcome
        XCTAssertEqual(first, .verdict(ValidationVerdict(result: .retry, reasons: ["tooDark"])))
        let second = ValidationFixtures.run(worker, photo, ValidationRequest(attempt: 2, isFinal: false)).outcome
        XCTAssertEqual(second, .refused(status: 401, message: "bad token"))
        // Save the photo and both reports as the wizard would; nothing written holds the token.
        let store = PhotoStore(directory: temp.path("out"))
        let saved = try store.save(jpeg: photo.jpeg, report: photo.reportJSON)
        let verdict = ValidationVerdict(result: .retry, reasons: ["tooDark"])
        try store.replaceReport(of: saved, with: photo.report.with(verdict: verdict, by: .server).jsonBytes())
        for name in try FileManager.default.contentsOfDirectory(atPath: temp.path("out")) {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: temp.path("out/" + name)))
            XCTAssertNil(bytes.range(of: Data(token.utf8)), name)
        }
        for outcome in [first, second] { XCTAssertFalse("\(String(describing: outcome))".contains(token)) }
        // The server did get it, on every request.
        XCTAssertEqual(
            try server.requests().map { $0.header("authorization") },
            [
                "Bearer \(token)", "Bearer \(token)",
            ])
        // Printing the configuration never shows it either.
        let configuration = try validator(server, token: token).configuration
        XCTAssertFalse("\(configuration)".contains(token))
        var dumped = ""
        dump(configuration, to: &dumped)
        XCTAssertFalse(dumped.contains(token))
        // Nor the token itself, however it is printed.
        let secret = try XCTUnwrap(try BearerToken(token))
        for shown in [
            "\(secret)", String(describing: secret), String(reflecting: secret), "\([secret])",
            "\(Optional(secret) as Any)",
        ] {
            XCTAssertFalse(shown.contains(token), shown)
        }
        XCTAssertThrowsError(try BearerToken("abc\r\nX-Injected: 1"))
        XCTAssertNil(try BearerToken(""))
        XCTAssertNil(try BearerToken.from(environment: [:]))
    }

    func testWithoutATokenThereIsNoAuthorizationHeader() throws {
        let server = try ValidationServer([pass()], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        let outcome = ValidationFixtures.run(
            worker, try ValidationFixtures.photo(),
            ValidationRequest(attempt: 1, isFinal: false)
        ).outcome
        XCTAssertEqual(outcome, .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")))
        XCTAssertNil(try server.requests().first?.header("authorization"))
    }

    func testRetryRetryPassTakesThreeAttemptsWithTheirNumbers() throws {
        let server = try ValidationServer([retry(["tooDark"]), retry(["lookStraight", "blurry"]), pass()], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        var outcomes: [ValidationOutcome?] = []
        var keys: [String] = []
        for attempt in 1...3 {
            let photo = try ValidationFixtures.photo(attempt: attempt, isFinal: attempt == 3)
            keys.append(photo.idempotencyKey)
            outcomes.append(
                ValidationFixtures.run(
                    worker, photo,
                    ValidationRequest(
                        attempt: attempt,
                        isFinal: attempt == 3)
                ).outcome)
        }
        XCTAssertEqual(
            outcomes,
            [
                .verdict(ValidationVerdict(result: .retry, reasons: ["tooDark"])),
                .verdict(ValidationVerdict(result: .retry, reasons: ["lookStraight", "blurry"])),
                .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")),
            ])
        let requests = try server.requests()
        XCTAssertEqual(requests.map { $0.header("x-facecap-attempt") }, ["1", "2", "3"])
        XCTAssertEqual(requests.map { $0.header("idempotency-key") }, keys)
        XCTAssertEqual(Set(keys).count, 3, "each new photo has its own key")
    }

    func testAlwaysRetryEndsInManualReviewMarkedFinalOnTheLastRequestOnly() throws {
        let server = try ValidationServer(
            [
                [
                    "final": ["status": 200, "json": ["result": "manualReview", "reasons": ["eyesClosed"]]],
                    "else": retry(["eyesClosed"]),
                ]
            ], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        var results: [ValidationOutcome?] = []
        for attempt in 1...3 {
            let request = ValidationRequest(attempt: attempt, isFinal: attempt == 3)
            let photo = try ValidationFixtures.photo(attempt: attempt)
            results.append(ValidationFixtures.run(worker, photo, request).outcome)
        }
        XCTAssertEqual(
            results,
            [
                .verdict(ValidationVerdict(result: .retry, reasons: ["eyesClosed"])),
                .verdict(ValidationVerdict(result: .retry, reasons: ["eyesClosed"])),
                .verdict(ValidationVerdict(result: .manualReview, reasons: ["eyesClosed"])),
            ])
        XCTAssertEqual(try server.requests().map { $0.header("x-facecap-final") }, [nil, nil, "true"])
    }

    // MARK: Connection errors: the same photo is re-sent, no attempt used

    func testServerDownThenBackResendsTheSamePhotoWithTheSameKeyAndAttempt() throws {
        // Learn a free port from a server, stop it: now nothing listens there.
        let first = try ValidationServer([pass()], in: temp)
        let port = first.port
        first.stop()
        let url = "http://127.0.0.1:\(port)/validate"
        let worker = try ValidationWorker(checker: HTTPValidator(.init(url: url, token: nil, version: "t")))
        defer { worker.shutdown() }
        let photo = try ValidationFixtures.photo()
        let request = ValidationRequest(attempt: 1, isFinal: false)
        let down = ValidationFixtures.run(worker, photo, request)
        // Refused, named as such: not waited out to a timeout (the outcome would say `timedOut`).
        XCTAssertEqual(down.outcome, .unreachable(reason: .refused(place: "127.0.0.1:\(port)"), retryAfter: nil))
        XCTAssertEqual(ValidationFixtures.run(worker, photo, request).outcome, down.outcome, "still down")
        let server = try ValidationServer([pass()], in: temp, port: port)
        let back = ValidationFixtures.run(worker, photo, request)
        XCTAssertEqual(back.outcome, .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")))
        let requests = try server.requests()
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests[0].header("idempotency-key"), photo.idempotencyKey)
        XCTAssertEqual(requests[0].header("x-facecap-attempt"), "1")
    }

    func test503ThenPassKeepsTheKeyAndAttempt() throws {
        let server = try ValidationServer([["status": 503, "body": "maintenance"], pass()], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        let photo = try ValidationFixtures.photo(attempt: 2)
        let request = ValidationRequest(attempt: 2, isFinal: false)
        XCTAssertEqual(
            ValidationFixtures.run(worker, photo, request).outcome,
            .unreachable(reason: .serverError(status: 503, message: "maintenance"), retryAfter: nil))
        XCTAssertEqual(
            ValidationFixtures.run(worker, photo, request).outcome,
            .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")))
        let requests = try server.requests()
        XCTAssertEqual(requests.map { $0.header("idempotency-key") }, [photo.idempotencyKey, photo.idempotencyKey])
        XCTAssertEqual(requests.map { $0.header("x-facecap-attempt") }, ["2", "2"])
        XCTAssertEqual(Set(requests.map { $0.parts[0]["sha256"] as? String }).count, 1, "the same photo bytes")
    }

    func test429HonoursRetryAfter() throws {
        let server = try ValidationServer([["status": 429, "headers": ["Retry-After": "7"], "body": ""]], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        XCTAssertEqual(
            ValidationFixtures.run(
                worker, try ValidationFixtures.photo(),
                ValidationRequest(attempt: 1, isFinal: false)
            ).outcome,
            .unreachable(reason: .busy, retryAfter: 7))
    }

    func testAGarbageBodyIsAServerError() throws {
        let server = try ValidationServer([["status": 200, "body": "<html>oops</html>"]], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        XCTAssertEqual(
            ValidationFixtures.run(
                worker, try ValidationFixtures.photo(),
                ValidationRequest(attempt: 1, isFinal: false)
            ).outcome,
            .unreachable(
                reason: .notContract(problem: "not valid JSON"),
                retryAfter: nil))
    }

    func testAReplyThatStallsMidwayTimesOutAtTheTotalTimeout() throws {
        let server = try ValidationServer([["action": "stall", "sent": 20]], in: temp)
        let worker = try worker(server, total: 1.5)
        defer { worker.shutdown() }
        let result = ValidationFixtures.run(
            worker, try ValidationFixtures.photo(),
            ValidationRequest(
                attempt: 1,
                isFinal: false))
        // The outcome says the total timeout ended it; libcurl's timer never fires early. (No upper bound: how
        // long a loaded machine takes to notice is not this test's business.)
        XCTAssertEqual(result.outcome, .unreachable(reason: .timedOut(seconds: 1.5), retryAfter: nil))
        XCTAssertGreaterThan(result.seconds, 1.3)
    }

    func testAConnectionResetMidUploadIsAConnectionError() throws {
        let server = try ValidationServer([["action": "reset", "after": 4096]], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        // Noise does not compress: a photo larger than the loopback socket buffers (up to 4 MB) is still
        // being sent when the server resets.
        let photo = try ValidationFixtures.photo(width: 3200, height: 2400, noise: true)
        XCTAssertGreaterThan(photo.jpeg.count, 6 << 20)
        let result = ValidationFixtures.run(worker, photo, ValidationRequest(attempt: 1, isFinal: false))
        guard case .unreachable(let reason, nil)? = result.outcome else {
            return XCTFail("\(String(describing: result.outcome))")
        }
        XCTAssertTrue(
            reason.text == "the connection to 127.0.0.1:\(server.port) was reset"
                || reason.text.hasPrefix("the connection to 127.0.0.1:\(server.port) broke"), reason.text)
        XCTAssertLessThan(result.progress.max() ?? 0, 1, "the upload did not complete")
        XCTAssertEqual(try server.requests().first?["note"] as? String, "reset after 4096 bytes")
    }

    func testAnOversizedReplyIsCutOffAndAServerError() throws {
        for chunked in [false, true] {
            let server = try ValidationServer([["action": "oversize", "bytes": 3 << 20, "chunked": chunked]], in: temp)
            let worker = try worker(server)
            defer { worker.shutdown() }
            XCTAssertEqual(
                ValidationFixtures.run(
                    worker, try ValidationFixtures.photo(),
                    ValidationRequest(attempt: 1, isFinal: false)
                ).outcome,
                .unreachable(reason: .replyTooLarge(limit: "1 MB"), retryAfter: nil),
                "chunked: \(chunked)")
        }
    }

    func testAClosedConnectionWithoutReplyIsAConnectionError() throws {
        let server = try ValidationServer([["action": "close"]], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        XCTAssertEqual(
            ValidationFixtures.run(
                worker, try ValidationFixtures.photo(),
                ValidationRequest(attempt: 1, isFinal: false)
            ).outcome,
            .unreachable(
                reason: .noReply(place: "127.0.0.1:\(server.port)"),
                retryAfter: nil))
    }

    func testOther4xxAreRefusedWithTheServersMessage() throws {
        let server = try ValidationServer([["status": 413, "body": "Photo\u{1b}[2J too large\n"]], in: temp)
        let worker = try worker(server)
        defer { worker.shutdown() }
        XCTAssertEqual(
            ValidationFixtures.run(
                worker, try ValidationFixtures.photo(),
                ValidationRequest(attempt: 1, isFinal: false)
            ).outcome,
            .refused(status: 413, message: "Photo too large"), "the escape sequence gone whole")
    }

    func testPlainHTTPToAnotherHostIsRefusedBeforeAnyConnection() throws {
        let validator = HTTPValidator(
            .init(
                url: "http://validator.invalid:9/x", token: try BearerToken(token),
                version: "t"))
        let worker = try ValidationWorker(checker: validator)
        defer { worker.shutdown() }
        let result = ValidationFixtures.run(
            worker, try ValidationFixtures.photo(),
            ValidationRequest(attempt: 1, isFinal: false))
        // Not a DNS failure: nothing was looked up or sent.
        XCTAssertEqual(
            result.outcome,
            .refused(
                status: 0,
                message: "plain http:// to validator.invalid would send "
                    + "the photo unencrypted; use https:// (or --insecure-http)"))
        XCTAssertEqual(result.progress, [])
        // (Allowed with --insecure-http; not exercised here, since that would send a DNS query off this machine.)
        XCTAssertTrue(["localhost", "::1", "127.0.0.1", "127.1.2.3"].allSatisfy(HTTPValidator.isLoopback))
        let remote = [
            "127.example.org", "127.0.0.1.nip.io", "10.0.0.1", "128.0.0.1", "127.0.0.256", "127.٠.0.1",
            "127..0.1", "",
        ]
        XCTAssertFalse(remote.contains(where: HTTPValidator.isLoopback))
    }

    func testRedirectsAreNeverFollowedSoNothingReachesTheOtherAddress() throws {
        // What a redirect would reach: another local server, recording any method (a followed 301/302/303
        // comes back as a GET, a followed 307/308 re-posts the photo, the report and the token).
        let elsewhere = try ValidationServer([pass()], in: temp)
        for status in [301, 302, 303, 307, 308] {
            let target = "http://127.0.0.1:\(elsewhere.port)/elsewhere"
            let server = try ValidationServer(
                [["status": status, "headers": ["Location": target], "body": ""]],
                in: temp)
            let worker = try worker(server, token: token)
            defer { worker.shutdown() }
            let outcome = ValidationFixtures.run(
                worker, try ValidationFixtures.photo(),
                ValidationRequest(attempt: 1, isFinal: false)
            ).outcome
            // A refusal (a server error the person is shown), not a verdict and not a connection error that
            // would re-send the photo.
            guard case .refused(let refusedStatus, let message)? = outcome else {
                XCTFail("HTTP \(status): \(String(describing: outcome))")
                continue
            }
            XCTAssertEqual(refusedStatus, status)
            XCTAssertTrue(message.contains(target), "says where the server points: \(message)")
            XCTAssertEqual(try server.requests().count, 1, "HTTP \(status): sent once")
            XCTAssertEqual(try elsewhere.requests().count, 0, "HTTP \(status) was followed")
        }
    }

    func testAProxyFromTheEnvironmentIsNeverUsedForThisMachine() throws {
        // A proxy that would answer a verdict of its own: reaching it would be visible both in its record and
        // in the outcome.
        let proxy = try ValidationServer(
            [["status": 200, "json": ["result": "pass", "message": "from the proxy"]]],
            in: temp)
        let server = try ValidationServer([pass()], in: temp)
        let names = ["http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "no_proxy", "NO_PROXY"]
        let saved = names.map { name in getenv(name).map { String(cString: $0) } }
        defer {
            for (name, value) in zip(names, saved) {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        for name in names.prefix(5) { setenv(name, "http://127.0.0.1:\(proxy.port)", 1) }
        unsetenv("no_proxy")
        unsetenv("NO_PROXY")
        let worker = try worker(server, token: token)
        defer { worker.shutdown() }
        XCTAssertEqual(
            ValidationFixtures.run(
                worker, try ValidationFixtures.photo(),
                ValidationRequest(attempt: 1, isFinal: false)
            ).outcome,
            .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")))
        XCTAssertEqual(try server.requests().count, 1)
        XCTAssertEqual(try proxy.requests().count, 0, "the photo and the token went through the proxy")
    }

    func testAReplyTooLargeIsCutOffWhileItArrivesNotAfter() throws {
        // A reply announcing its size is refused on its headers, before any body arrives (this one never sends
        // one: waiting for it would end at the total timeout)…
        let announced = try ValidationServer([["action": "announce", "bytes": 3 << 20]], in: temp)
        let first = try worker(announced, total: 4)
        defer { first.shutdown() }
        let refused = ValidationFixtures.run(
            first, try ValidationFixtures.photo(),
            ValidationRequest(attempt: 1, isFinal: false))
        // Refused on the announced length: waiting for the body, which never comes, would end in `timedOut`.
        XCTAssertEqual(refused.outcome, .unreachable(reason: .replyTooLarge(limit: "1 MB"), retryAfter: nil))
        // …and one without a length is cut off at the limit while it trickles in (8 MB over about 6 s): the server
        // counts what it wrote before the client stopped reading (a bound of its own, not a time: with a total
        // timeout of 600 s, nothing but the limit stops the reading early).
        let trickle = try ValidationServer(
            [["action": "oversize", "bytes": 8 << 20, "chunked": true, "drip": 0.05]],
            in: temp)
        let second = try worker(trickle, total: 600)
        defer { second.shutdown() }
        let cut = ValidationFixtures.run(
            second, try ValidationFixtures.photo(),
            ValidationRequest(attempt: 1, isFinal: false), timeout: 300)
        XCTAssertEqual(cut.outcome, .unreachable(reason: .replyTooLarge(limit: "1 MB"), retryAfter: nil))
        // The server notes it once a write fails after the client has gone (the wait only bounds a hang).
        for _ in 0..<1200 where trickle.bytesSent().isEmpty { usleep(50_000) }
        let sent = try XCTUnwrap(trickle.bytesSent().first, "the server noted what it sent")
        // 1 MB and what the socket buffers took before the server's write failed; all 8 MB only if read to the end.
        XCTAssertLessThan(sent, 8 << 20, "stopped reading at 1 MB, not at the end")
    }

    func testInsecureHTTPNeverCarriesTheTokenToAnotherMachine() throws {
        // Refused before any connection: 0.0.0.0 is not loopback by the rule (and could only reach this machine).
        let validator = HTTPValidator(
            .init(
                url: "http://0.0.0.0:9/x", token: try BearerToken(token), version: "t",
                allowInsecureHTTP: true))
        let worker = try ValidationWorker(checker: validator)
        defer { worker.shutdown() }
        let result = ValidationFixtures.run(
            worker, try ValidationFixtures.photo(),
            ValidationRequest(attempt: 1, isFinal: false))
        XCTAssertEqual(result.outcome, .refused(status: 0, message: TokenInClearError(host: "0.0.0.0").message))
        XCTAssertEqual(result.progress, [], "nothing was sent")
        // The start-up check: only the combination of a token, plain http and another host is refused.
        let secret = try BearerToken(token)
        XCTAssertThrowsError(try TokenInClearError.check(url: "http://validator.example/x", token: secret))
        XCTAssertThrowsError(try TokenInClearError.check(url: "HTTP://10.1.2.3:8080/x", token: secret))
        XCTAssertNoThrow(try TokenInClearError.check(url: "http://validator.example/x", token: nil))
        XCTAssertNoThrow(try TokenInClearError.check(url: "https://validator.example/x", token: secret))
        XCTAssertNoThrow(try TokenInClearError.check(url: "http://127.0.0.1:8080/x", token: secret))
        XCTAssertNoThrow(try TokenInClearError.check(url: "http://[::1]:8080/x", token: secret))
        XCTAssertFalse(TokenInClearError(host: "h").message.contains(token))
    }

    /// The client's URL is taken apart once, and again whenever it changes: its messages and its plain-http rule
    /// read the same host and port as the command line.
    func testTheConfigurationKeepsItsURLTakenApart() {
        var configuration = HTTPValidator.Configuration(url: "http://[::1]:8080/x", token: nil, version: "test")
        XCTAssertEqual(configuration.server?.place, "[::1]:8080")
        configuration.url = "https://Example.org/selfie"
        XCTAssertEqual(configuration.server, try? ServerURL("https://Example.org/selfie"))
        configuration.url = "http://example.org:99999/x"
        XCTAssertNil(configuration.server, "a port the command line refuses: no parts to name")
    }

    // MARK: TLS

    func testHTTPSVerifiesTheCertificate() throws {
        let cert = temp.path("cert.pem"), key = temp.path("key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
            "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        XCTAssertEqual(openssl.terminationStatus, 0, "openssl could not make a test certificate")
        let server = try ValidationServer([pass()], in: temp, tls: (cert, key))
        let photo = try ValidationFixtures.photo()
        let request = ValidationRequest(attempt: 1, isFinal: false)
        // A certificate the system store does not know is refused…
        let strict = try ValidationWorker(checker: try validator(server))
        defer { strict.shutdown() }
        guard case .unreachable(let reason, nil)? = ValidationFixtures.run(strict, photo, request).outcome else {
            return XCTFail("an unknown certificate was accepted")
        }
        XCTAssertTrue(reason.text.hasPrefix("the certificate of 127.0.0.1 could not be verified"), reason.text)
        // …and accepted when it is the trusted authority: verification, not TLS itself, refused it.
        let trusting = try ValidationWorker(checker: try validator(server, caBundle: cert))
        defer { trusting.shutdown() }
        XCTAssertEqual(
            ValidationFixtures.run(trusting, photo, request).outcome,
            .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")))
        // TLS to a server that does not speak it.
        let plain = try ValidationServer([pass()], in: temp)
        let mismatch = try ValidationWorker(
            checker: HTTPValidator(
                .init(
                    url: "https://127.0.0.1:\(plain.port)/validate", token: nil, version: "t")))
        defer { mismatch.shutdown() }
        guard case .unreachable(let tlsReason, nil)? = ValidationFixtures.run(mismatch, photo, request).outcome else {
            return XCTFail("TLS to a plain server did not fail")
        }
        XCTAssertTrue(tlsReason.text.hasPrefix("TLS with 127.0.0.1 failed"), tlsReason.text)
    }

    func testHTTPSChecksTheCertificateNamesThisHost() throws {
        // A certificate from a trusted authority, but for another name: verifying the chain alone would
        // accept it.
        let cert = temp.path("other-cert.pem"), key = temp.path("other-key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
            "/CN=validator.invalid", "-addext", "subjectAltName=DNS:validator.invalid",
            "-keyout", key, "-out", cert,
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        XCTAssertEqual(openssl.terminationStatus, 0, "openssl could not make a test certificate")
        let server = try ValidationServer([pass()], in: temp, tls: (cert, key))
        let worker = try ValidationWorker(checker: try validator(server, token: token, caBundle: cert))
        defer { worker.shutdown() }
        let outcome = ValidationFixtures.run(
            worker, try ValidationFixtures.photo(),
            ValidationRequest(attempt: 1, isFinal: false)
        ).outcome
        guard case .unreachable(let reason, nil)? = outcome else {
            return XCTFail("a certificate for another host was accepted: \(String(describing: outcome))")
        }
        guard case .certificate(let host, _) = reason else { return XCTFail("not a certificate failure: \(reason)") }
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertEqual(try server.requests().count, 0, "nothing was sent over the unverified connection")
    }

    // MARK: The worker

    /// The uploads stall for 900 s and the total timeout is 600 s, so an upload not aborted would keep the worker
    /// busy far past every wait here (ValidationFixtures.run gives up after 20 s, the shutdown is given 120 s):
    /// the outcomes, not a stopwatch, show that the cancel and the shutdown abort them.
    func testCancellingAbortsAnUploadInFlightPromptlyAndDropsItsAnswer() throws {
        let server = try ValidationServer([["action": "stall", "sent": 20, "seconds": 900], pass()], in: temp)
        let worker = try worker(server, total: 600)
        let photo = try ValidationFixtures.photo()
        XCTAssertTrue(worker.start(photo: photo, request: ValidationRequest(attempt: 1, isFinal: false)))
        XCTAssertFalse(
            worker.start(photo: photo, request: ValidationRequest(attempt: 1, isFinal: false)),
            "one check at a time")
        XCTAssertTrue(worker.isBusy)
        Thread.sleep(forTimeInterval: 0.5)
        worker.cancel()
        XCTAssertFalse(worker.isBusy)
        // The next check runs once the aborted one has let go; only its answer arrives.
        let next = ValidationFixtures.run(worker, photo, ValidationRequest(attempt: 1, isFinal: false))
        XCTAssertEqual(
            next.outcome, .verdict(ValidationVerdict(result: .pass, message: "Selfie accepted")),
            "the stalled upload was aborted, not waited out (600 s)")
        XCTAssertEqual(worker.drain(), [])
        // Shutting down during a stalled upload returns promptly too.
        let stalled = try ValidationServer([["action": "stall", "sent": 20, "seconds": 900]], in: temp)
        let second = try self.worker(stalled, total: 600)
        XCTAssertTrue(second.start(photo: photo, request: ValidationRequest(attempt: 1, isFinal: false)))
        Thread.sleep(forTimeInterval: 0.5)
        // Returns once the upload was aborted; waited out it would take 600 s (the server stalls 900).
        let shutDown = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            second.shutdown()
            shutDown.signal()
        }
        XCTAssertEqual(shutDown.wait(timeout: .now() + 120), .success, "shutdown aborted the stalled upload")
        XCTAssertFalse(second.start(photo: photo, request: ValidationRequest(attempt: 1, isFinal: false)))
        second.shutdown()
        worker.shutdown()
    }
}
