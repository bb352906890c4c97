import FaceCapCore

/// `facecap record`.
enum RecordCommand {
    static func run(_ arguments: [String]) throws -> ExitCode {
        throw UsageError("'facecap record' is not built yet")
    }
}
