import CV4L2
import FaceCapCore
import XCTest

@testable import FaceCapIO

/// Key d's picker below the flow: the devices the wizard offers are those `facecap devices` lists (through the
/// shim's fake device ops table), and the one chosen is the one opened.
extension CameraDeviceTests {
    func testThePickerListsTheCaptureDevicesAndOpensTheOneChosen() throws {
        let fake = try makeDev(
            ["video0", "video1", "video2"],
            nodes: ["video0": .webcam, "video1": .metadata, "video2": .webcam])
        let opener = SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops)
        let listed = CameraDevice.scan(directory: directory, ops: fake.ops).devices.map(\.path)
        let choices = opener.cameras()
        XCTAssertEqual(choices.map(\.path), listed, "what `facecap devices` lists, the metadata node left out")
        XCTAssertEqual(choices.map(\.path), ["\(directory)/video0", "\(directory)/video2"])
        XCTAssertEqual(choices.map(\.isCurrent), [true, false], "the first in rank is the one tried without --device")
        XCTAssertEqual(choices.first?.description, "Fake Camera (fakecam, platform:fake-0): colour, 640x480 at 30 fps")
        opener.choose(choices[1].path)
        let source = try opener.open()
        defer { source.close() }
        XCTAssertEqual((source as? Camera)?.path, "\(directory)/video2")
        XCTAssertEqual(opener.cameras().map(\.isCurrent), [false, true])
    }

    func testThePickerListsANodeItCannotOpenWithWhy() throws {
        let fake = try makeDev(["video0"], nodes: ["video0": .webcam])
        fake.openErrors["\(directory)/video0"] = EACCES
        let opener = SourceOpener(
            source: .camera(path: nil), camera: CameraConfiguration(), directory: directory,
            ops: fake.ops)
        let choices = opener.cameras()
        XCTAssertEqual(choices.map(\.path), ["\(directory)/video0"])
        XCTAssertTrue(choices.first?.description.contains("permission denied") ?? false, "\(choices)")
        XCTAssertEqual(
            SourceOpener(source: .clip(path: "x.y4m", loop: false), camera: CameraConfiguration()).cameras(),
            [], "a clip has no cameras to offer")
    }
}
