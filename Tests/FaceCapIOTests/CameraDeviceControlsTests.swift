import CV4L2
import FaceCapCore
import Foundation
import XCTest

@testable import FaceCapIO

/// The controls `facecap devices` lists: those facecap may steer, with the driver's names, menus named through
/// VIDIOC_QUERYMENU (a menu that skips items, as UVC's auto exposure does), current and default values, in the
/// text and in --json.
final class CameraDeviceControlsTests: XCTestCase {
    let path = "/dev/fake-video0"
    var fakes: [FakeV4L2Device] = []

    /// A UVC-like webcam: auto exposure a menu of 0...3 with items 1 and 3 only, auto priority, brightness, and a
    /// control facecap never steers (contrast).
    func makeFake() -> FakeV4L2Device {
        let fake = FakeV4L2Device(nodes: [path: .webcam])
        fake.controls = [
            CV4L2_CID_EXPOSURE_AUTO: .init(
                minimum: 0, maximum: 3, value: 1, name: "Auto Exposure",
                type: V4L2_CTRL_TYPE_MENU.rawValue, defaultValue: 3,
                menu: [1: "Manual Mode", 3: "Aperture Priority Mode"]),
            CV4L2_CID_EXPOSURE_AUTO_PRIORITY: .init(
                minimum: 0, maximum: 1, value: 1,
                name: "Exposure, Dynamic Framerate",
                type: V4L2_CTRL_TYPE_BOOLEAN.rawValue, defaultValue: 0),
            CV4L2_CID_BRIGHTNESS: .init(minimum: -64, maximum: 64, value: 10, name: "Brightness", defaultValue: 0),
            UInt32(V4L2_CID_BASE + 1): .init(minimum: 0, maximum: 95, value: 32, name: "Contrast"),
        ]
        fakes.append(fake)
        return fake
    }

    func testTheSteerableControlsAreReadWithTheirMenusNamedAndTheNodeClosedAgain() throws {
        let fake = makeFake()
        let controls = CameraDeviceControl.read(path: path, ops: fake.ops)
        XCTAssertEqual(
            controls.map(\.name), ["Auto Exposure", "Exposure, Dynamic Framerate", "Brightness"],
            "facecap's own order; contrast is not one it steers")
        let exposure = try XCTUnwrap(controls.first)
        XCTAssertEqual(exposure.kind, .menu)
        XCTAssertEqual(exposure.menu.map(\.index), [1, 3], "items 0 and 2 are not in the menu")
        XCTAssertEqual(exposure.menu.map(\.name), ["Manual Mode", "Aperture Priority Mode"])
        XCTAssertEqual(exposure.value, 1)
        XCTAssertEqual(exposure.defaultValue, 3)
        XCTAssertEqual(controls[1].kind, .boolean)
        XCTAssertEqual(
            [controls[2].minimum, controls[2].maximum, controls[2].defaultValue, controls[2].value],
            [-64, 64, 0, 10])
        XCTAssertTrue(fake.openFds.isEmpty, "the node opened to read them is closed again")
        XCTAssertFalse(fake.log.contains { $0.hasPrefix("S_CTRL") }, "nothing written")
    }

    func testTheTextNamesMenuItemsAndRanges() throws {
        let fake = makeFake()
        var device = try XCTUnwrap(try CameraDevice.query(path: path, ops: fake.ops))
        device.controls = CameraDeviceControl.read(path: path, ops: fake.ops)
        let lines = CameraDeviceText.human([device]).split(separator: "\n").map(String.init)
        let start = try XCTUnwrap(lines.firstIndex(of: "  controls facecap may steer:"), "\(lines)")
        XCTAssertEqual(
            Array(lines[(start + 1)...].prefix(3)),
            [
                "    Auto Exposure: Manual Mode (default Aperture Priority Mode; one of Manual Mode, Aperture Priority Mode)",
                "    Exposure, Dynamic Framerate: 1 (default 0, 0 to 1)",
                "    Brightness: 10 (default 0, -64 to 64)",
            ])
        device.controls = []
        XCTAssertFalse(
            CameraDeviceText.human([device]).contains("controls facecap may steer"),
            "no heading for a node without such controls")
    }

    func testTheJSONListsEachControlWithItsMenu() throws {
        let fake = makeFake()
        var device = try XCTUnwrap(try CameraDevice.query(path: path, ops: fake.ops))
        device.controls = CameraDeviceControl.read(path: path, ops: fake.ops)
        let text = CameraDeviceText.json([device], problems: [])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let devices = try XCTUnwrap(document["devices"] as? [[String: Any]])
        let controls = try XCTUnwrap(devices.first?["controls"] as? [[String: Any]])
        XCTAssertEqual(controls.count, 3)
        XCTAssertEqual(controls[0]["id"] as? Int, Int(CV4L2_CID_EXPOSURE_AUTO))
        XCTAssertEqual(controls[0]["type"] as? String, "menu")
        XCTAssertEqual(controls[0]["value"] as? Int, 1)
        XCTAssertEqual(controls[0]["default"] as? Int, 3)
        let menu = try XCTUnwrap(controls[0]["menu"] as? [[String: Any]])
        XCTAssertEqual(menu.map { $0["index"] as? Int }, [1, 3])
        XCTAssertEqual(menu.map { $0["name"] as? String }, ["Manual Mode", "Aperture Priority Mode"])
        XCTAssertTrue(controls[2]["menu"] is NSNull, "no menu for an integer")
        XCTAssertEqual(controls[2]["minimum"] as? Int, -64)
        XCTAssertTrue(text.contains(#""interface":null,"controls":["#), "after the earlier keys: \(text)")
    }
}
