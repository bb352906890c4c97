/// What a clip writer (`Y4MFileWriter`) cannot take: a clip shape no clip has, a frame after the end, or a frame the
/// encoder refuses. A programming error upstream, said inside the brackets of `output.frame`; typed values, worded
/// by the catalogue (`MessageID+Camera.swift`) as `MediaDataError` is.
public enum ClipFrameMismatch: Equatable, Sendable {
    /// A size or a frame rate no clip can have (not positive, or the rate not finite).
    case clipShape(width: Int, height: Int, frameRate: Double)
    /// A frame handed to a writer that was closed.
    case writerClosed
    /// A frame (or the clip's format) the encoder refuses; the `MediaDataError` says why.
    case data(MediaDataError)

    /// The phrase in the current language, for inside `output.frame`'s brackets.
    public var text: String {
        switch self {
        case .clipShape(let width, let height, let frameRate):
            return Words.outputFrameClipShape(width: String(width), height: String(height), rate: String(frameRate))
        case .writerClosed: return Words.text(.outputFrameClosed)
        case .data(let error): return error.summary
        }
    }
}
