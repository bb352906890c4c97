import XCTest

@testable import FaceCapCore

/// `ServerURL`, the one parser of `--server` URLs: the command line's checks and the HTTP client's messages read
/// the same host and port from it.
final class ServerURLTests: XCTestCase {
    func testHostAndPortAreTakenApartWithTheSchemesPortByDefault() throws {
        let plain = try ServerURL("http://127.0.0.1:8080/selfie?x=1")
        XCTAssertEqual([plain.host, String(plain.port), plain.place], ["127.0.0.1", "8080", "127.0.0.1:8080"])
        XCTAssertFalse(plain.secure)
        XCTAssertTrue(plain.isLoopback)
        let secure = try ServerURL("HTTPS://user:secret@Example.org/check")
        XCTAssertEqual([secure.host, String(secure.port)], ["Example.org", "443"])
        XCTAssertTrue(secure.secure)
        XCTAssertFalse(secure.isLoopback)
        let six = try ServerURL("http://[::1]:9/x")
        XCTAssertEqual([six.host, String(six.port), six.place], ["::1", "9", "[::1]:9"])
        XCTAssertTrue(six.isLoopback)
        XCTAssertEqual(try ServerURL("http://localhost#frag").port, 80)
    }

    func testWhatIsNotAServerURLSaysWhy() {
        func problem(_ text: String) -> ServerURL.Problem? {
            do {
                _ = try ServerURL(text)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(problem("ftp://example.org/"), .notHTTP)
        XCTAssertEqual(problem("example.org"), .notHTTP)
        XCTAssertEqual(problem("https:///path"), .noHost)
        XCTAssertEqual(problem("http://[]:80/"), .noHost)
        XCTAssertEqual(problem("http://127.0.0.1:99999/x"), .badPort)
        XCTAssertEqual(problem("http://127.0.0.1:0/x"), .badPort)
        XCTAssertEqual(problem("http://127.0.0.1:/x"), .badPort)
        XCTAssertEqual(problem("http://127.0.0.1:80a/x"), .badPort)
        XCTAssertEqual(problem("http://[::1]x/"), .badPort)
        XCTAssertNil(problem("http://127.0.0.1:65535/x"))
    }

    /// The scheme rule alone, for a text that may not parse as a whole (the HTTP client's plain-http refusal).
    func testPlainHTTPIsTheSchemeWhateverFollowsIt() {
        let texts = [
            "HTTP://10.1.2.3:99999/x": true, "http://": true, "https://example.org/x": false,
            "ftp://example.org/x": false, " http://example.org/x": false,
        ]
        for (text, plain) in texts {
            XCTAssertEqual(ServerURL.isPlainHTTP(text), plain, text)
        }
    }

    func testTheCommandLineRefusesPlainHTTPToAnotherHostUnlessAskedTo() {
        XCTAssertNoThrow(try WizardConfiguration.checkServer("http://localhost:1/x", insecure: false))
        XCTAssertThrowsError(try WizardConfiguration.checkServer("http://example.org/x", insecure: false))
        XCTAssertNoThrow(try WizardConfiguration.checkServer("http://example.org/x", insecure: true))
        XCTAssertNoThrow(try WizardConfiguration.checkServer("https://example.org/x", insecure: false))
        XCTAssertThrowsError(try WizardConfiguration.checkServer("https://example.org:99999/x", insecure: false))
    }
}
