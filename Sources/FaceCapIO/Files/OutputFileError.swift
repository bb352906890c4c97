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
        /// The frame handed to a writer does not fit it (format or size); a programming error upstream.
        case frameMismatch(String)
        /// The image cannot be encoded (e.g. larger than JPEG allows); the text says why.
        case encoding(String)
        /// Another failure of a system call; the text is strerror's.
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
        let what: String
        switch problem {
        case .directoryMissing: what = "the folder does not exist; create it or choose another with \(option)"
        case .permissionDenied: what = "permission denied; choose a folder you can write to"
        case .readOnlyFileSystem: what = "the file system is read-only; choose another folder"
        case .diskFull: what = "the disk is full (or over quota); free some space and try again"
        case .isDirectory: what = "is a directory; give a file name"
        case .notADirectory: what = "is a file, not a folder; move it away or choose another folder with \(option)"
        case .alreadyExists: what = "already exists; it was left as it is"
        case .frameMismatch(let detail): what = "cannot write this frame (\(detail))"
        case .encoding(let detail): what = "cannot encode the image (\(detail))"
        case .system(let detail): what = "cannot be written (\(detail))"
        }
        return "\(path): \(what)"
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
        default: return .system(String(cString: strerror(code)))
        }
    }
}
