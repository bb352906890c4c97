/// What the person needs to hear, as stable identifiers (events, JSON output, server replies).
///
/// The cases are declared in priority order (SPEC §4): the first active one is the primary message.
/// Directions are the person's own, as in a mirror: in the unmirrored camera image a face left of the
/// oval yields `moveLeft`, a face above it `moveDown`.
public enum GuidanceCode: String, Sendable, CaseIterable, Comparable, Codable {
    case noFace
    case multipleFaces
    case faceNotVisible
    /// Something covers the face: a mask, a hand, a scarf, dark sunglasses.
    case faceCovered
    case tooDark
    case tooBright
    case moveCloser
    case moveBack
    case moveLeft
    case moveRight
    case moveUp
    case moveDown
    case lookStraight
    case keepHeadLevel
    case unevenLight
    case eyesClosed
    case blurry
    case holdStill
    /// Nothing is wrong.
    case ready

    /// Position in the priority order; lower wins.
    public var priority: Int { Self.allCases.firstIndex(of: self)! }

    /// A direction or position word: the person moves when they read it.
    public var isDirection: Bool {
        switch self {
        case .moveCloser, .moveBack, .moveLeft, .moveRight, .moveUp, .moveDown: true
        default: false
        }
    }

    /// A word that is wrong the moment its condition clears (a direction, `holdStill`, and `blurry`, which also
    /// tells the person to hold still): it leaves the screen on that frame, without the persistence and minimum
    /// display that keep other messages from flickering; and it takes a cleared word's place at once.
    public var withdrawnWhenCleared: Bool { isDirection || self == .holdStill || self == .blurry }

    public static func < (lhs: GuidanceCode, rhs: GuidanceCode) -> Bool { lhs.priority < rhs.priority }
}
