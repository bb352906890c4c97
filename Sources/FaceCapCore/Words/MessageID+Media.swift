/// What is wrong with the bytes of a photo or a clip (`MediaDataError`): one line a message, its id, English,
/// plural and note together (`MessageID`'s table). Each is said after "{path}: " (file.pathProblem).

extension MessageID {
    /// The note of each `{what}` of media.truncated.
    private static let cutNote = "After 'truncated:' in media.truncated: a phrase, no full stop."
    /// The note of each `{what}` of media.malformed.
    private static let badNote = "Inside the brackets of media.malformed: a phrase, no full stop."
    /// The note of each `{what}` of media.unsupported.
    private static let unsupportedNote = "After 'unsupported:' in media.unsupported: a phrase, no full stop."
    /// The note of a header field's name.
    private static let fieldNote = "A field of a PPM/PGM header, the {field} of media.cut.header and media.bad.header."
    /// The note of a Y4M header tag's name.
    private static let tagNote =
        "A tag of a .y4m clip's header (the letter stays), the {tag} of media.bad.number and media.bad.ratio."

    static let mediaMessages: [MessageID: Message] = [
        // The kinds of problem, each with its fix.
        .mediaEmpty: Message("media.empty", "the file is empty"),
        .mediaUnknownFormat: Message(
            "media.unknownFormat", "not a JPEG, PNG, PPM/PGM or Y4M file (unrecognised content)"),
        .mediaTruncated: Message(
            "media.truncated", "truncated: {what}; the file is incomplete, copy or export it again"),
        .mediaMalformed: Message("media.malformed", "damaged or invalid ({what}); export or record it again"),
        .mediaTooLarge: Message(
            "media.tooLarge",
            "{width}×{height} pixels is too large (photos: at most 16384 a side; clips: at most 8192 a side and 35 "
                + "megapixels); scale it down"),
        .mediaUnsupported: Message("media.unsupported", "unsupported: {what}"),
        // Where the data ends too soon (MediaDataError.Truncation).
        .mediaCutNoPixels: Message("media.cut.noPixels", "no pixel data after the header", note: cutNote),
        .mediaCutPixelBytes: Message(
            "media.cut.pixelBytes", "{expected} bytes of pixels expected, {present} present", note: cutNote),
        .mediaCutFewerNumbers: Message(
            "media.cut.fewerNumbers", "fewer numbers than the {samples} samples the header declares", note: cutNote),
        .mediaCutSample: Message("media.cut.sample", "sample {index} of {samples} is missing", note: cutNote),
        .mediaCutHeader: Message("media.cut.header", "the header ends before its {field}", note: cutNote),
        .mediaCutFrameLine: Message("media.cut.frameLine", "frame {index} ends within its FRAME line", note: cutNote),
        .mediaCutHeaderLine: Message("media.cut.headerLine", "the header line has no end", note: cutNote),
        .mediaCutFrame: Message(
            "media.cut.frame", "frame {index} has {present} of its {expected} bytes", note: cutNote),
        .mediaCutImage: Message(
            "media.cut.image", "the {format} data ends before the image does",
            note: "After 'truncated:' in media.truncated: a phrase, no full stop. {format} is JPEG or PNG."),
        // The names inside them.
        .mediaFieldWidth: Message("media.field.width", "width", note: fieldNote),
        .mediaFieldHeight: Message("media.field.height", "height", note: fieldNote),
        .mediaFieldMaxval: Message("media.field.maxval", "maxval", note: fieldNote + " The format's own word."),
        .mediaTagWidth: Message("media.tag.width", "W (width)", note: tagNote),
        .mediaTagHeight: Message("media.tag.height", "H (height)", note: tagNote),
        .mediaTagFrameRate: Message("media.tag.frameRate", "F (frame rate)", note: tagNote),
        .mediaTagAspectRatio: Message("media.tag.aspectRatio", "A (aspect ratio)", note: tagNote),
        // What breaks the format's rules (MediaDataError.Damage).
        .mediaBadPNMSignature: Message("media.bad.pnmSignature", "not a PGM/PPM signature", note: badNote),
        .mediaBadMaxval: Message("media.bad.maxval", "maxval {value} is outside 1…65535", note: badNote),
        .mediaBadAfterMaxval: Message("media.bad.afterMaxval", "no whitespace after maxval", note: badNote),
        .mediaBadSample: Message("media.bad.sample", "sample {index} is not a number", note: badNote),
        .mediaBadSampleAbove: Message(
            "media.bad.sampleAbove", "sample {index} is {value}, above maxval {maxval}", note: badNote),
        .mediaBadHeader: Message("media.bad.header", "the header's {field} is not a number", note: badNote),
        .mediaBadY4MSignature: Message("media.bad.y4mSignature", "not a YUV4MPEG2 header", note: badNote),
        .mediaBadFrameRate: Message("media.bad.frameRate", "frame rate F{value} must be positive", note: badNote),
        .mediaBadInterlacing: Message(
            "media.bad.interlacing", "interlacing I{value} is not one of p, t, b, m, ?", note: badNote),
        .mediaBadColorRange: Message("media.bad.colorRange", "X{value} is neither FULL nor LIMITED", note: badNote),
        .mediaBadNoSize: Message(
            "media.bad.noSize", "the header lacks its W (width) or H (height) tag", note: badNote),
        .mediaBadFrameWord: Message("media.bad.frameWord", "frame {index} does not start with FRAME", note: badNote),
        .mediaBadFrameLine: Message(
            "media.bad.frameLine", "frame {index} does not start with a FRAME line", note: badNote),
        .mediaBadNumber: Message("media.bad.number", "{tag} is \"{text}\", not a positive number", note: badNote),
        .mediaBadRatio: Message("media.bad.ratio", "{tag} is \"{text}\", not a ratio like 30:1", note: badNote),
        .mediaBadHeaderLine: Message(
            "media.bad.headerLine", "the header line is longer than {limit} bytes", note: badNote),
        .mediaBadFrameSize: Message(
            "media.bad.frameSize",
            "a {format} {width}×{height} frame cannot go into a {clipFormat} {clipWidth}×{clipHeight} clip",
            note: badNote + " {format} and {clipFormat} are pixel formats such as yuyv or rgb."),
        .mediaBadNoFrames: Message("media.bad.noFrames", "the clip has a header but no frames", note: badNote),
        .mediaBadZeroSize: Message("media.bad.zeroSize", "zero width or height ({width}×{height})", note: badNote),
        .mediaBadDecoder: Message(
            "media.bad.decoder", "{format} decoder: {detail}",
            note: badNote + " {format} is JPEG or PNG; {detail} is the library's own message, in English."),
        // What facecap does not handle (MediaDataError.Unsupported).
        .mediaNoPBM: Message(
            "media.unsupported.pbm", "PBM bitmaps and PAM files (P1, P4, P7) are not read; convert to PPM or PNG",
            note: unsupportedNote),
        .mediaNoColorSpace: Message(
            "media.unsupported.colorSpace",
            "colour space C{value} (facecap reads 8-bit C420jpeg, C420mpeg2, C420paldv, C420, C422, C444 and Cmono; "
                + "convert with ffmpeg -pix_fmt yuv420p)",
            note: unsupportedNote),
        .mediaNoStore: Message(
            "media.unsupported.store", "{format} frames cannot be stored as C{space}",
            note: unsupportedNote + " {format} is a pixel format such as yuyv, {space} a .y4m colour space."),
        .mediaNoMemory: Message(
            "media.unsupported.memory", "not enough memory to decode the {format}",
            note: unsupportedNote + " {format} is JPEG or PNG."),
        // A file of another kind than the command reads (MediaDataError.WrongKind).
        .mediaPhotoNotClip: Message(
            "media.kind.photo",
            "a {format} photo, not a .y4m clip; analyse photos with 'facecap analyze', or make a 3-second clip of it "
                + "with 'ffmpeg -loop 1 -i PHOTO -frames:v 90 -pix_fmt yuv420p OUT.y4m' (from a video: 'ffmpeg -i "
                + "VIDEO -pix_fmt yuv420p OUT.y4m'; from a camera: 'facecap record')",
            note: "{format} is JPEG, PNG or PPM/PGM; the commands are typed as shown."),
        .mediaClipNotPhoto: Message(
            "media.kind.clip",
            "a .y4m clip, not a photo; 'facecap analyze' reads it frame by frame, 'facecap --input' replays it"),
        .mediaForeignImage: Message(
            "media.kind.foreign",
            "a {format} image, which facecap does not read (it reads JPEG, PNG, PPM/PGM and .y4m clips); convert it "
                + "to PNG first, e.g. 'convert IN OUT.png' (ImageMagick) or 'ffmpeg -i IN OUT.png'",
            note: "{format} is the name of an image format, such as WebP or HEIC; the commands are typed as shown."),
    ]
}
