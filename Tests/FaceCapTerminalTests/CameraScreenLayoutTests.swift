import FaceCapCore
import XCTest

@testable import FaceCapTerminal

/// The camera error screens as the flow really builds them from a camera error, laid out on the advertised
/// sizes: every fact whole, once, and short enough to read at a glance.
final class CameraScreenLayoutTests: XCTestCase {
    private func deniedScreen(columns: Int, rows: Int) -> ScreenModel {
        let access = DeviceAccess(
            owner: "root", group: "video", mode: "crw-rw----",
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
                    XCTAssertTrue(
                        shown.contains(word), "\(columns)×\(rows): '\(word)' of '\(line)' is not shown:\n\(shown)")
                }
            }
            XCTAssertLessThanOrEqual(bodyRows.count, most, "\(columns)×\(rows): \(bodyRows.map(\.text))")
            XCTAssertTrue(layout.items.allSatisfy { $0.row < rows }, "\(columns)×\(rows)")
            XCTAssertTrue(layout.items.contains { $0.style == .keyName && $0.text.contains("q") }, "the keys are shown")
        }
    }

    /// The MIPI camera's screen (an IPU6's 32 raw nodes) at 80×24 and 60×20: every word of what the camera is and of
    /// each distribution's fix shown, the commands whole on rows of their own, the keys still there.
    func testTheMIPIScreenFitsWithEveryDistributionsFixWhole() {
        let camera = RawBayerCamera(
            driver: "intel_ipu6_isys", card: "Intel IPU6 ISYS Capture 0",
            nodes: (0..<32).map { "/dev/video\($0)" })
        for (columns, rows) in [(80, 24), (60, 20)] {
            let model = mipiScreen(camera, columns: columns, rows: rows)
            let layout = ScreenLayout(model, columns: columns, rows: rows, unicode: true, pictureSize: nil)
            let shown = layout.items.filter { $0.style == .body || $0.style == .command }.map(\.text)
            for line in model.lines where !line.hasPrefix("$ ") {
                for word in line.split(separator: " ") {
                    XCTAssertTrue(
                        shown.joined(separator: " ").contains(word),
                        "\(columns)×\(rows): '\(word)' of '\(line)' is not shown: \(shown)")
                }
            }
            // A command too long for the row is cut anywhere (hard-wrapped), never reworded: its rows, joined, hold it.
            let commands = layout.items.filter { $0.style == .command }.map(\.text).joined().filter { $0 != " " }
            for command in model.lines where command.hasPrefix("$ ") {
                XCTAssertTrue(commands.contains(command.filter { $0 != " " }), "\(columns)×\(rows): \(command)")
            }
            XCTAssertTrue(layout.items.contains { $0.text == "This camera needs libcamera" }, "the title")
            XCTAssertTrue(layout.items.allSatisfy { $0.row < rows }, "\(columns)×\(rows)")
            XCTAssertTrue(layout.items.contains { $0.style == .keyName && $0.text.contains("q") }, "the keys are shown")
        }
    }
}

extension RealScreenTests {
    /// The MIPI camera's screen in every language at every size the real screens are checked at: no word cut, no
    /// line or key lost (the checker of `testEveryRealScreenFitsInEveryLanguageWithoutCuttingAWord`, whose scenes
    /// carry English camera messages, as the layers below would send them).
    func testTheMIPIScreenFitsInEveryLanguage() throws {
        let camera = RawBayerCamera(
            driver: "intel_ipu6_isys", card: "Intel IPU6 ISYS Capture 0",
            nodes: (0..<32).map { "/dev/video\($0)" })
        let saved = Words.current
        defer { Words.current = saved }
        for translations in try languages() {
            Words.current = translations
            for (columns, rows) in Self.sizes {
                let model = mipiScreen(camera, columns: columns, rows: rows)
                for problem in problems(model, columns: columns, rows: rows) {
                    XCTFail("\(translations.language) at \(columns)×\(rows): \(problem)")
                }
            }
        }
    }
}

/// The wizard's MIPI camera screen at `columns`×`rows`, as the front end gets it when the camera fails so.
private func mipiScreen(_ camera: RawBayerCamera, columns: Int, rows: Int) -> ScreenModel {
    var settings = WizardSettings()
    settings.showTutorial = false
    var wizard = Wizard(settings: settings)
    _ = wizard.handle(.resized(columns: columns, rows: rows), at: 0)
    _ = wizard.handle(.start, at: 0)
    _ = wizard.handle(.cameraFailed(CameraProblem(.rawBayerOnly(camera))), at: 0.1)
    return wizard.screen(at: 0.1)
}
