/// A MIPI camera's messages and the manual page's: one line a message, its id, English, plural and note together
/// (`MessageID`'s table).

private let manualPageNote =
    "Part of the manual page, facecap(1); the manual page is installed in English (README, \"Languages\")."

extension MessageID {
    static let manualMessages: [MessageID: Message] = [
        // A MIPI camera (raw Bayer nodes only): what it is, and what each distribution can do.
        .cameraErrorRawBayerOnly: Message(
            "cameraError.rawBayerOnly",
            "the {driver} camera ({nodes}) gives raw sensor data only: a MIPI camera, which needs libcamera "
                + "('facecap devices' says how to set it up)"),
        .mipiTitle: Message("mipi.title", "This camera needs libcamera"),
        .mipiWhat: Message(
            "mipi.what",
            "{nodes} ({driver}, {card}): raw sensor data only. This MIPI camera needs an image processor "
                + "(libcamera's); facecap reads finished pictures only."),
        .mipiIPU7: Message(
            "mipi.ipu7",
            "Intel IPU7 (Lunar Lake and later): no libcamera release supports it yet; only Intel's own camera "
                + "packages give it a picture."),
        .mipiDebian12: Message(
            "mipi.debian12",
            "Debian 12: its libcamera (0.0.3) has no software image processor; no Debian 12 package can give this "
                + "camera a picture."),
        .mipiDebian13: Message(
            "mipi.debian13",
            "Debian 13 (libcamera 0.4; 0.5 in backports): libcamera's V4L2 adapter may give it a picture (untested "
                + "here; check with cam -l):"),
        .mipiUbuntu2404: Message(
            "mipi.ubuntu2404",
            "Ubuntu 24.04: libcamera 0.2 is too old too; Intel's IPU6 packages (libcamhal, v4l2-relayd, "
                + "v4l2loopback; wiki.ubuntu.com/IntelMIPICamera) make an \"Intel MIPI Camera\" node, which "
                + "facecap opens by itself."),
        .mipiUnderAdapter: Message(
            "mipi.underAdapter",
            "facecap runs under libcamerify, yet libcamera found no camera. What libcamera finds (cam is in "
                + "libcamera-tools):"),
        .devicesRawBayerOnly: Message(
            "devices.rawBayerOnly",
            "the {driver} camera ({nodes}) gives raw sensor data only: a MIPI camera, which needs libcamera"),
        .modelCannotUse: Message("model.cannotUse", "cannot use the face model {file}: {problem}. {advice}"),
        .modelRefetch: Message(
            "model.refetch",
            "Fetch and verify the models again: 'make models' in a source checkout, or reinstall the facecap package."),
        .modelFolder: Message("model.folder", "folder {path}"),
        .modelFolderMissing: Message("model.folderMissing", "FACECAP_MODEL_DIR names it, but there is no such folder"),
        .modelFolderAdvice: Message(
            "model.folderAdvice",
            "Set FACECAP_MODEL_DIR to the folder that holds the *.tflite models, or unset it to use the installed "
                + "ones."),
        .modelUnreadable: Message("model.unreadable", "cannot read it ({reason})"),
        .modelTooLarge: Message("model.tooLarge", "larger than {size}, so not a face model"),
        .modelNotFound: Message("model.notFound", "not found (looked in {folders})"),
        .modelNotFoundAdvice: Message(
            "model.notFoundAdvice",
            "Set FACECAP_MODEL_DIR to the folder that holds the *.tflite models, or put them in "
                + "BINDIR/../share/facecap/models next to the binary; in a source checkout 'make models' fetches "
                + "and verifies them into models/."),
        .modelCorrupted: Message("model.corrupted", "truncated or corrupted ({detail})"),
        .modelWrongDetector: Message(
            "model.wrong.detector",
            "not the BlazeFace short-range detector (input {inputs}, outputs {outputs})"),
        .modelWrongLandmarks: Message(
            "model.wrong.landmarks",
            "not the FaceMesh landmark model (input {inputs}, outputs {outputs})"),
        .modelWrongHand: Message("model.wrong.hand", "not the hand landmark model (input {inputs}, outputs {outputs})"),
        .modelWrongPalm: Message("model.wrong.palm", "not the palm detector (input {inputs}, outputs {outputs})"),
        .modelWrongIris: Message("model.wrong.iris", "not the iris landmark model (input {inputs}, outputs {outputs})"),
        .replyEmpty: Message(
            "reply.empty",
            "empty body",
            note: "What is wrong with a server's 200 reply; JSON names in quotes stay as they are."),
        .replyNotJSON: Message("reply.notJSON", "not valid JSON"),
        .replyNotObject: Message("reply.notObject", "not a JSON object"),
        .replyNoResult: Message("reply.noResult", "no \"result\"", note: "\"result\" is a JSON key: keep it."),
        .replyBadResult: Message(
            "reply.badResult",
            "\"result\" is \"{value}\"",
            note: "\"result\" is a JSON key: keep it."),
        .replyReasonNotString: Message("reply.reasonNotString", "a reason is not a string"),
        .replyReasonsNotArray: Message(
            "reply.reasonsNotArray",
            "\"reasons\" is not an array",
            note: "\"reasons\" is a JSON key: keep it."),
        .replyMessageNotString: Message(
            "reply.messageNotString",
            "\"message\" is not a string",
            note: "\"message\" is a JSON key: keep it."),

        // The manual page (facecap generate man).
        .manDescription1: Message(
            "man.description.1",
            "facecap turns on the webcam and shows a live, mirrored preview with an oval guide in the terminal, with "
                + "guidance as the person moves (\"Move closer\", \"Too dark\", \"Hold still\"). The photo is "
                + "taken by itself once the face is placed, lit and sharp, or with SPACE as a fallback; it is "
                + "checked by a built-in validator (or uploaded to a server with --server) and saved with a JSON "
                + "report.",
            note: manualPageNote),
        .manDescription2: Message(
            "man.description.2",
            "Everything runs on this machine: facecap runs Google's MediaPipe face models itself; no frame leaves "
                + "the machine and only the final photo is kept. Scripts drive facecap through exit codes, JSON "
                + "Lines events (--events) and the output files; --plain replaces the full-screen UI with one line "
                + "per change, for screen readers, pipes and logs.",
            note: manualPageNote),
        .manDescription3: Message(
            "man.description.3",
            "Without a command, facecap runs the wizard. Each option may be given once: a repeated option is a usage "
                + "error (exit 64). The output folder (written to by a test file) and the events file are checked "
                + "before the camera opens; --size and --fps with --input are said to be ignored.",
            note: manualPageNote),
        .manOptionsIntro: Message(
            "man.optionsIntro",
            "Options of the wizard (the names are a stable contract):",
            note: manualPageNote),
        .manKeysIntro: Message("man.keysIntro", "In the full-screen wizard:", note: manualPageNote),
        .manErrors: Message(
            "man.errors", "Errors go to standard error as one line that says what to do.", note: manualPageNote),
        .manSeeAlso: Message(
            "man.seeAlso",
            "The README shipped in /usr/share/doc/facecap (the analyze --json fields, the validation server "
                + "contract, the guidance codes).",
            note: manualPageNote),
        .manExitSuccess: Message(
            "man.exit.success",
            "the photo was accepted (or a command other than the wizard succeeded)",
            note: manualPageNote),
        .manExitManualReview: Message(
            "man.exit.manualReview",
            "validation failed on every attempt; the photo was submitted for manual review",
            note: manualPageNote),
        .manExitUsage: Message(
            "man.exit.usage",
            "bad command line: an unknown option, a bad value, a repeated option, a thresholds file whose values "
                + "contradict each other",
            note: manualPageNote),
        .manExitNoInput: Message(
            "man.exit.noInput",
            "an input file (photo, clip, thresholds file) is missing, unreadable or not a valid image or clip",
            note: manualPageNote),
        .manExitNoCamera: Message(
            "man.exit.noCamera",
            "no camera, the camera is busy, or the path is not a video capture device",
            note: manualPageNote),
        .manExitServerUnreachable: Message(
            "man.exit.serverUnreachable",
            "the validation server could not be reached and the user quit",
            note: manualPageNote),
        .manExitPermissionDenied: Message(
            "man.exit.permissionDenied",
            "permission to open the camera was denied",
            note: manualPageNote),
        .manExitFailure: Message(
            "man.exit.failure",
            "any other error: the face models are missing or damaged, the output folder or the events file cannot be "
                + "written, the camera was disconnected, a clip ended, the disk is full",
            note: manualPageNote),
        .manExitCancelled: Message(
            "man.exit.cancelled", "cancelled by the user (q, Esc, Ctrl-C)", note: manualPageNote),
        .manEnvModelDir: Message(
            "man.env.modelDir",
            "the folder that holds the face models (*.tflite). When set it is the only folder searched, and it must "
                + "exist; see FILES for where facecap looks otherwise.",
            note: manualPageNote),
        .manEnvToken: Message(
            "man.env.token",
            "sent as 'Authorization: Bearer TOKEN' to the --server endpoint; never taken from the command line, "
                + "never written to events, reports or messages.",
            note: manualPageNote),
        .manEnvNoColor: Message(
            "man.env.noColor",
            "when set and not empty, the preview has no colour (as --color none).",
            note: manualPageNote),
        .manEnvTerm: Message(
            "man.env.term",
            "the terminal type; the full-screen wizard needs one that can address the screen (not dumb).",
            note: manualPageNote),
        .manEnvColorterm: Message(
            "man.env.colorterm",
            "truecolor or 24bit lets --color auto use 24-bit colour.",
            note: manualPageNote),
        .manEnvLang: Message(
            "man.env.lang",
            "the message language (--lang, then LANGUAGE, LC_ALL, LC_MESSAGES, LANG; default en) and whether the "
                + "terminal takes UTF-8; without UTF-8 the screens are drawn in ASCII.",
            note: manualPageNote),
        .manEnvProxy: Message(
            "man.env.proxy",
            "the proxy for --server uploads (never used for this machine).",
            note: manualPageNote),
        .manFileModels: Message(
            "man.file.models",
            "the face models, checked against their SHA-256 sums when they were fetched. facecap looks for them in "
                + "$FACECAP_MODEL_DIR when that is set (and only there); otherwise in "
                + "BINDIR/../share/facecap/models (BINDIR is the folder of the facecap binary: /usr/bin gives "
                + "/usr/share/facecap/models), then in the models folder of a source checkout the binary was built "
                + "in, then in ./models.",
            note: manualPageNote),
        .manFileOutput: Message(
            "man.file.output",
            "where photos and reports go unless --output says otherwise; created with mode 0700.",
            note: manualPageNote),
        .manFilePhoto: Message(
            "man.file.photo",
            "the photo (full camera resolution, no EXIF), mode 0600, written atomically; -2, -3, ... when the name "
                + "is taken.",
            note: manualPageNote),
        .manFileReport: Message(
            "man.file.report",
            "its report beside it: capture, measures, guidance, landmarks, validation.",
            note: manualPageNote),
        .manFileLocale: Message(
            "man.file.locale",
            "the translations, one per language (LANG is its code, e.g. de or pt_BR). facecap looks for them in "
                + "$FACECAP_LOCALE_DIR when that is set (and only there); otherwise in BINDIR/../share/locale.",
            note: manualPageNote),
        .manFileCamera: Message(
            "man.file.camera",
            "the camera chosen last with key d, by its name under /dev/v4l (by-id, else by-path): the next run opens "
                + "it when it is plugged in and gives colour pictures. Without it (or after deleting it) facecap "
                + "ranks the cameras itself, as 'facecap devices' shows. In $XDG_STATE_HOME/facecap/ when that is "
                + "set, mode 0600 in a 0700 folder.",
            note: manualPageNote),
        .manExampleWizard: Message("man.example.wizard", "run the wizard with the first camera", note: manualPageNote),
        .manExamplePlain: Message(
            "man.example.plain",
            "no full-screen UI; JSON Lines events for a script",
            note: manualPageNote),
        .manExampleClip: Message("man.example.clip", "replay a clip instead of a camera", note: manualPageNote),
        .manExampleRecord: Message(
            "man.example.record", "record a clip for replay or a bug report", note: manualPageNote),
        .manExampleAnalyze: Message(
            "man.example.analyze",
            "faces, landmarks, measures and guidance as JSON",
            note: manualPageNote),
        .manExampleFfmpeg: Message(
            "man.example.ffmpeg",
            "turn a photo into a 3-second clip (ffmpeg is not part of facecap)",
            note: manualPageNote),
    ]
}
