import FaceCapCore

@testable import FaceCapIO

extension FrameSourceError {
    /// The camera's error, when this is one.
    var camera: CameraError? {
        if case .camera(let error) = self { return error }
        return nil
    }

    /// The clip's end, when this is one.
    var clipEnded: ClipEndedError? {
        if case .clipEnded(let error) = self { return error }
        return nil
    }

    /// What a clip source throws for `error` from its file.
    static func unreadable(_ error: InputFileError) -> FrameSourceError {
        .unreadable(message: error.message, exitCode: error.exitCode)
    }
}
