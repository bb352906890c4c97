import FaceCapCore
import FaceCapIO
import FaceCapTerminal

/// The full-screen ncurses front end as the wizard's session drives it.
final class CursesWizardFrontEnd: WizardFrontEnd {
    private let ui: CursesFrontEnd

    init(configuration: WizardConfiguration, environment: [String: String]) throws(TerminalError) {
        ui = try CursesFrontEnd(colorMode: configuration.color, mirror: configuration.mirror, environment: environment)
    }

    var inputDescriptor: Int32? { ui.inputDescriptor }
    var size: (columns: Int, rows: Int)? { ui.size }

    func readInput() -> [FrontEndInput] {
        ui.readKeys().map { input in
            switch input {
            case .key(let key): return .key(key)
            case .resize(let columns, let rows): return .resized(columns: columns, rows: rows)
            }
        }
    }

    func render(_ model: ScreenModel, preview: Frame?, photo: Frame?) {
        ui.render(model, preview: preview, photo: photo)
    }

    /// The ncurses front end paces the preview itself (it drops frames a slow terminal cannot take).
    func wantsPreviewFrame(at now: Double) -> Bool { true }

    func resize() -> (columns: Int, rows: Int)? { ui.handleResize() }
    func suspend() { ui.suspend() }
    func resume() { ui.resume() }
    func close() { ui.close() }
}
