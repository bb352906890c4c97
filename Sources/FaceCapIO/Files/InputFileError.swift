import FaceCapCore
#if canImport(Glibc)
import Glibc
#endif

/// An input file (photo or clip) that facecap could not use: the path and what is wrong with it.
///
/// Exit code 66 (EX_NOINPUT) for every case, as the command-line contract says for missing,
/// unreadable and undecodable input.
public struct InputFileError: UserFacingError, Equatable {
    public enum Problem: Equatable, Sendable {
        case missing
        case permissionDenied
        case isDirectory
        /// A device or socket rather than a file.
        case notARegularFile
        /// The file is larger than facecap will read into memory.
        case fileTooLarge(bytes: Int, limit: Int)
        /// Another failure of open/read; the text is strerror's.
        case unreadable(String)
        /// The bytes are not a usable image or clip.
        case data(MediaDataError)
        case outOfMemory
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var message: String {
        let what: String
        switch problem {
        case .missing: what = "no such file; check the path"
        case .permissionDenied: what = "permission denied; check the file's permissions (ls -l) or run as its owner"
        case .isDirectory: what = "is a directory; give the path of an image or .y4m file"
        case .notARegularFile: what = "is not a regular file; give the path of an image or .y4m file"
        case .fileTooLarge(let bytes, let limit):
            what = "the file is too large (\(bytes / 1_048_576) MiB, at most \(limit / 1_048_576) MiB); scale it down"
        case .unreadable(let reason): what = "cannot be read (\(reason))"
        case .data(let error): what = error.summary
        case .outOfMemory: what = "not enough memory to decode it"
        }
        return "\(path): \(what)"
    }

    public var exitCode: ExitCode { .noInput }

    /// The problem an `errno` from open/read/stat stands for.
    static func problem(errno code: Int32) -> Problem {
        switch code {
        case ENOENT, ENOTDIR: return .missing
        case EACCES, EPERM: return .permissionDenied
        case EISDIR: return .isDirectory
        case ENOMEM: return .outOfMemory
        default: return .unreadable(String(cString: strerror(code)))
        }
    }
}
