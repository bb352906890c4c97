/// How the wizard's preview is coloured (`--color`).
public enum ColorMode: String, Sendable, CaseIterable {
    case auto, truecolor
    case colors256 = "256"
    case colors16 = "16"
    case none
}

/// How the wizard's preview reaches the screen (`--graphics`): real pixels through the kitty graphics protocol
/// or sixel where the terminal answers that it speaks one (`auto` asks it), else character cells.
public enum GraphicsMode: String, Sendable, CaseIterable {
    case auto, kitty, sixel, cells
}

/// Everything the wizard's options ask for, checked: a value of this type is always usable.
public struct WizardConfiguration: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A camera: a given node, or nil for the first video-capture node.
        case camera(path: String?)
        /// A `.y4m` clip replayed at its own frame rate.
        case clip(path: String, loop: Bool)
    }

    public var source: Source = .camera(path: nil)
    public var outputDirectory = "facecap-out"
    /// Nil: the built-in validator.
    public var serverURL: String?
    public var insecureHTTP = false
    public var attempts = 3
    public var manualAfter = 30.0
    public var showTutorial = true
    public var mirror = true
    public var color = ColorMode.auto
    public var graphics = GraphicsMode.auto
    public var width = 640
    public var height = 480
    public var frameRate = 30
    /// No --size: the camera's own best size is asked for (`CameraConfiguration.automaticSize`).
    public var automaticSize = true
    /// --format: the picture format the camera must give ("YUYV", "NV12", "MJPG"…); nil: facecap chooses.
    public var pixelFormat: String?
    /// "-" is standard output (only with `plain`).
    public var eventsPath: String?
    public var plain = false
    public var language = "en"
    /// Options that were accepted but have no effect here, in sentences for standard error.
    public var warnings: [String] = []

    public init() {}

    /// The wizard's options, as `--help` lists them.
    public static let options: [OptionSpec] = [
        OptionSpec("device", short: "d", value: "PATH", help: .optionDevice, completion: .device),
        OptionSpec("input", short: "i", value: "FILE.y4m", help: .optionInput, completion: .file(pattern: "*.y4m")),
        OptionSpec("loop", help: .optionLoop),
        OptionSpec("output", short: "o", value: "DIR", help: .optionOutput, completion: .directory),
        OptionSpec("server", value: "URL", help: .optionServer),
        OptionSpec("insecure-http", help: .optionInsecureHTTP),
        OptionSpec("attempts", value: "N", help: .optionAttempts),
        OptionSpec("manual-after", value: "SEC", help: .optionManualAfter),
        OptionSpec("no-tutorial", help: .optionNoTutorial),
        OptionSpec("no-mirror", help: .optionNoMirror),
        OptionSpec(
            "color", value: "MODE", help: .optionColor, completion: .choices(ColorMode.allCases.map(\.rawValue))),
        OptionSpec(
            "graphics", value: "MODE", help: .optionGraphics,
            completion: .choices(GraphicsMode.allCases.map(\.rawValue))),
        OptionSpec("size", value: "WxH", help: .optionSize),
        OptionSpec("fps", value: "N", help: .optionFps),
        OptionSpec("format", value: "FOURCC", help: .optionFormat),
        OptionSpec("events", value: "FILE", help: .optionEvents, completion: .file(pattern: nil)),
        OptionSpec("plain", help: .optionPlain),
        OptionSpec("lang", value: "CODE", help: .optionLang, completion: .choices(languages)),
        OptionSpec("help", short: "h", help: .optionHelp),
        OptionSpec("version", help: .optionVersion),
    ]

    /// Languages with message catalogues (README, "Languages").
    public static let languages = LanguageChoice.shipped

    /// Checks parsed options; `environment` supplies NO_COLOR and the language variables.
    /// `languages`: those with a catalogue (the installed ones at run time; `languages` by default).
    public init(
        _ parsed: ParsedArguments, environment: [String: String] = [:],
        languages: [String] = WizardConfiguration.languages
    ) throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw UsageError(Words.usageUnexpectedArgument(argument: extra))
        }
        let device = parsed.value("device")
        if let input = parsed.value("input") {
            guard device == nil else {
                throw UsageError(Words.text(.usageInputOrDevice))
            }
            source = .clip(path: input, loop: parsed.has("loop"))
        } else {
            guard !parsed.has("loop") else { throw UsageError(Words.text(.usageLoopNeedsInput)) }
            if let device, device.isEmpty { throw UsageError(Words.text(.usageDeviceNeedsPath)) }
            source = .camera(path: device)
        }
        if let output = parsed.value("output") {
            guard !output.isEmpty else { throw UsageError(Words.text(.usageOutputNeedsFolder)) }
            outputDirectory = output
        }
        insecureHTTP = parsed.has("insecure-http")
        if let server = parsed.value("server") {
            try Self.checkServer(server, insecure: insecureHTTP)
            serverURL = server
        }
        attempts = try parsed.int("attempts", in: 1...10) ?? attempts
        manualAfter = try parsed.double("manual-after", in: 1...3600) ?? manualAfter
        showTutorial = !parsed.has("no-tutorial")
        mirror = !parsed.has("no-mirror")
        if let text = parsed.value("color") {
            guard let mode = ColorMode(rawValue: text) else {
                throw UsageError(Words.usageColor(text: text))
            }
            color = mode
        } else if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            color = .none
        }
        if let text = parsed.value("graphics") {
            guard let mode = GraphicsMode(rawValue: text) else {
                throw UsageError(Words.usageGraphics(text: text))
            }
            graphics = mode
        }
        if let size = try parsed.size("size") {
            (width, height) = size
            automaticSize = false
        }
        frameRate = try parsed.int("fps", in: 1...240) ?? frameRate
        pixelFormat = try parsed.fourcc("format")
        if case .clip = source {
            let modes = ["size", "fps", "format"].filter(parsed.has).map { "--\($0)" }
            if let last = modes.last {
                let options =
                    modes.count == 1
                    ? last
                    : Words.listPair(first: Words.list(Array(modes.dropLast())), second: last)
                warnings.append(Words.usageClipIgnoresMode(count: modes.count, options: options))
            }
        }
        plain = parsed.has("plain")
        if let events = parsed.value("events") {
            guard !events.isEmpty else {
                throw UsageError(Words.text(.usageEventsNeedsFile))
            }
            guard events != "-" || plain else {
                throw UsageError(Words.text(.usageEventsStdout))
            }
            eventsPath = events
        }
        language = try LanguageChoice.choose(
            option: parsed.value("lang"), environment: environment,
            available: languages)
    }

    /// HTTPS is required, except for loopback hosts or with --insecure-http.
    static func checkServer(_ url: String, insecure: Bool) throws(UsageError) {
        let server: ServerURL
        do {
            server = try ServerURL(url)
        } catch {
            switch error {
            case .notHTTP: throw UsageError(Words.usageServerURL(url: url))
            case .noHost: throw UsageError(Words.usageServerNoHost(url: url))
            case .badPort: throw UsageError(Words.usageServerPort(url: url))
            }
        }
        if !server.secure, !insecure, !server.isLoopback {
            throw UsageError(Words.text(.usageServerHTTPS))
        }
    }
}
