import FaceCapCore

/// `facecap devices`.
enum DevicesCommand {
    static func run(_ arguments: [String]) throws -> ExitCode {
        throw UsageError("'facecap devices' is not built yet")
    }
}
