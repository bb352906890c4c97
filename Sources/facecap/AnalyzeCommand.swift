import FaceCapCore

/// `facecap analyze`.
enum AnalyzeCommand {
    static func run(_ arguments: [String]) throws -> ExitCode {
        throw UsageError("'facecap analyze' is not built yet")
    }
}
