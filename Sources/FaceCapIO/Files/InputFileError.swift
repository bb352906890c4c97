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
        /// Another failure of open/read; the text is the `Errno`'s description.
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
        switch problem {
        case .missing: return Words.inputMissing(path: path)
        case .permissionDenied: return Words.inputDenied(path: path)
        case .isDirectory: return Words.inputDirectory(path: path)
        case .notARegularFile: return Words.inputNotRegular(path: path)
        case .fileTooLarge(let bytes, let limit):
            return Words.inputTooLarge(path: path, size: String(bytes / 1_048_576), limit: String(limit / 1_048_576))
        case .unreadable(let reason): return Words.inputUnreadable(path: path, reason: reason)
        case .data(let error): return Words.filePathProblem(path: path, problem: error.summary)
        case .outOfMemory: return Words.inputOutOfMemory(path: path)
        }
    }

    public var exitCode: ExitCode { .noInput }

    /// The problem an `errno` from open/read/stat stands for.
    static func problem(errno code: Int32) -> Problem {
        switch code {
        case ENOENT, ENOTDIR: return .missing
        case EACCES, EPERM: return .permissionDenied
        case EISDIR: return .isDirectory
        case ENOMEM: return .outOfMemory
        default: return .unreadable(Errno(code).description)
        }
    }
}
