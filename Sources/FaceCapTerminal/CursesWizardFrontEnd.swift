import FaceCapCore

/// The full-screen ncurses front end as the wizard's session drives it (Core's `WizardFrontEnd`).
public final class CursesWizardFrontEnd: WizardFrontEnd {
    private let ui: CursesFrontEnd

    public init(configuration: WizardConfiguration, environment: [String: String]) throws(TerminalError) {
        ui = try CursesFrontEnd(colorMode: configuration.color, mirror: configuration.mirror,
                                graphics: configuration.graphics, environment: environment)
    }

    public var inputDescriptor: Int32? { ui.inputDescriptor }
    public var size: (columns: Int, rows: Int)? { ui.size }

    public func readInput() -> [FrontEndInput] { ui.readKeys() }

    public func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?) {
        ui.render(model, preview: preview, photo: photo)
    }

    public func resize() -> (columns: Int, rows: Int)? { ui.handleResize() }
    public func suspend() { ui.suspend() }
    public func resume() { ui.resume() }
    public func close() { ui.close() }
}
