/// What the last refusal asks of every capture until the next verdict (`Analyzer.reset(mustClear:awaitChange:)`):
/// the measures the photo was refused for clear by a margin, or, when the refusal named none, the picture changes
/// visibly first. Open (asks nothing) at the start and after a pass.
public struct CaptureGate: Sendable, Hashable {
    /// The guidance codes among the refusal's reasons (`Analyzer.mustClear`): each must clear its limit by a
    /// margin before auto capture.
    public var mustClear: Set<GuidanceCode>
    /// The refusal named no measure (`Analyzer.awaitsChange`): auto capture waits for a visible change.
    public var awaitChange: Bool

    public init(mustClear: Set<GuidanceCode> = [], awaitChange: Bool = false) {
        self.mustClear = mustClear
        self.awaitChange = awaitChange
    }

    /// The gate a refusal for `reasons` (the verdict's codes) sets.
    public init(refusedFor reasons: [String]) {
        self.init(mustClear: Analyzer.mustClear(reasons: reasons), awaitChange: Analyzer.awaitsChange(reasons: reasons))
    }
}
