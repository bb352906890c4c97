import FaceCapCore
import XCTest

@testable import FaceCapIO

/// The time-out the Uploading screen says is the one the server's client keeps.
final class UploadingTimeOutTests: XCTestCase {
    func testTheScreensTimeOutIsTheClientsTotalTimeOut() {
        let client = HTTPValidator.Configuration(url: "https://example.org/selfie", token: nil, version: "test")
        XCTAssertEqual(WizardSettings().serverTimeout, client.totalTimeout)
    }
}
