/// The typed reasons inside `MediaDataError`, each worded by the catalogue (`MessageID+Media.swift`).
extension MediaDataError {
    /// A number of a PPM/PGM header.
    public enum PNMField: Equatable, Sendable {
        case width, height, maxval

        /// The field's name in the current language.
        public var text: String {
            switch self {
            case .width: return Words.text(.mediaFieldWidth)
            case .height: return Words.text(.mediaFieldHeight)
            case .maxval: return Words.text(.mediaFieldMaxval)
            }
        }
    }

    /// A tag of a .y4m header that holds a number or a ratio.
    public enum Y4MTag: Equatable, Sendable {
        case width, height, frameRate, aspectRatio

        /// The tag, its letter and its name in the current language.
        public var text: String {
            switch self {
            case .width: return Words.text(.mediaTagWidth)
            case .height: return Words.text(.mediaTagHeight)
            case .frameRate: return Words.text(.mediaTagFrameRate)
            case .aspectRatio: return Words.text(.mediaTagAspectRatio)
            }
        }
    }

    /// Where the data ends too soon.
    public enum Truncation: Equatable, Sendable {
        /// A binary PPM/PGM header with nothing after it.
        case noPixelData
        /// A binary PPM/PGM with fewer pixel bytes than its header declares.
        case pixelBytes(expected: Int, present: Int)
        /// A text PPM/PGM with fewer numbers than its header declares.
        case fewerNumbers(samples: Int)
        /// A text PPM/PGM that ends before sample `index`.
        case sampleMissing(index: Int, samples: Int)
        /// A PPM/PGM header that ends before `field`.
        case header(PNMField)
        /// A clip that ends inside frame `frame`'s FRAME line.
        case frameLine(frame: Int)
        /// A clip whose header line has no newline.
        case headerLine
        /// A clip whose frame `frame` has `present` of its `expected` bytes.
        case frameBytes(frame: Int, present: Int, expected: Int)
        /// JPEG or PNG data that ends before the picture (`format` is the format's name).
        case imageData(format: String)

        /// The phrase in the current language, for after "truncated:".
        public var text: String {
            switch self {
            case .noPixelData: return Words.text(.mediaCutNoPixels)
            case .pixelBytes(let expected, let present):
                return Words.mediaCutPixelBytes(expected: String(expected), present: String(present))
            case .fewerNumbers(let samples): return Words.mediaCutFewerNumbers(samples: String(samples))
            case .sampleMissing(let index, let samples):
                return Words.mediaCutSample(index: String(index), samples: String(samples))
            case .header(let field): return Words.mediaCutHeader(field: field.text)
            case .frameLine(let frame): return Words.mediaCutFrameLine(index: String(frame))
            case .headerLine: return Words.text(.mediaCutHeaderLine)
            case .frameBytes(let frame, let present, let expected):
                return Words.mediaCutFrame(index: String(frame), present: String(present), expected: String(expected))
            case .imageData(let format): return Words.mediaCutImage(format: format)
            }
        }
    }

    /// What breaks the format's rules.
    public enum Damage: Equatable, Sendable {
        case pnmSignature
        case maxval(Int)
        case noWhitespaceAfterMaxval
        case sampleNotANumber(index: Int)
        case sampleAboveMaxval(index: Int, value: Int, maxval: Int)
        case headerNotANumber(PNMField)
        case y4mSignature
        /// The F tag's value (after the letter), a ratio that is not positive.
        case frameRate(String)
        /// The I tag's value, none of p, t, b, m, ?.
        case interlacing(String)
        /// The X tag's value, a COLORRANGE neither FULL nor LIMITED.
        case colorRange(String)
        /// A .y4m header without its W or H tag.
        case noSize
        /// A line where frame `frame`'s FRAME line belongs.
        case frameWord(frame: Int)
        /// Bytes where frame `frame`'s FRAME line belongs, without a newline.
        case frameLine(frame: Int)
        case notANumber(Y4MTag, text: String)
        case notARatio(Y4MTag, text: String)
        case headerLineTooLong(limit: Int)
        /// A frame given to a clip's encoder that is not of the clip's format and size.
        case frameMismatch(
            format: PixelFormat, width: Int, height: Int, clip: PixelFormat, clipWidth: Int, clipHeight: Int)
        case noFrames
        case zeroSize(width: Int, height: Int)
        /// A JPEG or PNG decoder's own message (`format` is the format's name), which facecap does not translate.
        case decoder(format: String, detail: String)

        /// The phrase in the current language, for inside "damaged or invalid (…)".
        public var text: String {
            switch self {
            case .pnmSignature: return Words.text(.mediaBadPNMSignature)
            case .maxval(let value): return Words.mediaBadMaxval(value: String(value))
            case .noWhitespaceAfterMaxval: return Words.text(.mediaBadAfterMaxval)
            case .sampleNotANumber(let index): return Words.mediaBadSample(index: String(index))
            case .sampleAboveMaxval(let index, let value, let maxval):
                return Words.mediaBadSampleAbove(index: String(index), value: String(value), maxval: String(maxval))
            case .headerNotANumber(let field): return Words.mediaBadHeader(field: field.text)
            case .y4mSignature: return Words.text(.mediaBadY4MSignature)
            case .frameRate(let value): return Words.mediaBadFrameRate(value: value)
            case .interlacing(let value): return Words.mediaBadInterlacing(value: value)
            case .colorRange(let value): return Words.mediaBadColorRange(value: value)
            case .noSize: return Words.text(.mediaBadNoSize)
            case .frameWord(let frame): return Words.mediaBadFrameWord(index: String(frame))
            case .frameLine(let frame): return Words.mediaBadFrameLine(index: String(frame))
            case .notANumber(let tag, let text): return Words.mediaBadNumber(tag: tag.text, text: text)
            case .notARatio(let tag, let text): return Words.mediaBadRatio(tag: tag.text, text: text)
            case .headerLineTooLong(let limit): return Words.mediaBadHeaderLine(limit: String(limit))
            case .frameMismatch(let format, let width, let height, let clip, let clipWidth, let clipHeight):
                return Words.mediaBadFrameSize(
                    format: format.rawValue, width: String(width), height: String(height), clipFormat: clip.rawValue,
                    clipWidth: String(clipWidth), clipHeight: String(clipHeight))
            case .noFrames: return Words.text(.mediaBadNoFrames)
            case .zeroSize(let width, let height):
                return Words.mediaBadZeroSize(width: String(width), height: String(height))
            case .decoder(let format, let detail): return Words.mediaBadDecoder(format: format, detail: detail)
            }
        }
    }

    /// Valid data that uses a feature facecap does not handle.
    public enum Unsupported: Equatable, Sendable {
        /// PBM bitmaps and PAM files.
        case pnmBitmap
        /// The C tag's value, a colour space facecap does not read.
        case colorSpace(String)
        /// Frames of `format` that a clip of colour space `space` cannot hold.
        case cannotStore(PixelFormat, space: Y4MColorSpace)
        /// Not enough memory to decode a JPEG or PNG (`format` is the format's name).
        case noMemory(format: String)
        /// A JPEG or PNG feature the decoder refuses, in its own words, which facecap does not translate.
        case library(format: String, detail: String)

        /// The phrase in the current language, for after "unsupported:".
        public var text: String {
            switch self {
            case .pnmBitmap: return Words.text(.mediaNoPBM)
            case .colorSpace(let value): return Words.mediaNoColorSpace(value: value)
            case .cannotStore(let format, let space):
                return Words.mediaNoStore(format: format.rawValue, space: space.rawValue)
            case .noMemory(let format): return Words.mediaNoMemory(format: format)
            case .library(let format, let detail): return Words.labelled(format, detail)
            }
        }
    }

    /// A file of another kind than the command reads.
    public enum WrongKind: Equatable, Sendable {
        /// A photo (`format`: JPEG, PNG or PPM/PGM) where a .y4m clip belongs.
        case photoNotClip(format: String)
        /// A .y4m clip where a photo belongs.
        case clipNotPhoto
        /// An image format facecap does not read (`format`: its name, such as WebP).
        case foreignImage(format: String)

        /// The whole summary in the current language, with the command that converts the file.
        public var text: String {
            switch self {
            case .photoNotClip(let format): return Words.mediaPhotoNotClip(format: format)
            case .clipNotPhoto: return Words.text(.mediaClipNotPhoto)
            case .foreignImage(let format): return Words.mediaForeignImage(format: format)
            }
        }
    }
}
