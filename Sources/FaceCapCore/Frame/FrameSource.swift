/// What a frame source delivered on one call.
public enum FrameReadResult: Sendable, Equatable {
    /// A new frame was written into the caller's `Frame`.
    case frame
    /// Nothing arrived within the timeout; call again.
    case noFrameYet
}

/// A source of frames: a camera, or a clip replayed at its own frame rate.
///
/// A source that stops for good (camera unplugged, clip ended without looping) throws an error that
/// conforms to `UserFacingError`, so the wizard shows it as a lost camera.
public protocol FrameSource: AnyObject {
    /// Frame width and height in pixels, as delivered (after any driver adjustment).
    var width: Int { get }
    var height: Int { get }
    var format: PixelFormat { get }
    /// Frames per second the source delivers (the negotiated rate, or the clip's).
    var frameRate: Double { get }
    /// A short human description, e.g. "/dev/video0 (Integrated Camera, YUYV 640×480 @ 30 fps)".
    var label: String { get }
    /// Waits at most `timeout` seconds for the next frame and writes it into `frame`, reusing its
    /// storage when it is large enough.
    func nextFrame(into frame: inout Frame, timeout: Double) throws -> FrameReadResult
    /// Stops streaming and releases the device or file; safe to call twice.
    func close()
}
