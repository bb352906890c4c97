/// Something the person did at the front end.
public enum FrontEndInput: Equatable, Sendable {
    case key(Key)
    /// The terminal changed size (full-screen front end only).
    case resized(columns: Int, rows: Int)
}

/// The photo a screen shows, and which photo it is: the session counts the photos it takes, so a front end knows a
/// new one by its generation instead of comparing pixels.
public struct ShownPhoto: Sendable {
    public let frame: Frame
    /// 1 for the session's first photo, one more for each after it; the same for every render of one photo.
    public let generation: Int

    public init(_ frame: Frame, generation: Int) {
        self.frame = frame
        self.generation = generation
    }
}

/// What draws the wizard's screens and reads the person's keys: the full-screen ncurses front end
/// (FaceCapTerminal's `CursesFrontEnd`) or the `--plain` line printer (`PlainFrontEnd`, beside it). It
/// lives in Core, beside the flow it serves, and uses only Core's types and descriptors; the session (FaceCapIO)
/// owns the loop, and a front end never blocks.
public protocol WizardFrontEnd: AnyObject {
    /// The descriptor to poll for input, or nil when there is nothing (more) to read.
    var inputDescriptor: Int32? { get }
    /// The terminal size in cells, or nil when there is no screen (plain mode).
    var size: (columns: Int, rows: Int)? { get }
    /// Reads what is waiting, without blocking.
    func readInput() -> [FrontEndInput]
    /// Shows `model`. `preview` is the newest camera frame (unmirrored; the front end mirrors it), `photo` the
    /// photo taken; both only when the screen shows them.
    func render(_ model: ScreenModel, preview: Frame?, photo: ShownPhoto?)
    /// The terminal size changed (SIGWINCH): returns the new size.
    func resize() -> (columns: Int, rows: Int)?
    /// Leave the screen before the process stops (SIGTSTP), and take it back after SIGCONT.
    func suspend()
    func resume()
    /// Restores the terminal; safe to call twice.
    func close()
    /// True once the output's reader went away (EPIPE): the session then ends as if asked to stop.
    var outputClosed: Bool { get }
    /// True when something held back (a paced `--plain` line) is due: the run loop then renders even when the
    /// screen did not change.
    var hasDueOutput: Bool { get }
}

extension WizardFrontEnd {
    public var outputClosed: Bool { false }
    public var hasDueOutput: Bool { false }
}
