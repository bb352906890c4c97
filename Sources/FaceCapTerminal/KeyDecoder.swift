import CCurses
import FaceCapCore

/// Maps what ncurses' `get_wch` returns to the flow's keys.
enum KeyDecoder {
    /// A character `get_wch` returned with `OK`: Enter (CR or LF, since `nonl` passes CR through),
    /// SPACE, a lone ESC (ESCDELAY separates it from escape sequences), or a printable key; other
    /// control characters mean nothing to the wizard.
    static func key(character: UInt32) -> Key? {
        switch character {
        case 10, 13: return .enter
        case 32: return .space
        case 27: return .escape
        // ^H and DEL: what the Backspace key sends, by terminal.
        case 8, 127: return .backspace
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(character) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// A function-key code `get_wch` returned with `KEY_CODE_YES`; KEY_RESIZE is handled by the caller.
    static func key(code: Int32) -> Key? {
        switch code {
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        default: return nil
        }
    }
}
