/// What a frame source delivered on one call.
public enum FrameReadResult: Sendable, Equatable {
    /// A new frame was written into the caller's `Frame`.
    case frame
    /// Nothing arrived within the timeout; call again.
    case noFrameYet
}

/// Why a frame source stopped for good. Switchable, so the wizard can tell a lost camera (connection
/// error with recovery) from a clip that ended or cannot be read.
public enum FrameSourceError: Error, UserFacingError, Sendable, Equatable {
    /// The opened camera failed; `isStreamLoss` tells an unplugged or stalled camera from other faults.
    case camera(CameraError)
    /// A replayed clip ended (without `--loop`).
    case clipEnded(ClipEndedError)
    /// A clip that cannot be read further (an I/O error, a malformed frame); the message names the file.
    case unreadable(message: String, exitCode: ExitCode)

    public var message: String {
        switch self {
        case .camera(let error): return error.message
        case .clipEnded(let error): return error.message
        case .unreadable(let message, _): return message
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .camera(let error): return error.exitCode
        case .clipEnded(let error): return error.exitCode
        case .unreadable(_, let exitCode): return exitCode
        }
    }
}

/// A source of frames: a camera, or a clip replayed at its own frame rate.
///
/// Built for a `poll()` run loop: wait on `pollDescriptor` (a camera) or for `secondsUntilNextFrame`
/// (a paced clip) together with the terminal and other descriptors, then call `nextFrame(timeout: 0)`,
/// which never blocks.
public protocol FrameSource: AnyObject {
    /// Frame width and height in pixels, as delivered (after any driver adjustment).
    var width: Int { get }
    var height: Int { get }
    var format: PixelFormat { get }
    /// Frames per second the source delivers (the negotiated rate, or the clip's).
    var frameRate: Double { get }
    /// A short human description, e.g. "/dev/video0 (Integrated Camera, YUYV 640×480 @ 30 fps)".
    var label: String { get }
    /// A descriptor that polls readable (POLLIN) when a frame is ready: the camera's V4L2 file
    /// descriptor while it streams; nil for clips, and for a closed or failed camera.
    var pollDescriptor: Int32? { get }
    /// Seconds until the next frame is due (0 when it is due now) for a clip; nil for a camera, whose
    /// frames come when they come (wait on `pollDescriptor`).
    var secondsUntilNextFrame: Double? { get }
    /// Waits at most `timeout` seconds for the next frame and writes it into `frame`, reusing its
    /// storage when it is large enough. With a timeout of 0 it never blocks: a paced clip whose next
    /// frame is not due yet returns `.noFrameYet`.
    func nextFrame(into frame: inout Frame, timeout: Double) throws(FrameSourceError) -> FrameReadResult
    /// Stops streaming and releases the device or file; safe to call twice.
    func close()
}
