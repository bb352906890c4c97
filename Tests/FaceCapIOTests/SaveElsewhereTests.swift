import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// Could not save the photo, then another folder typed: the photo is written there privately (the folder
/// made 0700, the files 0600), and later photos go there too.
final class SaveElsewhereTests: XCTestCase {
    func testAPhotoThatCouldNotBeSavedIsSavedInTheFolderTyped() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let checker = HTTPValidator(.init(url: "http://127.0.0.1:9/validate", token: nil, version: "0.1.0-test"))
        // /proc/1 is a folder nobody, root included, can create files in.
        let photos = try WizardPhotos(
            checker: checker, validator: .server, store: PhotoStore(directory: "/proc/1"),
            version: "0.1.0-test", models: [])
        defer { photos.shutdown() }
        let photo = try ValidationFixtures.photo()
        XCTAssertThrowsError(try photos.save(photo, verdict: nil))
        let folder = temp.path("typed/new folder")
        let saved = try photos.save(photo, verdict: nil, in: folder)
        XCTAssertTrue(saved.photoPath.hasPrefix(folder + "/facecap-"), saved.photoPath)
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        XCTAssertEqual(try mode(folder), 0o700)
        XCTAssertEqual(try mode(saved.photoPath), 0o600)
        XCTAssertEqual(try mode(saved.reportPath), 0o600)
        XCTAssertEqual(FileManager.default.contents(atPath: saved.photoPath).map { [UInt8]($0) }, photo.jpeg)
        let again = try photos.save(photo, verdict: nil)
        XCTAssertTrue(again.photoPath.hasPrefix(folder + "/"), "later photos go to the new folder: \(again.photoPath)")
    }
}
