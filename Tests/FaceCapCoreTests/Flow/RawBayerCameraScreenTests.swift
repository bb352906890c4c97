import FaceCapCore
import XCTest

/// A machine whose only camera is a MIPI one (raw Bayer nodes only): its own screen, the same words in `--plain`,
/// exit 69.
final class RawBayerCameraScreenTests: XCTestCase {
    private let ipu6 = RawBayerCamera(
        driver: "intel_ipu6_isys", card: "Intel IPU6 ISYS Capture 0",
        nodes: (0..<32).map { "/dev/video\($0)" })

    func testTheMIPIScreenSaysWhatTheCameraIsAndTheFixForEachDistribution() {
        var settings = WizardSettings()
        settings.showTutorial = false
        var wizard = Wizard(settings: settings)
        _ = wizard.handle(.start, at: 0)
        let problem = CameraProblem(CameraError.rawBayerOnly(ipu6))
        XCTAssertEqual(problem.exitCode, .noCamera)
        XCTAssertEqual(problem.exitCode.rawValue, 69)
        XCTAssertEqual(
            wizard.handle(.cameraFailed(problem), at: 0), [.emit(.screen(.noCamera))],
            "the No camera screen's event, as SPEC lists the screens")
        let screen = wizard.screen(at: 0.2)
        XCTAssertEqual(screen.title, "This camera needs libcamera")
        XCTAssertEqual(
            screen.lines,
            [
                "/dev/video0 … /dev/video31 (intel_ipu6_isys, Intel IPU6 ISYS Capture 0): raw sensor data only. This MIPI"
                    + " camera needs an image processor (libcamera's); facecap reads finished pictures only.",
                "Debian 12: its libcamera (0.0.3) has no software image processor; no Debian 12 package can give this"
                    + " camera a picture.",
                "Debian 13 (libcamera 0.4; 0.5 in backports): libcamera's V4L2 adapter may give it a picture (untested"
                    + " here; check with cam -l):",
                "$ sudo apt install libcamera-tools libcamera-v4l2",
                "$ sudo apt install libcamera-ipa",
                "$ libcamerify facecap",
                "Ubuntu 24.04: libcamera 0.2 is too old too; Intel's IPU6 packages (libcamhal, v4l2-relayd, v4l2loopback;"
                    + " wiki.ubuntu.com/IntelMIPICamera) make an \"Intel MIPI Camera\" node, which facecap opens by"
                    + " itself.",
            ])
        XCTAssertEqual(screen.countdown, "Looking again in 1 s", "a USB webcam plugged in, or Intel's relay, is found")
        XCTAssertEqual(wizard.handle(.key(.character("q")), at: 1).last, .exit(.noCamera))
        XCTAssertEqual(
            problem.message,
            "the intel_ipu6_isys camera (/dev/video0 … /dev/video31) gives raw sensor"
                + " data only: a MIPI camera, which needs libcamera ('facecap devices' says how to set it"
                + " up)")
    }

    func testPlainSaysTheSameLinesInItsOneLineAndEndsWith69() {
        var settings = WizardSettings()
        settings.showTutorial = false
        settings.plain = true
        var wizard = Wizard(settings: settings)
        _ = wizard.handle(.start, at: 0)
        let problem = CameraProblem(CameraError.rawBayerOnly(ipu6))
        let effects = wizard.handle(.cameraFailed(problem), at: 0.1)
        XCTAssertEqual(effects.suffix(2), [.emit(.exit(.noCamera)), .exit(.noCamera)])
        guard case .report(let report)? = effects.first else { return XCTFail("\(effects)") }
        let line = report.text
        XCTAssertFalse(line.contains("\n"), "one line")
        XCTAssertTrue(line.hasPrefix(problem.message + ": /dev/video0 … /dev/video31 (intel_ipu6_isys"), line)
        for fact in ipu6.advice {
            XCTAssertTrue(line.contains(fact.hasPrefix("$ ") ? String(fact.dropFirst(2)) : fact), "\(fact) in: \(line)")
        }
        XCTAssertFalse(line.contains("$ "), "commands are said as words")
    }

    /// IPU7: what it is and its own line only (no libcamera release helps, so no commands that would not).
    func testIPU7IsToldThatNoLibcameraSupportsItYetAndNothingElse() {
        let ipu7 = RawBayerCamera(driver: "intel_ipu7_isys", card: "Intel IPU7 ISYS Capture 0", nodes: ["/dev/video0"])
        XCTAssertEqual(ipu7.advice.count, 2, "\(ipu7.advice)")
        XCTAssertEqual(
            ipu7.advice[1],
            "Intel IPU7 (Lunar Lake and later): no libcamera release supports it yet; only"
                + " Intel's own camera packages give it a picture.")
        XCTAssertEqual(ipu7.advice[0].prefix(33), "/dev/video0 (intel_ipu7_isys, Int")
        XCTAssertFalse(ipu6.advice.contains { $0.contains("IPU7") })
    }

    /// Qualcomm CAMSS: the Debian lines and commands, no line about Intel's packages.
    func testCAMSSGetsNoIntelLine() {
        let camss = RawBayerCamera(driver: "qcom-camss", card: "msm_vfe0_rdi0", nodes: ["/dev/video0", "/dev/video1"])
        XCTAssertEqual(camss.nodeSpan, "/dev/video0, /dev/video1")
        XCTAssertFalse(camss.advice.contains { $0.contains("Intel") }, "\(camss.advice)")
        XCTAssertTrue(camss.advice.contains("$ libcamerify facecap"))
        XCTAssertTrue(ipu6.advice.last?.hasPrefix("Ubuntu 24.04: ") ?? false, "the relay line is IPU6's")
    }

    /// Under libcamerify and still raw nodes only: libcamera found no camera; running libcamerify again is no fix.
    func testUnderTheAdapterItSaysLibcameraFoundNoCameraAndSuggestsCamL() {
        let camera = RawBayerCamera(
            driver: "intel_ipu6_isys", card: "Intel IPU6 ISYS Capture 0",
            nodes: ["/dev/video0"], underLibcameraAdapter: true)
        XCTAssertEqual(
            Array(camera.advice.dropFirst()),
            [
                "facecap runs under libcamerify, yet libcamera found no camera. What libcamera finds (cam is in"
                    + " libcamera-tools):",
                "$ cam -l",
                "Ubuntu 24.04: libcamera 0.2 is too old too; Intel's IPU6 packages (libcamhal, v4l2-relayd, v4l2loopback;"
                    + " wiki.ubuntu.com/IntelMIPICamera) make an \"Intel MIPI Camera\" node, which facecap opens by"
                    + " itself.",
            ])
    }
}
