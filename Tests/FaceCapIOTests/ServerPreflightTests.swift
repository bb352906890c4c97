import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// The pre-flight (README "Validation server contract": `OPTIONS URL` before the camera opens) with real
/// libcurl against the real scripted server on 127.0.0.1, through `ServerCheckWorker` as the run loop uses it.
final class ServerPreflightTests: XCTestCase {
    var temp: TemporaryDirectory!
    let token = "preflight-token-\(UUID().uuidString)"

    override func setUpWithError() throws {
        temp = try TemporaryDirectory()
        chmod(temp.url.path, 0o700)
    }

    override func tearDown() { temp.remove() }

    private let pass: [String: Any] = ["status": 200, "json": ["result": "pass"]]

    /// The pre-flight's answer from `url`, waited for on the worker's descriptor as the run loop does.
    private func check(_ url: String, token: String? = nil, timeout: Double = 20) throws -> ServerCheck? {
        let validator = HTTPValidator(
            .init(
                url: url, token: try token.flatMap { try BearerToken($0) },
                version: "0.1.0-test"))
        let worker = try ServerCheckWorker(probe: validator)
        defer { worker.shutdown() }
        worker.start()
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            var pfd = pollfd(fd: worker.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 100)
            if let answer = worker.drain().first { return answer }
        }
        return nil
    }

    private func server(preflight: [String: Any]? = nil, token: String? = nil) throws -> ValidationServer {
        var options: [String] = []
        if let token { options += ["--token", token] }
        if let preflight {
            options += [
                "--preflight", String(decoding: try JSONSerialization.data(withJSONObject: preflight), as: UTF8.self),
            ]
        }
        return try ValidationServer([pass], in: temp, options: options)
    }

    func testAServerThatAnswersIsReadyAndTheRequestIsAnOptionsWithTheTokenAndNoBody() throws {
        let server = try server()
        XCTAssertEqual(try check(server.url, token: token), .ready)
        let requests = try server.requests()
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?["method"] as? String, "OPTIONS")
        XCTAssertEqual(requests.first?["path"] as? String, "/validate")
        XCTAssertEqual(requests.first?.header("authorization"), "Bearer \(token)")
        XCTAssertEqual(requests.first?.header("user-agent"), "facecap/0.1.0-test")
        XCTAssertEqual(requests.first?["bodySize"] as? Int, 0, "no photo, no report")
    }

    func testATokenThatIsMissingOrWrongIsRefusedWith401AndTheRightOneIsReady() throws {
        let server = try server(token: token)
        XCTAssertEqual(try check(server.url), .refused(status: 401, message: "a token is needed"))
        XCTAssertEqual(
            try check(server.url, token: "another"), .refused(status: 401, message: "this token is not accepted"))
        XCTAssertEqual(try check(server.url, token: token), .ready)
    }

    func testEachAnswerIsNamedForWhatItIs() throws {
        let notFound = try server(preflight: ["status": 404, "body": ""])
        XCTAssertEqual(
            try check(notFound.url), .refused(status: 404, message: ""), "the screen says 404 and what to check")
        let forbidden = try server(preflight: ["status": 403, "json": ["message": "not for this client"]])
        XCTAssertEqual(try check(forbidden.url, token: token), .refused(status: 403, message: "not for this client"))
        let down = try server(preflight: ["status": 503, "body": "down for maintenance"])
        XCTAssertEqual(try check(down.url), .unreachable(.serverError(status: 503, message: "down for maintenance")))
        // A server that knows only the contract's POST is there all the same.
        let postOnly = try server(preflight: ["status": 405, "headers": ["Allow": "POST"]])
        XCTAssertEqual(try check(postOnly.url), .ready)
        let silent = try server(preflight: ["action": "close"])
        XCTAssertEqual(try check(silent.url), .unreachable(.noReply(place: "127.0.0.1:\(silent.port)")))
    }

    func testNothingListeningIsUnreachableWithTheAddress() throws {
        let gone = try server()
        let port = gone.port
        gone.stop()
        XCTAssertEqual(
            try check("http://127.0.0.1:\(port)/validate"), .unreachable(.refused(place: "127.0.0.1:\(port)")))
    }
}
