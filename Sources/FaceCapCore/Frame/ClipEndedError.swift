/// The end of a replayed clip (without `--loop`): the wizard shows it like a camera that stopped.
public struct ClipEndedError: Error, UserFacingError, Equatable, Sendable {
    public var path: String
    public var framesPlayed: Int
    /// The clip's last frame was cut short (the frames before it were played).
    public var lastFrameTruncated: Bool

    public init(path: String, framesPlayed: Int, lastFrameTruncated: Bool) {
        self.path = path
        self.framesPlayed = framesPlayed
        self.lastFrameTruncated = lastFrameTruncated
    }

    public var message: String {
        lastFrameTruncated
            ? Words.clipEndedCut(count: framesPlayed, path: path)
            : Words.clipEnded(count: framesPlayed, path: path)
    }

    public var exitCode: ExitCode { .failure }
}
