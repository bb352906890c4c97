/// The live guidance, the advice for a checker's reasons and the lines after the screen closes: one line a
/// message, its id, English, plural and note together (`MessageID`'s table).

private let gentlerNote =
    "Gentler words for the same guidance, shown when the face is only just past the limit."
private let smallMoveNote =
    "A small move, said when the face is near the oval: the person should move slowly and a little. Left and right "
    + "are the person's own, as \"Move left\" and \"Move right\" are."

extension MessageID {
    static let guidanceMessages: [MessageID: Message] = [
        // Guidance, by guidance code (the live message on the capture screen).
        .guidanceNoFace: Message("guidance.noFace", "Position your face in the oval"),
        .guidanceMultipleFaces: Message("guidance.multipleFaces", "Only one face, please"),
        .guidanceFaceNotVisible: Message("guidance.faceNotVisible", "Move your whole face into view"),
        .guidanceFaceCovered: Message("guidance.faceCovered", "Uncover your face — no mask, hand or sunglasses"),
        .guidanceTooDark: Message("guidance.tooDark", "Too dark — find more light"),
        .guidanceTooBright: Message("guidance.tooBright", "Too bright — avoid direct light"),
        .guidanceMoveCloser: Message("guidance.moveCloser", "Move closer"),
        .guidanceMoveBack: Message("guidance.moveBack", "Move back"),
        .guidanceMoveLeft: Message("guidance.moveLeft", "Move left"),
        .guidanceMoveRight: Message("guidance.moveRight", "Move right"),
        .guidanceMoveUp: Message("guidance.moveUp", "Move up"),
        .guidanceMoveDown: Message("guidance.moveDown", "Move down"),
        .guidanceLookStraight: Message("guidance.lookStraight", "Look straight at the camera"),
        .guidanceKeepHeadLevel: Message("guidance.keepHeadLevel", "Keep your head level"),
        .guidanceUnevenLight: Message("guidance.unevenLight", "Light your face evenly"),
        .guidanceEyesClosed: Message("guidance.eyesClosed", "Keep your eyes open"),
        .guidanceBlurry: Message("guidance.blurry", "Blurry — hold still or clean the lens"),
        .guidanceHoldStill: Message("guidance.holdStill", "Hold still"),
        .guidanceReady: Message("guidance.ready", "Perfect — hold still"),

        // Gentler guidance for a measure only just past its limit (the code is the same).
        .guidanceSlightTooDark: Message("guidance.slight.tooDark", "A little more light, please", note: gentlerNote),
        .guidanceSlightTooBright: Message(
            "guidance.slight.tooBright", "A little less light, please", note: gentlerNote),
        .guidanceSlightUnevenLight: Message(
            "guidance.slight.unevenLight",
            "Light your face a little more evenly",
            note: gentlerNote),
        .guidanceSlightLookStraight: Message(
            "guidance.slight.lookStraight",
            "Turn a little more toward the camera",
            note: gentlerNote),
        .guidanceSlightKeepHeadLevel: Message(
            "guidance.slight.keepHeadLevel",
            "Straighten your head a little",
            note: gentlerNote),
        .guidanceSlightMoveLeft: Message("guidance.slight.moveLeft", "A little to the left", note: smallMoveNote),
        .guidanceSlightMoveRight: Message("guidance.slight.moveRight", "A little to the right", note: smallMoveNote),
        .guidanceSlightMoveUp: Message("guidance.slight.moveUp", "A little higher", note: smallMoveNote),
        .guidanceSlightMoveDown: Message("guidance.slight.moveDown", "A little lower", note: smallMoveNote),

        // Advice for a checker's reason code (the Retry screen).
        .adviceNoFace: Message("advice.noFace", "No face was found in the photo: keep your face inside the oval"),
        .adviceMultipleFaces: Message("advice.multipleFaces", "More than one face: make sure nobody else is in view"),
        .adviceFaceNotVisible: Message(
            "advice.faceNotVisible",
            "Part of your face was cut off: move your whole face into view"),
        .adviceFaceCovered: Message(
            "advice.faceCovered",
            "Something covered your face: take off a mask or dark glasses and keep your hands away"),
        .adviceTooDark: Message("advice.tooDark", "Too dark: face a window or a lamp"),
        .adviceTooBright: Message(
            "advice.tooBright",
            "Too bright: avoid direct sunlight or a lamp shining at the camera"),
        .adviceMoveCloser: Message("advice.moveCloser", "Your face was too small: move closer to the camera"),
        .adviceMoveBack: Message("advice.moveBack", "Your face was too close: move back a little"),
        .adviceOffCentre: Message("advice.offCentre", "Your face was off centre: keep it in the middle of the oval"),
        .adviceLookStraight: Message(
            "advice.lookStraight",
            "Your head was turned or your eyes looked away: look straight at the camera"),
        .adviceKeepHeadLevel: Message("advice.keepHeadLevel", "Your head was tilted: keep it level"),
        .adviceUnevenLight: Message("advice.unevenLight", "The light was uneven: face the light so both sides are lit"),
        .adviceEyesClosed: Message(
            "advice.eyesClosed",
            "Your eyes looked closed: keep them open and look at the camera"),
        .adviceBlurry: Message("advice.blurry", "The photo was blurry: hold still, and clean the lens"),
        .adviceHoldStill: Message("advice.holdStill", "You were moving: hold still until the photo is taken"),
        .adviceFaceUnclear: Message(
            "advice.faceUnclear",
            "Your face could not be made out: face the camera, uncovered, in good light"),
        .adviceUnknown: Message(
            "advice.unknown",
            "The checker asked for another photo for a reason facecap does not know",
            note: "Shown for a reason code the server sent that facecap does not know."),

        // Lines on standard error after the screen is closed (and in --plain).
        .reportSaved: Message("report.saved", "photo saved: {path}"),
        .reportManualReview: Message("report.manualReview", "photo submitted for manual review, saved: {path}"),
        .reportNotValidated: Message("report.notValidated", "the photo was not validated and is saved in {path}"),
        .reportNotSaved: Message("report.notSaved", "the photo could not be saved: {reason}"),
        .reportNotSavedQuit: Message("report.notSavedQuit", "the photo was not saved: {reason}"),
        .reportRefused: Message("report.refused", "the server refused the photo: {message}"),
        .reportRefusedHTTP: Message("report.refusedHTTP", "the server refused the photo (HTTP {status}): {message}"),
        .warningPrefix: Message("warning.prefix", "warning: {message}"),
        .reportCancelled: Message("report.cancelled", "cancelled before a photo was saved"),
    ]
}
