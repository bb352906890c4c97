internal import CCurses
import FaceCapCore

/// Maps what ncurses' `get_wch` returns to the flow's keys, and swallows the terminal's own replies.
///
/// The start-up queries (`TerminalProbe`) wait a quarter of a second; over a slow link a reply can come
/// later, once curses reads the input. ncurses knows no such sequence, so it hands it over a character at a
/// time: ESC, then `]11;rgb:…` — letters that would act as keys (r, q, c, d…). A decoder keeps what it has
/// seen of an escape sequence across reads and drops every sequence a terminal sends on its own: control
/// strings (OSC `ESC ]`, DCS `ESC P`, APC `ESC _`, PM `ESC ^`, SOS `ESC X`, to BEL or ST), control sequences
/// (`ESC [` to its final byte: device attributes `CSI ? … c`, `CSI … t`, XTSMGRAPHICS), SS3 (`ESC O` and one
/// character) and their 8-bit forms. An ESC that nothing follows within ncurses' ESCDELAY is the Esc key; an
/// ESC before any other character is Esc and that key (Alt+key, as before).
struct KeyDecoder {
    private enum State: Equatable {
        /// Between sequences: characters are keys.
        case ground
        /// An ESC was read; what follows decides (at the end of what is waiting, it was the Esc key).
        case escape
        /// In a control sequence, up to its final byte.
        case controlSequence
        /// In a control string, up to BEL or ST.
        case controlString
        /// An ESC inside a control string: `\` ends the string.
        case stringEscape
        /// After SS3 (`ESC O`): one more character.
        case singleShift
    }

    private var state = State.ground
    /// Whether `get_wch` decodes UTF-8 (a UTF-8 locale): only then is a character 0x80–0x9F a C1 control a
    /// terminal sent. In any other locale it hands over raw bytes, and those are the continuation bytes of
    /// what the person typed (ś is C5 9B), never the start of a reply.
    var eightBitControls = true
    /// When the last character of an unfinished sequence came.
    private var lastAt = -Double.infinity

    /// A sequence whose next character does not come within this many seconds is given up, so that keys
    /// typed later are keys again: a terminal sends a reply in one write, and even split across a slow
    /// link's packets its parts come much closer together than this.
    static let sequenceGap = 0.5

    /// Whether a sequence has begun and not ended (tests).
    var inSequence: Bool { state != .ground }

    /// The keys a character `get_wch` returned with `OK` gives (none while it belongs to a terminal's reply;
    /// an Esc held from before, and this key, after an ESC that began no sequence).
    mutating func decode(character: UInt32, at now: Double) -> [Key] {
        if state != .ground && state != .escape && now - lastAt > Self.sequenceGap { state = .ground }
        lastAt = now
        switch state {
        case .ground:
            switch character {
            case 27:
                state = .escape
                return []
            // The 8-bit forms of CSI, DCS, SOS, OSC, PM and APC (a terminal that sends C1 controls as UTF-8).
            case 0x9B where eightBitControls:
                state = .controlSequence
                return []
            case 0x90 where eightBitControls, 0x98 where eightBitControls, 0x9D...0x9F where eightBitControls:
                state = .controlString
                return []
            default:
                return Self.key(character: character).map { [$0] } ?? []
            }
        case .escape:
            state = .ground
            switch character {
            case UInt32(UInt8(ascii: "[")): state = .controlSequence
            case UInt32(UInt8(ascii: "]")), UInt32(UInt8(ascii: "P")), UInt32(UInt8(ascii: "_")),
                UInt32(UInt8(ascii: "^")), UInt32(UInt8(ascii: "X")):
                state = .controlString
            case UInt32(UInt8(ascii: "O")): state = .singleShift
            // ST with nothing open: the end of a string whose start came before a gap, or was cut.
            case UInt32(UInt8(ascii: "\\")): break
            case 27:
                state = .escape
                return [.escape]
            default:
                return [.escape] + (Self.key(character: character).map { [$0] } ?? [])
            }
            return []
        case .controlSequence:
            switch character {
            case 0x20...0x3F: break
            // The final byte ends it.
            case 0x40...0x7E: state = .ground
            case 27: state = .escape
            // Anything else cannot be in a control sequence (CAN and SUB cancel it): the sequence is over.
            default:
                state = .ground
                return Self.key(character: character).map { [$0] } ?? []
            }
            return []
        case .controlString:
            switch character {
            case 0x07, 0x9C, 0x18, 0x1A: state = .ground
            case 27: state = .stringEscape
            default: break
            }
            return []
        case .stringEscape:
            // ST (ESC \) ends the string; another ESC sequence after an unterminated string begins anew.
            state = .ground
            if character == UInt32(UInt8(ascii: "\\")) { return [] }
            state = .escape
            return decode(character: character, at: now)
        case .singleShift:
            state = .ground
            return []
        }
    }

    /// The keys a function-key code `get_wch` returned with `KEY_CODE_YES` gives (KEY_RESIZE is the
    /// caller's); inside a control string a code is part of the reply.
    mutating func decode(code: Int32, at now: Double) -> [Key] {
        switch state {
        case .controlString, .stringEscape:
            if now - lastAt <= Self.sequenceGap {
                lastAt = now
                return []
            }
            state = .ground
        case .escape:
            state = .ground
            return [.escape] + (Self.key(code: code).map { [$0] } ?? [])
        case .controlSequence, .singleShift:
            state = .ground
        case .ground:
            break
        }
        return Self.key(code: code).map { [$0] } ?? []
    }

    /// Nothing more is waiting: an ESC that nothing followed (ncurses waited ESCDELAY for more) is the Esc key.
    mutating func endOfInput() -> [Key] {
        guard state == .escape else { return [] }
        state = .ground
        return [.escape]
    }

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
        case 0..<32, 0x80..<0xA0: return nil
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
