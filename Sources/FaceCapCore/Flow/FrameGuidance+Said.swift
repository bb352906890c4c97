extension FrameGuidance {
    /// The guidance as the person is told it: never a problem named while the Steady bar fills, never
    /// "Perfect" beside a hint.
    ///
    /// The analyzer's main message lags its measures (a new message must persist 500 ms and the old one stays
    /// 800 ms), while the stability window fills from the first frame with nothing wrong. So "Move closer" could
    /// stay up while the bar filled, and "Perfect — hold still" stay up beside a problem that had just settled
    /// as a hint. The stability says what is true now: while it fills nothing is wrong, so the message is
    /// `ready` and there are no hints; with the window empty, a `ready` that only lags gives way to the first
    /// hint. The events and both front ends read this, so they say the same.
    public var said: FrameGuidance {
        var said = self
        if stability > 0 {
            said.primary = .ready
            said.hints = []
        } else if primary == .ready, let first = hints.first {
            said.primary = first
            said.hints = Array(hints.dropFirst())
        }
        said.hints.removeAll { $0 == said.primary || $0 == .ready }
        return said
    }

    /// Those of the primary message and the hints said with their graded words, in the order they are said.
    public var saidSlight: [GuidanceCode] {
        ([primary] + hints).filter { slight.contains($0) && Messages.slightGuidanceID($0) != nil }
    }
}
