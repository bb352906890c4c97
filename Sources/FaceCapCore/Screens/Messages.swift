/// The words the screens use. English is the only catalogue today (`--lang en`); a new language adds a
/// catalogue here, keyed by the same codes.
public enum Messages {
    /// The guidance message for a code.
    public static func guidance(_ code: GuidanceCode) -> String { code.englishText }

    /// The guidance message for a code, in its gentler words when it is only just past its limit.
    public static func guidance(_ code: GuidanceCode, slight: Bool) -> String {
        slight ? code.slightEnglishText ?? code.englishText : code.englishText
    }

    /// Advice for a reason a checker gave for asking for another photo (guidance codes and the validator's
    /// own codes); an unknown code is shown as it is, so a server's new reason still reaches the person.
    public static func advice(forReason reason: String) -> String {
        switch reason {
        case GuidanceCode.noFace.rawValue: return "No face was found in the photo: keep your face inside the oval"
        case GuidanceCode.multipleFaces.rawValue: return "More than one face: make sure nobody else is in view"
        case GuidanceCode.faceNotVisible.rawValue: return "Part of your face was cut off: move your whole face into view"
        case GuidanceCode.faceCovered.rawValue:
            return "Something covered your face: take off a mask or dark glasses and keep your hands away"
        case GuidanceCode.tooDark.rawValue: return "Too dark: face a window or a lamp"
        case GuidanceCode.tooBright.rawValue: return "Too bright: avoid direct sunlight or a lamp shining at the camera"
        case GuidanceCode.moveCloser.rawValue: return "Your face was too small: move closer to the camera"
        case GuidanceCode.moveBack.rawValue: return "Your face was too close: move back a little"
        case GuidanceCode.moveLeft.rawValue, GuidanceCode.moveRight.rawValue, GuidanceCode.moveUp.rawValue,
             GuidanceCode.moveDown.rawValue:
            return "Your face was off centre: keep it in the middle of the oval"
        case GuidanceCode.lookStraight.rawValue:
            return "Your head was turned or your eyes looked away: look straight at the camera"
        case GuidanceCode.keepHeadLevel.rawValue: return "Your head was tilted: keep it level"
        case GuidanceCode.unevenLight.rawValue: return "The light was uneven: face the light so both sides are lit"
        case GuidanceCode.eyesClosed.rawValue: return "Your eyes looked closed: keep them open and look at the camera"
        case GuidanceCode.blurry.rawValue: return "The photo was blurry: hold still, and clean the lens"
        case GuidanceCode.holdStill.rawValue: return "You were moving: hold still until the photo is taken"
        default: return GuidanceCode(rawValue: reason)?.englishText ?? reason
        }
    }

    /// "1 attempt", "2 attempts".
    public static func attempts(_ count: Int) -> String { Self.count(count, "attempt") }

    /// "1 frame", "2 frames", "0 frames": a count with its noun, plural unless exactly one.
    public static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// Whole seconds left, rounded up: a countdown never shows 0 before it ends.
    public static func seconds(_ remaining: Double) -> Int { max(1, Int(remaining.rounded(.up))) }

    public static let tutorialTips = [
        "Face the camera with your whole face inside the oval",
        "Keep a neutral expression, eyes open, mouth closed",
        "Find even light: face a window or a lamp, not a bright background",
        "Uncover your face: no hat, mask or sunglasses (clear glasses are fine)",
    ]

    public static let helpLines = [
        "facecap takes one photo of your face, guided live.",
        "",
        "Follow the message under the preview until the oval turns green;",
        "hold still and the photo is taken by itself.",
        "Directions are your own, as in a mirror: \"Move left\" means to your left.",
        "If it does not work out, SPACE takes the photo yourself once offered.",
        "",
        "Keys:  SPACE take the photo (when offered)   Enter/r continue or retry",
        "       q or Esc quit   ? close this help",
    ]
}
