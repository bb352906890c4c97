/// The server checked before the camera opens, the camera and clip screens, the camera picker, saving elsewhere:
/// one line a message, its id, English, plural and note together (`MessageID`'s table).

private let tokenNote =
    "FACECAP_TOKEN, http://, https:// and --insecure-http stay as they are."

extension MessageID {
    static let serverMessages: [MessageID: Message] = [
        // The server checked before the camera opens (the pre-flight), and server answers named for what they are.
        .usageServerPort: Message(
            "usage.serverPort",
            "--server URL has no valid port: '{url}' (a port is a number from 1 to 65535)"),
        .serverCheckingTitle: Message("serverCheck.checking.title", "Checking the server"),
        .serverCheckingPrimary: Message("serverCheck.checking.primary", "Asking {server} whether it takes photos…"),
        .serverErrorTitle: Message("serverError.title", "The server answered with an error"),
        .serverCheckTitleToken: Message("serverCheck.title.token", "The server did not accept the token"),
        .serverCheckTitleForbidden: Message("serverCheck.title.forbidden", "The server refused access"),
        .serverCheckTitleAddress: Message("serverCheck.title.address", "No validation service at this address"),
        .serverCheckTitleRefused: Message("serverCheck.title.refused", "The server refused the check"),
        .serverCheckFixUnreachable: Message(
            "serverCheck.fix.unreachable",
            "Check the address and that the server runs. Press c to take the photo anyway: it is kept and sent once "
                + "the server answers.",
            note: "c is the key: keep it as it is."),
        .serverCheckFixUnreachablePlain: Message(
            "serverCheck.fix.unreachable.plain",
            "Check the address and that the server runs. The photo is taken anyway: it is kept and sent once the "
                + "server answers."),
        .serverCheckFixServerError: Message(
            "serverCheck.fix.serverError",
            "The server is there but failing; facecap checks again by itself. Press c to take the photo anyway: it "
                + "is kept and sent once the server answers.",
            note: "c is the key: keep it as it is."),
        .serverCheckFixServerErrorPlain: Message(
            "serverCheck.fix.serverError.plain",
            "The server is there but failing. The photo is taken anyway: it is kept and sent once the server answers."),
        .serverCheckAnswered: Message("serverCheck.answered", "The server answered HTTP {status}."),
        .serverCheckFixTokenMissing: Message(
            "serverCheck.fix.tokenMissing",
            "This server needs a token: set FACECAP_TOKEN, then start facecap again.",
            note: tokenNote),
        .serverCheckFixTokenRefused: Message(
            "serverCheck.fix.tokenRefused",
            "Set FACECAP_TOKEN to a token this server accepts, then start facecap again.",
            note: tokenNote),
        .serverCheckFixForbidden: Message(
            "serverCheck.fix.forbidden",
            "The token in FACECAP_TOKEN may not send photos here: ask for one that may, then start facecap again.",
            note: tokenNote),
        .serverCheckFixAddress: Message(
            "serverCheck.fix.address",
            "Check the address given with --server ({server}), then start facecap again."),
        .serverCheckFixOther: Message(
            "serverCheck.fix.other",
            "The server's answer says what to fix; then start facecap again."),
        .keyCheckAgain: Message("key.checkAgain", "check again"),
        .keyTakePhotoAnyway: Message("key.takePhotoAnyway", "take the photo anyway"),
        .countdownCheckingAgainIn: Message("countdown.checkingAgainIn", "Checking again in {seconds} s"),
        .countdownCheckingNow: Message("countdown.checkingNow", "Checking the server again…"),
        .reportServerCheck: Message("report.serverCheck", "the server was checked before the camera opened: {problem}"),
        .reportServerAnswered: Message(
            "report.serverAnswered",
            "the server answered HTTP {status}",
            note: "Ends the one line on standard error after \"the server was checked…: \": a clause, not a sentence "
                + "(no capital, no full stop)."),
        .refusedFixAddress: Message(
            "refused.fix.address",
            "Your photo is kept. Check the --server address, then press r to send it again.",
            note: "r, d and q are the keys: keep them as they are."),
        .refusedFixOther: Message(
            "refused.fix.other",
            "Your photo is kept. The server's answer says what to fix; then press r to send it again.",
            note: "r, d and q are the keys: keep them as they are."),

        // Camera and clip screens: each fact once, words that fit a replayed clip.
        .cameraDeviceOwned: Message("camera.deviceOwned", "Device: {path} (owner {owner}, group {group}, mode {mode})"),
        .cameraElsewhere: Message(
            "camera.elsewhere",
            "Over SSH or in a container, pass the camera through (e.g. docker run --device {path}); also check the "
                + "camera's privacy switch or shutter."),
        .cameraNoneDetail: Message(
            "camera.noneDetail",
            "No video-capture device in {directory}: connect a webcam (check `ls /dev/video*`) or pass one through "
                + "to this VM or container."),
        .cameraLooksAgain: Message("camera.looksAgain", "facecap looks again by itself."),
        .clipUnreadableTitle: Message("clip.unreadable.title", "The clip cannot be read"),
        .dismissedTitleClip: Message("dismissed.title.clip", "The clip was not replayed"),
        .dismissedClipNotPlayed: Message("dismissed.clipNotPlayed", "Nothing was replayed. You can still:"),

        // Key d: choosing another camera.
        .pickerTitle: Message("picker.title", "Choose a camera"),
        .pickerLooking: Message("picker.looking", "Looking for cameras…"),
        .pickerPrompt: Message("picker.prompt", "Press the number of the camera to use:"),
        .pickerCurrent: Message(
            "picker.current",
            "{camera} (tried last)",
            note: "{camera} is a numbered line: number, device path, its name."),
        .pickerNoOther: Message(
            "picker.noOther",
            "No other camera was found: {path} is the only one. Connect another and press r.",
            note: "r is the key: keep it as it is."),
        .pickerNone: Message(
            "picker.none",
            "No camera was found. Connect one and press r to look again.",
            note: "r is the key: keep it as it is."),
        .keyChooseCamera: Message("key.chooseCamera", "choose"),
        .keyLookAgain: Message("key.lookAgain", "look again"),
        .keyBack: Message("key.back", "back"),

        // Could not save the photo: another folder, typed.
        .keySaveElsewhere: Message("key.saveElsewhere", "another folder"),
        .keySaveHere: Message("key.saveHere", "save there"),
        .saveFolderOffer: Message(
            "saveFolder.offer",
            "Or press o to type another folder to save it in.",
            note: "o is the key: keep it as it is."),
        .saveFolderPrompt: Message(
            "saveFolder.prompt",
            "Type the folder to save the photo in (it is created if missing), then press Enter:"),
    ]
}
