/// The wizard's screens (keys, countdowns, the screens' lines, the ? help): one line a message, its id, English,
/// plural and note together (`MessageID`'s table).

private let keyNameNote =
    "The name of a key on the keyboard, as printed on it."
private let keyLettersNote =
    "r, d and q are the keys: keep them as they are."

extension MessageID {
    static let screensMessages: [MessageID: Message] = [
        // Keys named in the key bar and in the help.
        .keyEnter: Message("key.enter", "Enter", note: keyNameNote),
        .keySpace: Message("key.space", "SPACE", note: keyNameNote),
        .keyEscape: Message("key.escape", "Esc", note: keyNameNote),
        .keyQuit: Message("key.quit", "quit"),
        .keyHelp: Message("key.help", "help"),
        .keyStart: Message("key.start", "start"),
        .keyTurnOnCamera: Message("key.turnOnCamera", "turn on the camera"),
        .keyNoThanks: Message("key.noThanks", "no thanks"),
        .keyAskAgain: Message("key.askAgain", "ask again"),
        .keyOtherCamera: Message("key.otherCamera", "other camera"),
        .keyContinue: Message("key.continue", "continue"),
        .keyTryAgain: Message("key.tryAgain", "try again"),
        .keyLookNow: Message("key.lookNow", "look now"),
        .keyReplayClip: Message("key.replayClip", "replay the clip"),
        .keySendNow: Message("key.sendNow", "send now"),
        .keySendAgain: Message("key.sendAgain", "send again"),
        .keyQuitPhotoSaved: Message("key.quitPhotoSaved", "quit, photo kept"),
        .keySaveAgain: Message("key.saveAgain", "save again"),
        .keyQuitWithoutSaving: Message("key.quitWithoutSaving", "quit without saving"),
        .keyTakePhoto: Message("key.takePhoto", "take photo"),
        .keyCloseHelp: Message("key.closeHelp", "close this help"),

        // Countdowns and progress labels.
        .countdownContinuing: Message("countdown.continuing", "Continuing in {seconds} s"),
        .countdownBackToCamera: Message("countdown.backToCamera", "Back to the camera in {seconds} s"),
        .countdownLookingAgain: Message("countdown.lookingAgain", "Looking again in {seconds} s"),
        .countdownLookingForCamera: Message("countdown.lookingForCamera", "Looking for the camera…"),
        .countdownSendingAgainIn: Message("countdown.sendingAgainIn", "Sending again in {seconds} s"),
        .countdownSendingAgainNow: Message("countdown.sendingAgainNow", "Sending again…"),
        .countdownManualIn: Message("countdown.manualIn", "Manual capture in {seconds} s"),
        .countdownNoNewPicture: Message("countdown.noNewPicture", "No new picture for {seconds} s"),
        .countdownWaitingNoPicture: Message(
            "countdown.waitingNoPicture",
            "Waiting for the camera: no new picture for {seconds} s"),
        .progressSaving: Message("progress.saving", "Saving"),
        .progressSendingAgain: Message("progress.sendingAgain", "Sending again"),
        .progressSteady: Message("progress.steady", "Steady"),
        .progressPercent: Message(
            "progress.percent",
            "{percent} %",
            note: "A percentage: {percent} is a whole number."),
        .progressSending: Message("progress.sending", "Sending"),
        .progressChecking: Message("progress.checking", "Checking"),

        // Screens.
        .tooSmallTitle: Message("tooSmall.title", "Terminal too small"),
        .tooSmallNeeds: Message(
            "tooSmall.needs",
            "facecap needs at least {minColumns}×{minRows} characters; this terminal is {columns}×{rows}.",
            note: "× is the multiplication sign between columns and rows."),
        .tooSmallFix: Message("tooSmall.fix", "Make the window larger, or run facecap with --plain."),
        .tutorialTitle: Message("tutorial.title", "Take your selfie"),
        .tutorialTipFace: Message("tutorial.tip.face", "Face the camera with your whole face inside the oval"),
        .tutorialTipExpression: Message(
            "tutorial.tip.expression",
            "Keep a neutral expression, eyes open, mouth closed"),
        .tutorialTipLight: Message(
            "tutorial.tip.light",
            "Find even light: face a window or a lamp, not a bright background"),
        .tutorialTipUncover: Message(
            "tutorial.tip.uncover",
            "Uncover your face: no hat, mask or sunglasses (clear glasses are fine)"),
        .contextTitle: Message("context.title", "facecap needs your camera"),
        .contextTurnOnYourCamera: Message(
            "context.turnOn.yourCamera",
            "facecap will turn on your camera to take one photo of your face."),
        .contextTurnOnCamera: Message(
            "context.turnOn.camera",
            "facecap will turn on the camera {path} to take one photo of your face."),
        .contextReplayClip: Message(
            "context.replay.clip",
            "facecap will replay the clip {path} to take one photo of your face."),
        .contextStaysHere: Message(
            "context.staysHere",
            "The live picture stays on this machine: frames are analysed in memory, never saved or sent."),
        .contextKeptServer: Message(
            "context.kept.server",
            "Only the final photo is kept, in {directory}, and sent to {server} to be checked."),
        .contextKeptLocal: Message(
            "context.kept.local",
            "Only the final photo is kept, in {directory}, and checked on this machine."),
        .dismissedTitle: Message("dismissed.title", "Camera not turned on"),
        .dismissedStaysOff: Message("dismissed.staysOff", "The camera stays off. You can still:"),
        .dismissedAskAgain: Message("dismissed.askAgain", "press r to be asked again", note: keyLettersNote),
        .dismissedOtherCamera: Message("dismissed.otherCamera", "press d to use another camera", note: keyLettersNote),
        .dismissedReplay: Message("dismissed.replay", "replay a recorded clip instead:"),
        .dismissedQuit: Message("dismissed.quit", "press q to quit", note: keyLettersNote),
        .captureTitle: Message("capture.title", "Taking your selfie"),
        .captureStarting: Message("capture.starting", "Starting the camera…"),
        .captureTaking: Message("capture.taking", "Taking the photo…"),
        .captureLooking: Message("capture.looking", "Looking for your face…"),
        .captureWaiting: Message("capture.waiting", "Waiting for the camera…"),
        .manualPrompt: Message("manual.prompt", "Press SPACE to take the photo"),
        .manualPromptPlain: Message(
            "manual.prompt.plain",
            "Press SPACE, or type capture and Enter, to take the photo",
            note: "'capture' is a word typed on standard input: keep it in English."),
        .manualTimeout: Message("manual.timeout", "Auto capture did not finish in {seconds} s."),
        .manualNoConfidentFace: Message("manual.noConfidentFace", "No face was found clearly enough for auto capture."),
        .checkingTitleServer: Message("checking.title.server", "Sending your photo"),
        .checkingTitleLocal: Message("checking.title.local", "Checking your photo"),
        .checkingPrimaryServer: Message("checking.primary.server", "Sending your photo…"),
        .checkingPrimaryLocal: Message("checking.primary.local", "Checking your photo…"),
        .checkingAttempt: Message("checking.attempt", "Attempt {attempt} of {attempts}"),
        .checkingLastAttempt: Message("checking.lastAttempt", "This is the last attempt."),
        .checkingWaitServer: Message(
            "checking.wait.server",
            "Waiting for the answer: {seconds} s (time-out {timeout} s)",
            note: "{seconds}: whole seconds since the photo was sent or the check began; {timeout}: whole seconds."),
        .checkingWaitLocal: Message(
            "checking.wait.local",
            "Checking on this machine: {seconds} s",
            note: "{seconds}: whole seconds since the photo was sent or the check began; {timeout}: whole seconds."),
        .checkingCancelServer: Message(
            "checking.cancel.server",
            "Ctrl-C cancels: the photo is then saved without a check.",
            note: "Ctrl-C is the key combination: keep it as it is."),
        .checkingCancelLocal: Message(
            "checking.cancel.local",
            "Ctrl-C cancels (the photo is not kept).",
            note: "Ctrl-C is the key combination: keep it as it is."),
        .savingTitle: Message("saving.title", "Saving your photo"),
        .successTitle: Message("success.title", "Selfie accepted"),
        .successSavedTo: Message("success.savedTo", "Saved to {path}"),
        .successReport: Message("success.report", "Report: {path}"),
        .retryTitle: Message("retry.title", "Let's take another photo"),
        .retryAttemptsLeft: Message("retry.attemptsLeft", "{count} attempt left", plural: "{count} attempts left"),
        .retryNotPassed: Message("retry.notPassed", "The photo did not pass the check."),
        .finalTitle: Message("final.title", "Sent for manual review"),
        .finalNotPassed: Message(
            "final.notPassed",
            "The photo did not pass the automatic check after {count} attempt.",
            plural: "The photo did not pass the automatic check after {count} attempts."),
        .finalSubmitted: Message("final.submitted", "It was submitted for review by a person: you may continue."),
        .lostTitle: Message("lost.title", "Camera connection lost"),
        .lostTitleClip: Message("lost.title.clip", "The clip ended"),
        .lostKeepsLooking: Message(
            "lost.keepsLooking",
            "facecap keeps looking for the camera and goes on by itself when it is back."),
        .deniedTitle: Message("denied.title", "Camera access denied"),
        .busyTitle: Message("busy.title", "The camera is in use"),
        .noCameraTitle: Message("noCamera.title", "No camera found"),
        .unreachableTitle: Message("unreachable.title", "Cannot reach the server"),
        .unreachableKept: Message(
            "unreachable.kept",
            "Your photo is kept and will be sent again as attempt {attempt}; no attempt is used up."),
        .refusedTitle: Message("refused.title", "The server refused the photo"),
        .refusedHTTP: Message("refused.http", "HTTP {status}: {message}"),
        .refusedFix: Message(
            "refused.fix",
            "Your photo is kept. Fix the problem (e.g. FACECAP_TOKEN), then press r to send it again.",
            note: keyLettersNote),
        .saveFailedTitle: Message("saveFailed.title", "Could not save the photo"),
        .saveFailedKept: Message(
            "saveFailed.kept",
            "The photo is kept in memory: fix the problem, then press r to save it again.",
            note: keyLettersNote),

        // The ? help.
        .helpAbout: Message("help.about", "facecap takes one photo of your face, guided live."),
        .helpFollow: Message("help.follow", "Follow the message until the oval turns green;"),
        .helpHoldStill: Message("help.holdStill", "hold still and the photo is taken by itself."),
        .helpMirror: Message(
            "help.mirror",
            "Directions are your own, as in a mirror: \"{moveLeft}\" means to your left.",
            note: "{moveLeft} is the guidance \"Move left\" as this language says it."),
        .helpManual: Message("help.manual", "If it does not work out, SPACE takes the photo yourself once offered."),
        .helpKeys: Message("help.keys", "Keys:"),
        .helpTitle: Message("help.title", "Help"),
        .plainAlso: Message("plain.also", "(also: {hints})"),
    ]
}
