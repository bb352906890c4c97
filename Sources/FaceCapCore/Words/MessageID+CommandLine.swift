/// The command line's messages (usage errors, --help, the subcommands, the face models, a server's reply): one
/// line a message, its id, English, plural and note together (`MessageID`'s table).

private let exitLabelNote =
    "A short label of an exit code in --help."

extension MessageID {
    static let commandLineMessages: [MessageID: Message] = [
        // Usage errors (exit 64) and the terminal check.
        .usageSeeHelp: Message("usage.seeHelp", "Run '{command}' for more."),
        .usageUnknownCommand: Message("usage.unknownCommand", "unknown command '{command}' (commands: {commands})"),
        .usageUnknownOption: Message("usage.unknownOption", "unknown option '{option}'"),
        .usageNeedsValue: Message("usage.needsValue", "{option} needs a value ({value})"),
        .usageTakesNoValue: Message("usage.takesNoValue", "{option} takes no value"),
        .usageGivenTwice: Message("usage.givenTwice", "{option} is given more than once; give each option once"),
        .usageWholeNumber: Message(
            "usage.wholeNumber",
            "{option} takes a whole number from {low} to {high}, not '{text}'"),
        .usageNumber: Message("usage.number", "{option} takes a number from {low} to {high}, not '{text}'"),
        .usageSize: Message(
            "usage.size",
            "{option} takes WIDTHxHEIGHT with each side from 16 to 8192, e.g. 640x480, not '{text}'"),
        .usageFormat: Message(
            "usage.format",
            "{option} takes a format of one to four characters such as YUYV, NV12 or MJPG, not '{text}'"),
        .usageUnexpectedArgument: Message(
            "usage.unexpectedArgument",
            "unexpected argument '{argument}' (a clip is given with --input FILE.y4m)"),
        .usageInputOrDevice: Message(
            "usage.inputOrDevice",
            "--input and --device exclude each other: replay a clip or use a camera"),
        .usageLoopNeedsInput: Message("usage.loopNeedsInput", "--loop goes with --input FILE.y4m"),
        .usageDeviceNeedsPath: Message("usage.deviceNeedsPath", "--device needs a path, e.g. /dev/video0"),
        .usageOutputNeedsFolder: Message("usage.outputNeedsFolder", "--output needs a directory"),
        .usageColor: Message("usage.color", "--color takes auto, truecolor, 256, 16 or none, not '{text}'"),
        .usageGraphics: Message("usage.graphics", "--graphics takes auto, kitty, sixel or cells, not '{text}'"),
        .usageEventsNeedsFile: Message(
            "usage.eventsNeedsFile",
            "--events needs a file, or - for standard output with --plain"),
        .usageEventsStdout: Message(
            "usage.eventsStdout",
            "--events - (standard output) needs --plain: the full-screen UI owns standard output"),
        .usageUnknownLanguage: Message(
            "usage.unknownLanguage",
            "--lang {code}: no messages in that language (available: {languages})"),
        .usageServerURL: Message(
            "usage.serverURL",
            "--server needs an http(s) URL, e.g. https://example.org/selfie, not '{url}'"),
        .usageServerNoHost: Message("usage.serverNoHost", "--server URL has no host: '{url}'"),
        .usageServerHTTPS: Message(
            "usage.serverHTTPS",
            "--server must use https:// for a host that is not this machine (or add --insecure-http)"),
        .usageClipIgnoresMode: Message(
            "usage.clipIgnoresMode",
            "{options} asks the camera for a mode; a clip plays at its own size and frame rate, so it is ignored",
            plural: "{options} ask the camera for a mode; a clip plays at its own size and frame rate, so they are "
                + "ignored",
            note: "{options} is '--size', '--fps' or '--size and --fps'; the plural is for two."),
        .usageTokenControl: Message(
            "usage.tokenControl",
            "FACECAP_TOKEN contains a line break or control character; set it to the token alone",
            note: "FACECAP_TOKEN, http://, https:// and --insecure-http stay as they are."),
        .usageTokenInClear: Message(
            "usage.tokenInClear",
            "FACECAP_TOKEN is never sent over plain http:// to another machine ({host}); use https:// or unset "
                + "FACECAP_TOKEN",
            note: "FACECAP_TOKEN, http://, https:// and --insecure-http stay as they are."),
        .usageNeedsTerminal: Message(
            "usage.needsTerminal",
            "the full-screen wizard needs a terminal on standard input and output; for pipes, scripts and screen "
                + "readers use --plain"),
        .usageTerminalType: Message(
            "usage.terminalType",
            "this terminal (TERM={term}) cannot show the full-screen wizard; use --plain, or set TERM (e.g. "
                + "TERM=xterm-256color)"),
        .terminalUnset: Message(
            "terminal.unset",
            "TERM is not set; set TERM (e.g. TERM=xterm-256color) or use --plain"),
        .terminalCannotDraw: Message(
            "terminal.cannotDraw",
            "the terminal type '{term}' cannot draw the full-screen wizard; set TERM (e.g. TERM=xterm-256color) or "
                + "use --plain"),

        // The command line: --help, the options, the subcommands' lines and errors, the face models, a server's reply.
        .usageUnknownOptionDidYouMean: Message(
            "usage.unknownOption.didYouMean",
            "unknown option '{option}'; did you mean '{suggestion}'?"),
        .usageUnknownCommandDidYouMean: Message(
            "usage.unknownCommand.didYouMean",
            "unknown command '{command}'; did you mean '{suggestion}'? (commands: {commands})"),
        .usageUnexpectedOperand: Message("usage.unexpectedOperand", "unexpected argument '{argument}'"),
        .separatorList: Message(
            "separator.list",
            ", ",
            note: "Between the items of a list (commands, groups, folders): a comma and a space in English."),
        .listPair: Message("list.pair", "{first} and {second}"),
        .separatorClause: Message(
            "separator.clause",
            "; ",
            note: "Between two clauses of one line: a semicolon and a space in English."),
        .separatorLabel: Message(
            "separator.label",
            ": ",
            note: "Between a label (a file, a command) and what is said about it: a colon and a space in English."),
        .unitMegabytes: Message("unit.megabytes", "{count} MB", note: "A size in megabytes (2^20 bytes)."),
        .unitKilobytes: Message("unit.kilobytes", "{count} KB", note: "A size in kilobytes (2^10 bytes)."),
        .unitBytes: Message("unit.bytes", "{count} byte", plural: "{count} bytes"),
        .contextTitleClip: Message("context.title.clip", "facecap replays your clip"),
        .keyPlayClip: Message("key.playClip", "play the clip"),
        .helpTagline: Message("cli.tagline", "take a good selfie from the terminal, guided live, validated, saved"),
        .cliTitleLine: Message("cli.titleLine", "facecap — {tagline}."),
        .cliUsage: Message("cli.usage", "Usage:", note: "A heading of --help, before the command lines."),
        .cliOptions: Message("cli.options", "Options:", note: "A heading of --help, before the options."),
        .cliKeysLine: Message("cli.keysLine", "Keys: {keys}."),
        .cliExitCodesLine: Message("cli.exitCodesLine", "Exit codes: {codes}."),
        .cliTryClip: Message("cli.tryClip", "Without a camera, try a clip: facecap --input clip.y4m"),
        .cliMore: Message("cli.more", "More: man facecap"),
        .cliRunWizard: Message("cli.runWizard", "run the capture wizard"),
        .cliHelpOrVersion: Message("cli.helpOrVersion", "this help, or the version"),
        .cliKeySpace: Message("cli.key.space", "take the photo, once manual capture is offered"),
        .cliKeyEnter: Message("cli.key.enter", "start, continue, or retry"),
        .cliKeyQuit: Message("cli.key.quit", "quit (exit 130)"),
        .cliKeyHelp: Message("cli.key.help", "help on the capture screen"),
        .cliKeyDevice: Message("cli.key.device", "choose another camera, on the camera error screens"),
        .exitLabelSuccess: Message("exit.label.success", "accepted", note: exitLabelNote),
        .exitLabelManualReview: Message("exit.label.manualReview", "manual review", note: exitLabelNote),
        .exitLabelUsage: Message(
            "exit.label.usage",
            "usage",
            note: "A short label of an exit code in --help: a bad command line."),
        .exitLabelNoInput: Message("exit.label.noInput", "input unreadable", note: exitLabelNote),
        .exitLabelNoCamera: Message("exit.label.noCamera", "no camera", note: exitLabelNote),
        .exitLabelServerUnreachable: Message("exit.label.serverUnreachable", "server unreachable", note: exitLabelNote),
        .exitLabelPermissionDenied: Message(
            "exit.label.permissionDenied", "camera permission denied", note: exitLabelNote),
        .exitLabelFailure: Message("exit.label.failure", "other error", note: exitLabelNote),
        .exitLabelCancelled: Message("exit.label.cancelled", "cancelled", note: exitLabelNote),
        .optionDevice: Message(
            "option.device",
            "camera (default: the one 'facecap devices' ranks first: colour before infrared, physical before virtual)"),
        .optionInput: Message("option.input", "replay a clip instead of a camera, at its own frame rate"),
        .optionLoop: Message("option.loop", "with --input: repeat the clip"),
        .optionOutput: Message("option.output", "where photos and reports go (default ./facecap-out)"),
        .optionServer: Message(
            "option.server",
            "validate by uploading to this endpoint, with the token from FACECAP_TOKEN (default: built-in validator)"),
        .optionInsecureHTTP: Message(
            "option.insecureHTTP",
            "allow --server over plain http to a host that is not loopback (the photo only: never with FACECAP_TOKEN)"),
        .optionAttempts: Message("option.attempts", "validation attempts before manual review (default 3)"),
        .optionManualAfter: Message("option.manualAfter", "offer manual capture after this many seconds (default 30)"),
        .optionNoTutorial: Message("option.noTutorial", "skip the tutorial and camera-permission screens"),
        .optionNoMirror: Message("option.noMirror", "show the preview unmirrored"),
        .optionColor: Message(
            "option.color",
            "preview colours: auto, truecolor, 256, 16 or none",
            note: "auto, truecolor and none are values typed on the command line: keep them."),
        .optionGraphics: Message(
            "option.graphics",
            "preview pixels: auto (ask the terminal), kitty, sixel or cells (default auto)",
            note: "auto, kitty, sixel and cells are values typed on the command line: keep them."),
        .optionSize: Message(
            "option.size",
            "requested camera size (default: the camera's smallest of 640x480 or more at 15 fps)"),
        .optionFormat: Message(
            "option.format",
            "picture format to ask the camera for, e.g. YUYV, NV12 or MJPG, as 'facecap devices' lists them "
                + "(default: facecap chooses)"),
        .optionFps: Message("option.fps", "requested camera frame rate (default 30)"),
        .optionEvents: Message("option.events", "write JSON Lines events to FILE (- = stdout, with --plain)"),
        .optionPlain: Message("option.plain", "no full-screen UI: one line per state or guidance change"),
        .optionLang: Message(
            "option.lang",
            "message language, e.g. de or ja (default from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"),
        .optionHelp: Message("option.help", "show this help"),
        .optionVersion: Message("option.version", "show the version"),
        .optionDevicesJSON: Message(
            "option.devices.json",
            "print one JSON document (shape in the README) instead of text"),
        .optionAnalyzeJSON: Message("option.analyze.json", "one JSON object per image or clip frame (JSON Lines)"),
        .optionThresholds: Message(
            "option.thresholds",
            "JSON object overriding analyzer thresholds, e.g. {\"minFaceWidth\": 0.25}",
            note: "Keep the JSON example as it is."),
        .optionSeconds: Message("option.seconds", "how long to record (default 10)"),
        .optionBenchJSON: Message("option.bench.json", "print the results as one JSON object"),
        .optionRuns: Message("option.runs", "timed runs per measure (default 300)"),
        .optionProfile: Message("option.profile", "also print the median time of every kernel call of both models"),
        .optionBenchImage: Message(
            "option.bench.image",
            "also time a session's frames made from this photo of one face (make bench gives one)"),
        .optionBenchFormats: Message(
            "option.bench.formats",
            "with --image: time each camera format instead, read into the analyser's layout and analysed, at 640x480 "
                + "and 1280x720"),
        .commandDevicesSummary: Message(
            "command.devices.summary",
            "list capture devices: path, name, driver, bus, formats, sizes, frame rates"),
        .commandDevicesAbout: Message(
            "command.devices.about",
            "Lists video-capture devices (metadata nodes are skipped): path, name, driver, bus, formats, sizes and "
                + "frame rates."),
        .commandAnalyzeSummary: Message(
            "command.analyze.summary",
            "analyse photos (JPEG, PNG, PPM/PGM) or clips (.y4m, every frame)"),
        .commandAnalyzeAbout: Message(
            "command.analyze.about",
            "Finds faces and prints the quality measures and the guidance facecap would give: for a photo on its "
                + "own, for a .y4m clip one line per frame as the wizard would show it."),
        .commandRecordSummary: Message(
            "command.record.summary",
            "record a clip from the camera for replay and bug reports"),
        .commandRecordAbout: Message(
            "command.record.about",
            "Records a YUV4MPEG2 clip (mode 0600: it holds a face); Ctrl-C stops early and keeps the clip."),
        .commandBenchSummary: Message(
            "command.bench.summary",
            "measure face-model and per-frame analysis time on this machine"),
        .commandBenchAbout: Message(
            "command.bench.about",
            "Times each face model, the whole per-frame path on a 640×480 YUYV frame and the analyzer (median "
                + "milliseconds per call)."),
        .commandGenerateSummary: Message(
            "command.generate.summary",
            "print the manual page, a shell completion script or the translation template"),
        .commandGenerateAbout: Message(
            "command.generate.about",
            "Prints facecap's manual page (roff, for man1/facecap.1), or its completion script for bash "
                + "(bash-completion/completions/facecap) or zsh (a _facecap function for fpath), or the template "
                + "translations are made from (pot, for Resources/po/facecap.pot)."),
        .analyzeNeedsFile: Message("analyze.needsFile", "'facecap analyze' needs at least one image or .y4m file"),
        .analyzeClipHeader: Message(
            "analyze.clipHeader",
            "{path}: {width}x{height} at {fps} fps, stability window {seconds} s"),
        .analyzeClipCut: Message(
            "analyze.clipCut",
            "{path}: frame {index} is cut short by the end of the file; analysed the {count} whole frame before it",
            plural: "{path}: frame {index} is cut short by the end of the file; analysed the {count} whole frames "
                + "before it"),
        .analyzeClipCaptured: Message(
            "analyze.clipCaptured",
            "{path}: {count} frame, auto-captured",
            plural: "{path}: {count} frames, auto-captured"),
        .analyzeClipNotCaptured: Message(
            "analyze.clipNotCaptured",
            "{path}: {count} frame, no auto capture",
            plural: "{path}: {count} frames, no auto capture"),
        .benchNoFiles: Message("bench.noFiles", "'facecap bench' takes no file arguments"),
        .benchMedianOf: Message("bench.medianOf", "(median of {count} runs each, one thread)"),
        .benchNoFace: Message(
            "bench.noFace",
            "{path}: not every frame made from it had a tracked face; the bench needs a photo of one face"),
        .benchFormatsImage: Message(
            "bench.formatsImage",
            "--formats needs --image PHOTO, a photo of one face (make bench gives one)"),
        .analyzeNoFace: Message("analyze.noFace", "no face"),
        .analyzeFaces: Message("analyze.faces", "{count} face", plural: "{count} faces"),
        .analyzeFrameAt: Message("analyze.frameAt", "{path} frame {index} (t={seconds} s)"),
        .analyzePhotoLine: Message("analyze.photoLine", "{where} ({width}x{height}): {faces}"),
        .analyzeFaceLine: Message("analyze.faceLine", "face {index}: score {score}  box x={x} y={y} w={w} h={h}"),
        .analyzeTracked: Message("analyze.tracked", "(tracked)"),
        .analyzeKeypoints: Message("analyze.keypoints", "keypoints: {points}"),
        .analyzeLandmarks: Message("analyze.landmarks", "landmarks: {count} (face presence {presence})"),
        .recordNeedsFile: Message("record.needsFile", "record needs an output file, e.g. facecap record clip.y4m"),
        .recordOneFile: Message("record.oneFile", "record takes one output file, not {count}"),
        .recordStarting: Message(
            "record.starting",
            "recording {seconds} s from {camera} to {path}; Ctrl-C stops early"),
        .recordStartingAdjusted: Message(
            "record.startingAdjusted",
            "recording {seconds} s from {camera} (asked for {width}x{height}; the camera chose this size) to {path}; "
                + "Ctrl-C stops early"),
        .recordNoFrames: Message("record.noFrames", "no frames recorded; {path} not written"),
        .recordWrote: Message(
            "record.wrote",
            "wrote {count} frame ({seconds} s at {fps} fps, {mode}) to {path}",
            plural: "wrote {count} frames ({seconds} s at {fps} fps, {mode}) to {path}"),
        .recordDropped: Message(
            "record.dropped",
            "dropped {count} damaged frame ({flagged} flagged, {short} short), the driver skipped {skipped}",
            plural: "dropped {count} damaged frames ({flagged} flagged, {short} short), the driver skipped {skipped}"),
        .recordUndecodable: Message(
            "record.undecodable",
            "{count} of them a JPEG that would not decode",
            plural: "{count} of them JPEGs that would not decode"),
        .recordStoppedEarly: Message("record.stoppedEarly", "stopped early"),
        .generateTakesOne: Message("generate.takesOne", "'facecap generate' takes one of: {outputs}"),
        .generateTakesOneNot: Message(
            "generate.takesOneNot",
            "'facecap generate' takes one of: {outputs}, not '{what}'"),
        .devicesUnnamed: Message("devices.unnamed", "(unnamed camera)"),
        .devicesDriverBus: Message("devices.driverBus", "{path}: {name} (driver {driver}, bus {bus})"),
        .devicesCompressed: Message("devices.compressed", "{format} ({description}, compressed)"),
        .devicesNoSizes: Message("devices.noSizes", "(no sizes listed)"),
        .devicesNoFormats: Message("devices.noFormats", "(no formats listed)"),
        .devicesConverted: Message("devices.converted", "also converted by libv4l2: {formats}"),
        .devicesRange: Message(
            "devices.range",
            "{low} to {high}, {steps}",
            note: "low and high are sizes such as 48x32 and 1920x1080."),
        .devicesAnySize: Message("devices.anySize", "any size"),
        .devicesSteps: Message("devices.steps", "steps {width}x{height}"),
        .devicesRankLine: Message("devices.rank.line", "choice {rank}: {reasons}"),
        .devicesControls: Message("devices.controls", "controls facecap may steer:"),
        .devicesControlRange: Message(
            "devices.control.range",
            "{name}: {value} (default {default}, {minimum} to {maximum})"),
        .devicesControlMenu: Message("devices.control.menu", "{name}: {value} (default {default}; one of {items})"),
        .devicesRankColour: Message("devices.rank.colour", "colour"),
        .devicesRankInfraredName: Message("devices.rank.infraredName", "infrared (its name says IR)"),
        .devicesRankInfraredGrey: Message("devices.rank.infraredGrey", "infrared (grey pictures only)"),
        .devicesRankInfraredMJPEG: Message("devices.rank.infraredMJPEG", "likely infrared (MJPEG at 640x360 only)"),
        .devicesRankRawBayer: Message("devices.rank.rawBayer", "raw sensor data only (needs libcamera)"),
        .devicesRankUnreadable: Message("devices.rank.unreadable", "no format facecap can read"),
        .devicesRankVirtual: Message("devices.rank.virtual", "virtual (another program's picture)"),
        .devicesRankMode: Message("devices.rank.mode", "{size} at {fps} fps"),
        .devicesRankSlowMode: Message(
            "devices.rank.slowMode",
            "at best {size} at {fps} fps (less than 640x480 at 15 fps)"),
        .devicesRankInfraredInterface: Message(
            "devices.rank.infraredInterface",
            "infrared (its USB interface is named {name})"),
        .devicesRankInfraredChroma: Message(
            "devices.rank.infraredChroma",
            "infrared (its picture had no colour: chroma flat at 128)"),
    ]
}
