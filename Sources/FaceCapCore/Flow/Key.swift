/// A key the person pressed, as the flow understands it (front ends map their own input to these).
public enum Key: Equatable, Sendable {
    case space
    case enter
    case escape
    /// Any other printable key, e.g. "q", "r", "d", "?".
    case character(Character)
}
