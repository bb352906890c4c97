/// A key the person pressed, as the flow understands it (front ends map their own input to these).
public enum Key: Equatable, Sendable {
    case space
    case enter
    case escape
    /// Backspace (or Delete as terminals send it): removes the last character typed into a text field.
    case backspace
    /// Any other printable key, e.g. "q", "r", "d", "?".
    case character(Character)
}
