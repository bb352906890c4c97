import FaceCapCore
import FaceCapIO

/// facecap's fuzz targets: each feeds untrusted bytes through the entry point facecap itself uses for
/// them, and checks what must hold for every input (decoded sizes, sanitised text, a body that parses
/// back). A refused input is fine; a crash, an overflow trap, a failed check or a sanitizer report is a
/// bug. `facecap-fuzz` runs them under libFuzzer (`make fuzz`); `FuzzReplayTests` replays the committed
/// corpora through the same functions in the ordinary test build.
public enum FuzzTargets {
    /// Every target by name: the directory names under Tests/Fuzz/corpus and Tests/Fuzz/regressions.
    public static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("tflite", tflite),
        ("y4m", y4m),
        ("png", image),
        ("jpeg", image),
        ("pnm", image),
        ("thresholds", thresholds),
        ("arguments", arguments),
        ("server-reply", serverReply),
        ("multipart", multipart),
        ("mjpeg", mjpeg),
    ]

    public static func named(_ name: String) -> (@Sendable ([UInt8]) -> Void)? {
        all.first { $0.name == name }?.run
    }

    /// The TFLite reader, the planner and one inference on an input of the model's own shape.
    static func tflite(_ bytes: [UInt8]) {
        guard let model = try? TFLiteModel(bytes: bytes, name: "fuzz.tflite"),
            let interpreter = try? Interpreter(model: model)
        else { return }
        let input = interpreter.input()
        for i in input.indices { input[i] = Float(i % 7) / 7 - 0.5 }
        interpreter.run()
        for index in interpreter.outputShapes.indices {
            let count = interpreter.outputShapes[index].reduce(1, *)
            precondition(interpreter.output(index).count == count, "output \(index) is not its shape's size")
        }
    }

    /// The Y4M header and every frame, as `--input` and `analyze` read a clip.
    static func y4m(_ bytes: [UInt8]) {
        guard var reader = try? Y4MReader(bytes: bytes) else { return }
        var frame = Frame(format: .gray, width: 0, height: 0, data: [])
        var frames = 0
        while frames < 64, (try? reader.nextFrame(into: &frame)) == true {
            precondition(frame.width == reader.header.width && frame.height == reader.header.height)
            precondition(frame.data.count == frame.format.byteCount(width: frame.width, height: frame.height))
            frames += 1
        }
    }

    /// PNG, JPEG and PNM through `ImageFile.decode`, which tells them apart by their signature.
    static func image(_ bytes: [UInt8]) {
        guard let frame = try? ImageFile.decode(bytes) else { return }
        precondition(frame.width > 0 && frame.height > 0)
        precondition(frame.data.count == frame.format.byteCount(width: frame.width, height: frame.height))
    }

    /// A camera's MJPEG frame as the camera path reads it, in a 64×48 stream (the corpus's frames): decoded whole to
    /// planar 4:2:2 of the stream's size, or refused (a damaged frame).
    static func mjpeg(_ bytes: [UInt8]) {
        var frame = Frame(format: .gray, width: 0, height: 0, data: [])
        guard CameraFormatSamples.Reader().read(bytes, fourcc: "MJPG", width: 64, height: 48, into: &frame) else {
            return
        }
        precondition(frame.format == .yuv422p && frame.width == 64 && frame.height == 48)
        precondition(frame.data.count == PixelFormat.yuv422p.byteCount(width: 64, height: 48))
    }

    /// A thresholds file (the one table live guidance and the validator share): whatever it accepts lies
    /// within each field's range.
    static func thresholds(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let analyzer = try? AnalyzerThresholds(json: text) {
            for field in AnalyzerThresholds.fields {
                precondition(field.range.contains(analyzer[keyPath: field.keyPath]), field.name)
            }
        }
    }

    /// The wizard's command line: arguments separated by NUL bytes, as the kernel hands them over.
    static func arguments(_ bytes: [UInt8]) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let parsed = try? parseArguments(arguments, options: WizardConfiguration.options) else { return }
        _ = try? WizardConfiguration(parsed, environment: ["TERM": "xterm-256color"])
    }

    /// A validation server's reply: a status byte, header lines, an empty line, the body. Whatever the
    /// server sends, the text facecap passes on to the screen holds no control characters.
    static func serverReply(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let statuses = [200, 200, 200, 201, 204, 301, 400, 401, 404, 413, 429, 500, 503, 99, 600]
        let status = statuses[Int(first) % statuses.count]
        let rest = Array(bytes.dropFirst())
        var headers: [(String, String)] = []
        var body = rest
        if let split = Self.find([0x0A, 0x0A], in: rest) {
            body = Array(rest[(split + 2)...])
            for line in rest[..<split].split(separator: 0x0A) {
                let text = String(decoding: line, as: UTF8.self)
                let parts = text.split(separator: ":", maxSplits: 1)
                headers.append((String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : ""))
            }
        }
        let texts: [String]
        switch ServerReply.parse(status: status, headers: headers, body: body, now: 1_800_000_000) {
        case .verdict(let verdict): texts = verdict.reasons + [verdict.message ?? ""]
        case .refused(_, let message): texts = [message]
        case .unreachable(let reason, let retryAfter):
            texts = [reason.text]
            if let retryAfter { precondition(retryAfter.isFinite && retryAfter >= 0, "Retry-After \(retryAfter)") }
        case .progress: preconditionFailure("a reply is never progress")
        }
        for text in texts {
            precondition(
                !text.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "control characters reach the screen: \(text.debugDescription)")
        }
    }

    /// The upload body: whatever the parts, a body that is built splits back into exactly those parts.
    static func multipart(_ bytes: [UInt8]) {
        let fields = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false).map(Array.init)
        guard fields.count == 5 else { return }
        let text = { (field: [UInt8]) in String(decoding: field, as: UTF8.self) }
        let parts = [
            MultipartBody.Part(
                name: text(fields[1]), filename: text(fields[2]), contentType: "image/jpeg",
                data: fields[3]),
            MultipartBody.Part(name: "report", filename: nil, contentType: "application/json", data: fields[4]),
        ]
        guard let body = MultipartBody(parts: parts, boundary: text(fields[0])) else { return }
        let delimiter = Array("\r\n--\(body.boundary)".utf8)
        // The body starts with "--boundary", so prefixing CRLF makes every delimiter alike.
        var rest = [0x0D, 0x0A] + body.bytes
        var sections: [[UInt8]] = []
        while let at = find(delimiter, in: rest) {
            sections.append(Array(rest[..<at]))
            rest = Array(rest[(at + delimiter.count)...])
        }
        precondition(sections.count == 3 && sections[0].isEmpty, "\(sections.count - 1) parts, not 2")
        precondition(rest == Array("--\r\n".utf8), "the body does not end with the closing delimiter")
        for (section, part) in zip(sections.dropFirst(), parts) {
            let headEnd = find(Array("\r\n\r\n".utf8), in: section)!
            precondition(Array(section[(headEnd + 4)...]) == part.data, "a part's data changed")
            let head = section[..<headEnd]
            let lines = head.split(separator: 0x0A).count
            precondition(lines == 3, "a part's header has \(lines - 2) lines more than it should (header injection)")
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
