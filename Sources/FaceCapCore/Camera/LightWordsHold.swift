/// "Too dark" and "Too bright" wait for the camera: while `ExposureSteering` is still turning the camera toward the
/// face (brightening a dark face, darkening a bright one, with something left to turn), and while the camera's own
/// auto exposure settles after it opened, asking the person for light would be asking them to fix what the camera
/// is about to fix, so the word is held back: taken out of the primary message, the hints and the graded words. The
/// primary goes to the next hint or active code, or to "Hold still" (the camera is adjusting; a steady face is what
/// helps it). The analyzer's capture decision is untouched: a face too dark is still not photographed.
///
/// Only the face's light is held (a frame too dark to find a face in is said at once), and only the word of the
/// direction the camera steers (a face the camera brightens that reads burnt out still hears "Too bright"). A word
/// held until the face came into range stays held while only the message's persistence would keep it on screen.
/// Bounded, counted in analysed frames, never in time: after `maxHeldFrames` frames with a word held, since the
/// camera was opened, nothing more is held, so a camera that never converges cannot keep the person in the dark.
/// A camera that has nothing to turn is `exhausted` at once, and a clip has no camera: nothing is held for either.
public struct LightWordsHold: Equatable, Sendable {
    /// Analysed frames with a word held after which none is held any more: 3 s at the wizard's 15 analysed frames
    /// a second, where the steering brings a backlit face into range within 2 s when the controls allow it.
    public var maxHeldFrames: Int
    /// Analysed frames a word was held back on since the last `reset`.
    public private(set) var heldFrames = 0
    /// The words held on the last frame.
    private var lastHeld: Set<GuidanceCode> = []

    public init(maxHeldFrames: Int = 45) {
        self.maxHeldFrames = maxHeldFrames
    }

    /// Starts over (the camera opened again).
    public mutating func reset() {
        heldFrames = 0
        lastHeld = []
    }

    /// Both light words: while the camera's own auto exposure settles after it opened (`Frame.isWarmUp`), on a
    /// camera facecap can steer, neither is asked of the person yet.
    public static let settling: Set<GuidanceCode> = [.tooDark, .tooBright]

    /// The light word the camera is working on while steering in `phase` and not `exhausted`.
    public static func codes(phase: ExposureSteering.Phase, exhausted: Bool) -> Set<GuidanceCode> {
        guard !exhausted else { return [] }
        switch phase {
        case .idle: return []
        case .brightening: return [.tooDark]
        case .darkening: return [.tooBright]
        }
    }

    /// One analysed frame's guidance with the words in `waiting` (the camera's work, from `codes` or `settling`)
    /// held back while the face is found, and a word held on the frame before that the analyzer no longer finds
    /// (`active`: only the message's persistence keeps it on screen) held as well; counts the frame when a word
    /// was held. The primary goes to the next hint, else to the next active code (`ready` when nothing else is
    /// wrong), else "Hold still".
    public mutating func apply(
        _ guidance: FrameGuidance, active: [GuidanceCode],
        waiting: Set<GuidanceCode>
    ) -> FrameGuidance {
        guard heldFrames < maxHeldFrames else {
            lastHeld = []
            return guidance
        }
        var held = guidance.hasFace ? waiting.intersection(Self.settling) : []
        held.formUnion(lastHeld.subtracting(active))
        held = held.filter { guidance.primary == $0 || guidance.hints.contains($0) }
        lastHeld = held
        guard !held.isEmpty else { return guidance }
        heldFrames += 1
        var out = guidance
        out.hints.removeAll { held.contains($0) }
        out.slight.subtract(held)
        if held.contains(out.primary) {
            if !out.hints.isEmpty {
                out.primary = out.hints.removeFirst()
            } else {
                out.primary = active.first { !held.contains($0) } ?? .holdStill
            }
        }
        return out
    }
}
