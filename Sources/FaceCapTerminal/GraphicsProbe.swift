internal import CCurses
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// A way to put real pixels on a terminal.
public enum GraphicsProtocol: String, Equatable, Sendable {
    /// The kitty graphics protocol (APC `_G` commands, base64 payloads); kitty and terminals that copy it.
    case kitty
    /// DEC sixel (DCS `q` strings); xterm as a VT340, mlterm, foot, WezTerm, Windows Terminal.
    case sixel
}

/// Which graphics the terminal speaks, from its answers to the start-up queries (`TerminalProbe`): never
/// guessed from TERM, which tmux, ssh and emulators that copy xterm's name all get wrong.
enum GraphicsProbe {
    /// kitty's query action (a 1×1 image that is checked, never stored), XTSMGRAPHICS (sixel geometry) and
    /// the cell size in pixels; `TerminalProbe` sends them with its device-attributes request after them.
    static let queries: [UInt8] = Array(
        ("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
            + "\u{1B}[?2;1;0S" + "\u{1B}[16t").utf8)
    /// The protocol for `mode`, given the terminal's answers (nil: it did not answer, or is no terminal).
    /// Forced modes are taken at their word; `auto` prefers kitty (true colour, scaled by the terminal)
    /// and takes sixel only with a known cell size (its pixels must match the cells).
    static func choose(_ mode: GraphicsMode, answers: TerminalAnswers?, cellSize: (width: Int, height: Int)?)
        -> GraphicsProtocol?
    {
        switch mode {
        case .cells: return nil
        case .kitty: return .kitty
        case .sixel: return .sixel
        case .auto:
            guard let answers else { return nil }
            if answers.kitty { return .kitty }
            if answers.sixel, cellSize != nil { return .sixel }
            return nil
        }
    }

    /// One cell in pixels: the window's pixel size over its cells (TIOCGWINSZ), else the terminal's answer.
    static func cellSize(descriptor: Int32, columns: Int, rows: Int, answers: TerminalAnswers?)
        -> (width: Int, height: Int)?
    {
        var width: Int32 = 0, height: Int32 = 0
        if columns > 0, rows > 0, ccurses_terminal_pixels(descriptor, &width, &height) == 0,
            Int(width) >= columns, Int(height) >= rows
        {
            return (Int(width) / columns, Int(height) / rows)
        }
        return answers?.cellSize
    }
}
