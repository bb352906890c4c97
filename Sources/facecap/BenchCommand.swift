import FaceCapCore

/// `facecap bench`.
enum BenchCommand {
    static func run(_ arguments: [String]) throws -> ExitCode {
        throw UsageError("'facecap bench' is not built yet")
    }
}
