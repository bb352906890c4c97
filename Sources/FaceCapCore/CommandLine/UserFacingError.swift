/// An error that knows the one line a person should read and the exit code scripts should see.
///
/// Every error that can reach the command line conforms, so `main` never prints a raw errno, a type
/// name or a stack trace.
public protocol UserFacingError: Error {
    /// One line (no trailing newline) that says what went wrong and what to do about it.
    var message: String { get }
    var exitCode: ExitCode { get }
}

extension UsageError: UserFacingError {
    public var exitCode: ExitCode { .usage }
}
