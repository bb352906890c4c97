/// Every sentence facecap shows a person, by a stable id, with its English (the source language).
///
/// The raw value is the id a translation is filed under (the `msgctxt` of the gettext template,
/// `Resources/po/facecap.pot`, which `facecap generate pot` writes from this list). Placeholders are
/// `{name}`: a translation may put them in any order and must keep every one. An entry with a plural
/// (`englishPlural`) takes its form from `{count}`. Changing an English text makes every translation of
/// it stale (it falls back to English until the translation is updated), as gettext does.
public enum MessageID: String, CaseIterable, Sendable {
    // Keys named in the key bar and in the help.
    case keyEnter = "key.enter", keySpace = "key.space", keyEscape = "key.escape"
    case keyQuit = "key.quit", keyHelp = "key.help", keyStart = "key.start", keyTurnOnCamera = "key.turnOnCamera"
    case keyNoThanks = "key.noThanks", keyAskAgain = "key.askAgain", keyOtherCamera = "key.otherCamera"
    case keyContinue = "key.continue", keyTryAgain = "key.tryAgain", keyLookNow = "key.lookNow"
    case keyReplayClip = "key.replayClip", keySendNow = "key.sendNow", keySendAgain = "key.sendAgain"
    case keyQuitPhotoSaved = "key.quitPhotoSaved", keySaveAgain = "key.saveAgain"
    case keyQuitWithoutSaving = "key.quitWithoutSaving", keyTakePhoto = "key.takePhoto"
    case keyCloseHelp = "key.closeHelp"

    // Countdowns and progress labels.
    case countdownContinuing = "countdown.continuing", countdownBackToCamera = "countdown.backToCamera"
    case countdownLookingAgain = "countdown.lookingAgain", countdownLookingForCamera = "countdown.lookingForCamera"
    case countdownSendingAgainIn = "countdown.sendingAgainIn", countdownSendingAgainNow = "countdown.sendingAgainNow"
    case countdownManualIn = "countdown.manualIn", countdownNoNewPicture = "countdown.noNewPicture"
    case countdownWaitingNoPicture = "countdown.waitingNoPicture"
    case progressSaving = "progress.saving", progressSendingAgain = "progress.sendingAgain"
    case progressSteady = "progress.steady", progressPercent = "progress.percent"

    // Screens.
    case tooSmallTitle = "tooSmall.title", tooSmallNeeds = "tooSmall.needs", tooSmallFix = "tooSmall.fix"
    case tutorialTitle = "tutorial.title", tutorialTipFace = "tutorial.tip.face"
    case tutorialTipExpression = "tutorial.tip.expression", tutorialTipLight = "tutorial.tip.light"
    case tutorialTipUncover = "tutorial.tip.uncover"
    case contextTitle = "context.title", contextTurnOnYourCamera = "context.turnOn.yourCamera"
    case contextTurnOnCamera = "context.turnOn.camera", contextReplayClip = "context.replay.clip"
    case contextStaysHere = "context.staysHere", contextKeptServer = "context.kept.server"
    case contextKeptLocal = "context.kept.local"
    case dismissedTitle = "dismissed.title", dismissedStaysOff = "dismissed.staysOff"
    case dismissedAskAgain = "dismissed.askAgain", dismissedOtherCamera = "dismissed.otherCamera"
    case dismissedReplay = "dismissed.replay", dismissedQuit = "dismissed.quit"
    case captureTitle = "capture.title", captureStarting = "capture.starting", captureTaking = "capture.taking"
    case captureLooking = "capture.looking", captureWaiting = "capture.waiting"
    case manualPrompt = "manual.prompt", manualPromptPlain = "manual.prompt.plain"
    case manualTimeout = "manual.timeout", manualNoConfidentFace = "manual.noConfidentFace"
    case checkingTitleServer = "checking.title.server", checkingTitleLocal = "checking.title.local"
    case checkingPrimaryServer = "checking.primary.server", checkingPrimaryLocal = "checking.primary.local"
    case checkingAttempt = "checking.attempt", checkingLastAttempt = "checking.lastAttempt"
    case savingTitle = "saving.title"
    case successTitle = "success.title", successSavedTo = "success.savedTo", successReport = "success.report"
    case retryTitle = "retry.title", retryAttemptsLeft = "retry.attemptsLeft", retryNotPassed = "retry.notPassed"
    case finalTitle = "final.title", finalNotPassed = "final.notPassed", finalSubmitted = "final.submitted"
    case lostTitle = "lost.title", lostTitleClip = "lost.title.clip", lostKeepsLooking = "lost.keepsLooking"
    case deniedTitle = "denied.title", busyTitle = "busy.title", noCameraTitle = "noCamera.title"
    case unreachableTitle = "unreachable.title", unreachableKept = "unreachable.kept"
    case refusedTitle = "refused.title", refusedHTTP = "refused.http", refusedFix = "refused.fix"
    case saveFailedTitle = "saveFailed.title", saveFailedKept = "saveFailed.kept"

    // The ? help.
    case helpAbout = "help.about", helpFollow = "help.follow", helpHoldStill = "help.holdStill"
    case helpMirror = "help.mirror", helpManual = "help.manual", helpKeys = "help.keys", helpTitle = "help.title"
    case plainAlso = "plain.also"

    // Guidance, by guidance code (the live message on the capture screen).
    case guidanceNoFace = "guidance.noFace", guidanceMultipleFaces = "guidance.multipleFaces"
    case guidanceFaceNotVisible = "guidance.faceNotVisible", guidanceFaceCovered = "guidance.faceCovered"
    case guidanceTooDark = "guidance.tooDark", guidanceTooBright = "guidance.tooBright"
    case guidanceMoveCloser = "guidance.moveCloser", guidanceMoveBack = "guidance.moveBack"
    case guidanceMoveLeft = "guidance.moveLeft", guidanceMoveRight = "guidance.moveRight"
    case guidanceMoveUp = "guidance.moveUp", guidanceMoveDown = "guidance.moveDown"
    case guidanceLookStraight = "guidance.lookStraight", guidanceKeepHeadLevel = "guidance.keepHeadLevel"
    case guidanceUnevenLight = "guidance.unevenLight", guidanceEyesClosed = "guidance.eyesClosed"
    case guidanceBlurry = "guidance.blurry", guidanceHoldStill = "guidance.holdStill", guidanceReady = "guidance.ready"
    // Gentler guidance for a measure only just past its limit (the code is the same).
    case guidanceSlightTooDark = "guidance.slight.tooDark", guidanceSlightTooBright = "guidance.slight.tooBright"
    case guidanceSlightUnevenLight = "guidance.slight.unevenLight"
    case guidanceSlightLookStraight = "guidance.slight.lookStraight"
    case guidanceSlightKeepHeadLevel = "guidance.slight.keepHeadLevel"

    // Advice for a checker's reason code (the Retry screen).
    case adviceNoFace = "advice.noFace", adviceMultipleFaces = "advice.multipleFaces"
    case adviceFaceNotVisible = "advice.faceNotVisible", adviceFaceCovered = "advice.faceCovered"
    case adviceTooDark = "advice.tooDark", adviceTooBright = "advice.tooBright"
    case adviceMoveCloser = "advice.moveCloser", adviceMoveBack = "advice.moveBack"
    case adviceOffCentre = "advice.offCentre", adviceLookStraight = "advice.lookStraight"
    case adviceKeepHeadLevel = "advice.keepHeadLevel", adviceUnevenLight = "advice.unevenLight"
    case adviceEyesClosed = "advice.eyesClosed", adviceBlurry = "advice.blurry", adviceHoldStill = "advice.holdStill"
    case adviceFaceUnclear = "advice.faceUnclear", adviceUnknown = "advice.unknown"

    // Lines on standard error after the screen is closed (and in --plain).
    case reportSaved = "report.saved", reportManualReview = "report.manualReview"
    case reportNotValidated = "report.notValidated", reportNotSaved = "report.notSaved"
    case reportNotSavedQuit = "report.notSavedQuit", reportRefused = "report.refused", reportRefusedHTTP = "report.refusedHTTP"
    case warningPrefix = "warning.prefix", photoNoFrame = "photo.noFrame"

    // Camera problems: the wizard's lines that say what the camera's sentence says, in parts.
    case cameraDevice = "camera.device", cameraYourGroups = "camera.yourGroups"
    case cameraGroupsNone = "camera.groups.none", cameraAddedAfterLogin = "camera.addedAfterLogin"
    case cameraFixGroup = "camera.fixGroup", cameraThisTerminalOnly = "camera.thisTerminalOnly"
    case cameraNoHolderVisible = "camera.noHolderVisible", cameraInUseBy = "camera.inUseBy"
    case cameraCloseIt = "camera.closeIt", cameraNoneReplayClip = "camera.none.replayClip"
    case cameraReplayRecorded = "camera.replayRecorded"

    // The camera layer's sentences (also `facecap devices` and `record`).
    case cameraErrorNoCamera = "cameraError.noCamera", cameraErrorNoSuchDevice = "cameraError.noSuchDevice"
    case cameraErrorNotCapture = "cameraError.notCapture", cameraErrorDenied = "cameraError.denied"
    case cameraErrorDeniedPending = "cameraError.denied.pending", cameraErrorBusy = "cameraError.busy"
    case cameraErrorBusyNoneVisible = "cameraError.busy.noneVisible"
    case cameraErrorUnsupported = "cameraError.unsupported", cameraErrorNoFormats = "cameraError.noFormats"
    case cameraErrorDisconnected = "cameraError.disconnected", cameraErrorStalled = "cameraError.stalled"
    case cameraErrorNoBandwidth = "cameraError.noBandwidth", cameraErrorIO = "cameraError.io"
    case cameraErrorSystem = "cameraError.system", cameraErrorClosed = "cameraError.closed"
    case accessOwner = "access.owner", accessYouAreIn = "access.youAreIn", accessNoGroups = "access.noGroups"
    case clipEnded = "clip.ended", clipEndedCut = "clip.ended.cut", clipUnreadable = "clip.unreadable"

    // The server could not be reached (the Connection error screen); `detail` is curl's text.
    case netDetail = "net.detail", netCancelled = "net.cancelled", netReplyTooLarge = "net.replyTooLarge"
    case netDNS = "net.dns", netProxyDNS = "net.proxyDNS", netRefused = "net.refused", netNoRoute = "net.noRoute"
    case netCannotConnect = "net.cannotConnect", netConnectTimeout = "net.connectTimeout"
    case netTimedOut = "net.timedOut", netCertificate = "net.certificate", netTLS = "net.tls"
    case netReset = "net.reset", netBroke = "net.broke", netNoReply = "net.noReply", netCutShort = "net.cutShort"
    case netBadAddress = "net.badAddress", netFailed = "net.failed", netCannotBuild = "net.cannotBuild"
    case netCannotStart = "net.cannotStart"
    case serverNotContract = "server.notContract", serverBusy = "server.busy", serverFailed = "server.failed"
    case serverFailedSaying = "server.failedSaying", serverRedirects = "server.redirects"
    case serverRedirectsTo = "server.redirectsTo", serverUnexpected = "server.unexpected"
    case serverRefusedToken = "server.refused.token", serverNoEndpoint = "server.noEndpoint"
    case serverTooLarge = "server.tooLarge", serverRefusedRequest = "server.refused.request"
    case checkCannotStart = "check.cannotStart", netPlainHTTP = "net.plainHTTP"

    // Files.
    case inputMissing = "input.missing", inputDenied = "input.denied", inputDirectory = "input.directory"
    case inputNotRegular = "input.notRegular", inputTooLarge = "input.tooLarge", inputUnreadable = "input.unreadable"
    case inputOutOfMemory = "input.outOfMemory"
    case outputNoFolder = "output.noFolder", outputDenied = "output.denied", outputReadOnly = "output.readOnly"
    case outputDiskFull = "output.diskFull", outputIsDirectory = "output.isDirectory"
    case outputNotFolder = "output.notFolder", outputExists = "output.exists", outputFrame = "output.frame"
    case outputEncoding = "output.encoding", outputSystem = "output.system", outputCannotCreate = "output.cannotCreate"
    case filePathProblem = "file.pathProblem"

    // Usage errors (exit 64) and the terminal check.
    case usageSeeHelp = "usage.seeHelp", usageUnknownCommand = "usage.unknownCommand"
    case usageUnknownOption = "usage.unknownOption", usageNeedsValue = "usage.needsValue"
    case usageTakesNoValue = "usage.takesNoValue", usageGivenTwice = "usage.givenTwice"
    case usageWholeNumber = "usage.wholeNumber", usageNumber = "usage.number", usageSize = "usage.size"
    case usageUnexpectedArgument = "usage.unexpectedArgument", usageInputOrDevice = "usage.inputOrDevice"
    case usageLoopNeedsInput = "usage.loopNeedsInput", usageDeviceNeedsPath = "usage.deviceNeedsPath"
    case usageOutputNeedsFolder = "usage.outputNeedsFolder", usageColor = "usage.color"
    case usageEventsNeedsFile = "usage.eventsNeedsFile", usageEventsStdout = "usage.eventsStdout"
    case usageUnknownLanguage = "usage.unknownLanguage", usageServerURL = "usage.serverURL"
    case usageServerNoHost = "usage.serverNoHost", usageServerHTTPS = "usage.serverHTTPS"
    case usageClipIgnoresMode = "usage.clipIgnoresMode"
    case usageTokenControl = "usage.tokenControl", usageTokenInClear = "usage.tokenInClear"
    case usageNeedsTerminal = "usage.needsTerminal", usageTerminalType = "usage.terminalType"
    case terminalUnset = "terminal.unset", terminalCannotDraw = "terminal.cannotDraw"

    // The server checked before the camera opens (the pre-flight), and server answers named for what they are.
    case usageServerPort = "usage.serverPort"
    case serverCheckingTitle = "serverCheck.checking.title", serverCheckingPrimary = "serverCheck.checking.primary"
    case serverErrorTitle = "serverError.title"
    case serverCheckTitleToken = "serverCheck.title.token", serverCheckTitleForbidden = "serverCheck.title.forbidden"
    case serverCheckTitleAddress = "serverCheck.title.address", serverCheckTitleRefused = "serverCheck.title.refused"
    case serverCheckFixUnreachable = "serverCheck.fix.unreachable"
    case serverCheckFixUnreachablePlain = "serverCheck.fix.unreachable.plain"
    case serverCheckFixServerError = "serverCheck.fix.serverError"
    case serverCheckFixServerErrorPlain = "serverCheck.fix.serverError.plain", serverCheckAnswered = "serverCheck.answered"
    case serverCheckFixTokenMissing = "serverCheck.fix.tokenMissing"
    case serverCheckFixTokenRefused = "serverCheck.fix.tokenRefused"
    case serverCheckFixForbidden = "serverCheck.fix.forbidden", serverCheckFixAddress = "serverCheck.fix.address"
    case serverCheckFixOther = "serverCheck.fix.other"
    case keyCheckAgain = "key.checkAgain", keyTakePhotoAnyway = "key.takePhotoAnyway"
    case countdownCheckingAgainIn = "countdown.checkingAgainIn", countdownCheckingNow = "countdown.checkingNow"
    case reportServerCheck = "report.serverCheck"
    case refusedFixAddress = "refused.fix.address", refusedFixOther = "refused.fix.other"

    // Camera and clip screens: each fact once, words that fit a replayed clip.
    case cameraDeviceOwned = "camera.deviceOwned", cameraElsewhere = "camera.elsewhere"
    case cameraNoneDetail = "camera.noneDetail", cameraLooksAgain = "camera.looksAgain"
    case clipUnreadableTitle = "clip.unreadable.title", contextTitleClip = "context.title.clip"
    case dismissedTitleClip = "dismissed.title.clip", dismissedClipNotPlayed = "dismissed.clipNotPlayed"

    // Key d: choosing another camera.
    case pickerTitle = "picker.title", pickerLooking = "picker.looking", pickerPrompt = "picker.prompt"
    case pickerCurrent = "picker.current", pickerNoOther = "picker.noOther", pickerNone = "picker.none"
    case keyChooseCamera = "key.chooseCamera", keyLookAgain = "key.lookAgain", keyBack = "key.back"

    // Could not save the photo: another folder, typed.
    case keySaveElsewhere = "key.saveElsewhere", keySaveHere = "key.saveHere"
    case saveFolderOffer = "saveFolder.offer", saveFolderPrompt = "saveFolder.prompt"
}
