// swift-format-ignore-file
// Generated from MessageID+Media.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+Media.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// truncated: {what}; the file is incomplete, copy or export it again
    public static func mediaTruncated(what: String) -> String { Self.text(.mediaTruncated, ["what": what]) }

    /// damaged or invalid ({what}); export or record it again
    public static func mediaMalformed(what: String) -> String { Self.text(.mediaMalformed, ["what": what]) }

    /// {width}×{height} pixels is too large (photos: at most 16384 a side; clips: at most 8192 a side and 35
    /// megapixels); scale it down
    public static func mediaTooLarge(width: String, height: String) -> String {
        Self.text(.mediaTooLarge, ["width": width, "height": height])
    }

    /// unsupported: {what}
    public static func mediaUnsupported(what: String) -> String { Self.text(.mediaUnsupported, ["what": what]) }

    /// {expected} bytes of pixels expected, {present} present
    public static func mediaCutPixelBytes(expected: String, present: String) -> String {
        Self.text(.mediaCutPixelBytes, ["expected": expected, "present": present])
    }

    /// fewer numbers than the {samples} samples the header declares
    public static func mediaCutFewerNumbers(samples: String) -> String {
        Self.text(.mediaCutFewerNumbers, ["samples": samples])
    }

    /// sample {index} of {samples} is missing
    public static func mediaCutSample(index: String, samples: String) -> String {
        Self.text(.mediaCutSample, ["index": index, "samples": samples])
    }

    /// the header ends before its {field}
    public static func mediaCutHeader(field: String) -> String { Self.text(.mediaCutHeader, ["field": field]) }

    /// frame {index} ends within its FRAME line
    public static func mediaCutFrameLine(index: String) -> String { Self.text(.mediaCutFrameLine, ["index": index]) }

    /// frame {index} has {present} of its {expected} bytes
    public static func mediaCutFrame(index: String, present: String, expected: String) -> String {
        Self.text(.mediaCutFrame, ["index": index, "present": present, "expected": expected])
    }

    /// the {format} data ends before the image does
    public static func mediaCutImage(format: String) -> String { Self.text(.mediaCutImage, ["format": format]) }

    /// maxval {value} is outside 1…65535
    public static func mediaBadMaxval(value: String) -> String { Self.text(.mediaBadMaxval, ["value": value]) }

    /// sample {index} is not a number
    public static func mediaBadSample(index: String) -> String { Self.text(.mediaBadSample, ["index": index]) }

    /// sample {index} is {value}, above maxval {maxval}
    public static func mediaBadSampleAbove(index: String, value: String, maxval: String) -> String {
        Self.text(.mediaBadSampleAbove, ["index": index, "value": value, "maxval": maxval])
    }

    /// the header's {field} is not a number
    public static func mediaBadHeader(field: String) -> String { Self.text(.mediaBadHeader, ["field": field]) }

    /// frame rate F{value} must be positive
    public static func mediaBadFrameRate(value: String) -> String { Self.text(.mediaBadFrameRate, ["value": value]) }

    /// interlacing I{value} is not one of p, t, b, m, ?
    public static func mediaBadInterlacing(value: String) -> String {
        Self.text(.mediaBadInterlacing, ["value": value])
    }

    /// X{value} is neither FULL nor LIMITED
    public static func mediaBadColorRange(value: String) -> String { Self.text(.mediaBadColorRange, ["value": value]) }

    /// frame {index} does not start with FRAME
    public static func mediaBadFrameWord(index: String) -> String { Self.text(.mediaBadFrameWord, ["index": index]) }

    /// frame {index} does not start with a FRAME line
    public static func mediaBadFrameLine(index: String) -> String { Self.text(.mediaBadFrameLine, ["index": index]) }

    /// {tag} is "{text}", not a positive number
    public static func mediaBadNumber(tag: String, text: String) -> String {
        Self.text(.mediaBadNumber, ["tag": tag, "text": text])
    }

    /// {tag} is "{text}", not a ratio like 30:1
    public static func mediaBadRatio(tag: String, text: String) -> String {
        Self.text(.mediaBadRatio, ["tag": tag, "text": text])
    }

    /// the header line is longer than {limit} bytes
    public static func mediaBadHeaderLine(limit: String) -> String { Self.text(.mediaBadHeaderLine, ["limit": limit]) }

    /// a {format} {width}×{height} frame cannot go into a {clipFormat} {clipWidth}×{clipHeight} clip
    public static func mediaBadFrameSize(format: String, width: String, height: String, clipFormat: String, clipWidth: String, clipHeight: String) -> String {
        Self.text(.mediaBadFrameSize, ["format": format, "width": width, "height": height, "clipFormat": clipFormat, "clipWidth": clipWidth, "clipHeight": clipHeight])
    }

    /// zero width or height ({width}×{height})
    public static func mediaBadZeroSize(width: String, height: String) -> String {
        Self.text(.mediaBadZeroSize, ["width": width, "height": height])
    }

    /// {format} decoder: {detail}
    public static func mediaBadDecoder(format: String, detail: String) -> String {
        Self.text(.mediaBadDecoder, ["format": format, "detail": detail])
    }

    /// colour space C{value} (facecap reads 8-bit C420jpeg, C420mpeg2, C420paldv, C420, C422, C444 and Cmono; convert
    /// with ffmpeg -pix_fmt yuv420p)
    public static func mediaNoColorSpace(value: String) -> String { Self.text(.mediaNoColorSpace, ["value": value]) }

    /// {format} frames cannot be stored as C{space}
    public static func mediaNoStore(format: String, space: String) -> String {
        Self.text(.mediaNoStore, ["format": format, "space": space])
    }

    /// not enough memory to decode the {format}
    public static func mediaNoMemory(format: String) -> String { Self.text(.mediaNoMemory, ["format": format]) }

    /// a {format} photo, not a .y4m clip; analyse photos with 'facecap analyze', or make a 3-second clip of it with
    /// 'ffmpeg -loop 1 -i PHOTO -frames:v 90 -pix_fmt yuv420p OUT.y4m' (from a video: 'ffmpeg -i VIDEO -pix_fmt yuv420p
    /// OUT.y4m'; from a camera: 'facecap record')
    public static func mediaPhotoNotClip(format: String) -> String { Self.text(.mediaPhotoNotClip, ["format": format]) }

    /// a {format} image, which facecap does not read (it reads JPEG, PNG, PPM/PGM and .y4m clips); convert it to PNG
    /// first, e.g. 'convert IN OUT.png' (ImageMagick) or 'ffmpeg -i IN OUT.png'
    public static func mediaForeignImage(format: String) -> String { Self.text(.mediaForeignImage, ["format": format]) }
}
