import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// A file facecap could not write (photo, report, recorded clip): the path and what to do about it.
/// Exit code 1; whatever was partly written has been removed (or, for a clip, cut back to whole frames).
public struct OutputFileError: UserFacingError, Equatable {
    public enum Problem: Equatable, Sendable {
        case directoryMissing
        case permissionDenied
        case readOnlyFileSystem
        case diskFull
        case isDirectory
        /// A file (not a folder) stands where a folder of the path should be.
        case notADirectory
        /// The file already exists and was not replaced (writes that must not overwrite).
        case alreadyExists
        /// What a clip writer was handed does not fit it (size, rate, format, or a closed writer); a programming
        /// error upstream.
        case frameMismatch(ClipFrameMismatch)
        /// The image cannot be encoded (e.g. larger than JPEG allows); the text says why.
        case encoding(String)
        /// Another failure of a system call; the text is the `Errno`'s description.
        case system(String)
    }

    public var path: String
    public var problem: Problem
    /// The option that chose the path, named in the advice ("choose another with --output").
    public var option = "--output"

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var message: String {
        switch problem {
        case .directoryMissing: return Words.outputNoFolder(path: path, option: option)
        case .permissionDenied: return Words.outputDenied(path: path)
        case .readOnlyFileSystem: return Words.outputReadOnly(path: path)
        case .diskFull: return Words.outputDiskFull(path: path)
        case .isDirectory: return Words.outputIsDirectory(path: path)
        case .notADirectory: return Words.outputNotFolder(path: path, option: option)
        case .alreadyExists: return Words.outputExists(path: path)
        case .frameMismatch(let why): return Words.outputFrame(path: path, detail: why.text)
        case .encoding(let detail): return Words.outputEncoding(path: path, detail: detail)
        case .system(let detail): return Words.outputSystem(path: path, detail: detail)
        }
    }

    public var exitCode: ExitCode { .failure }

    public static func problem(errno code: Int32) -> Problem {
        switch code {
        case ENOENT: return .directoryMissing
        case ENOTDIR: return .notADirectory
        case EEXIST: return .alreadyExists
        case EACCES, EPERM: return .permissionDenied
        case EROFS: return .readOnlyFileSystem
        case ENOSPC, EDQUOT, EFBIG: return .diskFull
        case EISDIR: return .isDirectory
        default: return .system(Errno(code).description)
        }
    }
}
