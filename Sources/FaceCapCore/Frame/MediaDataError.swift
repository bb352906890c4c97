/// What is wrong with the bytes of an image or a clip, independent of where they came from.
///
/// The parsers in FaceCapCore throw this; FaceCapIO wraps it with the file's path into a
/// `UserFacingError` (`InputFileError`). Each case carries typed values, worded in the current language by
/// the catalogue (`MessageID+Media.swift`); only a decoding library's own message stays as it came.
public enum MediaDataError: Error, Equatable, Sendable {
    /// There are no bytes at all.
    case empty
    /// The content is none of the formats facecap reads.
    case unknownFormat
    /// The data ends before the picture (or the named part of it) does.
    case truncated(Truncation)
    /// The data breaks the format's rules.
    case malformed(Damage)
    /// The declared size is beyond what facecap is willing to allocate.
    case tooLarge(width: Int, height: Int)
    /// Valid data that uses a feature facecap does not handle.
    case unsupported(Unsupported)
    /// A file of another kind than expected (a photo where a clip belongs).
    case wrongKind(WrongKind)

    /// One phrase (no path, no trailing period) that describes the problem and, where it helps, the fix.
    public var summary: String {
        switch self {
        case .empty: return Words.text(.mediaEmpty)
        case .unknownFormat: return Words.text(.mediaUnknownFormat)
        case .truncated(let what): return Words.mediaTruncated(what: what.text)
        case .malformed(let what): return Words.mediaMalformed(what: what.text)
        case .tooLarge(let width, let height): return Words.mediaTooLarge(width: String(width), height: String(height))
        case .unsupported(let what): return Words.mediaUnsupported(what: what.text)
        case .wrongKind(let what): return what.text
        }
    }
}

/// The largest picture facecap decodes; checked against a header before anything image-sized is allocated.
public struct ImageLimits: Sendable, Equatable {
    public var maxSide: Int
    public var maxPixels: Int

    public init(maxSide: Int, maxPixels: Int) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
    }

    /// 16384 pixels a side and 268 megapixels (16384²): beyond any camera, yet the RGB buffer (≤ 805 MB)
    /// is still allocatable on a laptop.
    public static let `default` = ImageLimits(maxSide: 16384, maxPixels: 16384 * 16384)

    /// 8192 pixels a side and 8K UHD's 35 megapixels (8192×4320) for clip frames: a frame is allocated
    /// before the file is known to hold it, and no webcam clip comes near this.
    public static let clip = ImageLimits(maxSide: 8192, maxPixels: 8192 * 4320)

    /// Throws `tooLarge` unless `width`×`height` is positive and within the limits.
    public func check(width: Int, height: Int) throws(MediaDataError) {
        guard width > 0, height > 0 else { throw .malformed(.zeroSize(width: width, height: height)) }
        guard width <= maxSide, height <= maxSide,
            width.multipliedReportingOverflow(by: height).partialValue
                <= maxPixels
        else { throw .tooLarge(width: width, height: height) }
    }
}
