import XCTest
import FaceCapCore
@testable import FaceCapTerminal

/// The camera error screens as the flow really builds them from a camera error, laid out on the advertised
/// sizes: every fact whole, once, and short enough to read at a glance.
final class CameraScreenLayoutTests: XCTestCase {
    private func deniedScreen(columns: Int, rows: Int) -> ScreenModel {
        let access = DeviceAccess(owner: "root", group: "video", mode: "crw-rw----",
                                  userGroups: ["alice", "adm", "cdrom", "sudo", "dip", "plugdev", "lpadmin"])
        var settings = WizardSettings()
        settings.showTutorial = false
        var wizard = Wizard(settings: settings)
        _ = wizard.handle(.resized(columns: columns, rows: rows), at: 0)
        _ = wizard.handle(.start, at: 0)
        _ = wizard.handle(.cameraFailed(CameraProblem(.permissionDenied(path: "/dev/video0", access: access))), at: 0.1)
        return wizard.screen(at: 0.1)
    }

    func testPermissionDeniedFitsAt80x24And60x20WithEveryLineWhole() {
        for (columns, rows, most) in [(80, 24, 11), (60, 20, 14)] {
            let model = deniedScreen(columns: columns, rows: rows)
            XCTAssertEqual(model.name, .permissionDenied)
            let layout = ScreenLayout(model, columns: columns, rows: rows, unicode: true, pictureSize: nil)
            let bodyRows = layout.items.filter { $0.style == .body || $0.style == .command }
            let shown = bodyRows.map(\.text).joined(separator: " ")
            for line in model.lines {
                for word in line.split(separator: " ") {
                    XCTAssertTrue(shown.contains(word), "\(columns)×\(rows): '\(word)' of '\(line)' is not shown:\n\(shown)")
                }
            }
            XCTAssertLessThanOrEqual(bodyRows.count, most, "\(columns)×\(rows): \(bodyRows.map(\.text))")
            XCTAssertTrue(layout.items.allSatisfy { $0.row < rows }, "\(columns)×\(rows)")
            XCTAssertTrue(layout.items.contains { $0.style == .keyName && $0.text.contains("q") }, "the keys are shown")
        }
    }
}
