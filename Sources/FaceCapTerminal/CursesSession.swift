// The terminal as curses holds it: started, given back to the shell and taken again, ended.

internal import CCurses

#if canImport(Glibc)
import Glibc
#endif

/// ncurses' screen on the terminal (`CursesFrontEnd` draws on it): started on the first terminfo entry that can
/// address the cursor, in the key modes the wizard reads with; given back to the shell around a stop and taken
/// again; ended once.
final class CursesSession {
    enum State { case active, suspended, closed }

    private(set) var state = State.active
    /// The terminfo entry in use.
    let terminalType: String
    private var screen: OpaquePointer?

    /// Starts curses writing to `output` and reading `input` (nil: standard output and input) with the first of
    /// `candidates` ncurses knows; `term` is the TERM the error names.
    init(
        candidates: [String], term: String, output: UnsafeMutablePointer<FILE>?,
        input: UnsafeMutablePointer<FILE>?
    ) throws(TerminalError) {
        // The real window size wins over LINES/COLUMNS a shell may have exported.
        use_tioctl(true)
        var chosen = term
        var opened: OpaquePointer?
        for name in candidates {
            opened = ccurses_newterm(name, output, input)
            if opened != nil {
                chosen = name
                break
            }
        }
        guard let opened else { throw .unusableTerminal(term: term) }
        terminalType = chosen
        screen = opened
        ccurses_mark_active(1)
        let window = ccurses_stdscr()
        // A terminal that cannot move the cursor cannot show a screen.
        if tigetstr("cup").map({ Int(bitPattern: $0) <= 0 }) ?? true {
            endwin()
            delscreen(opened)
            ccurses_mark_active(0)
            throw .unusableTerminal(term: term)
        }
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)
        // A lone ESC is a key. ncurses waits this long after an ESC for the rest of a sequence: a key's
        // sequence comes at once, but a terminal's late reply over a slow link can be split after its ESC,
        // and its rest must not be read as keys (KeyDecoder), so the wait is longer than a key needs.
        set_escdelay(150)
        curs_set(0)
        // The cursor is hidden, so ncurses need not move it back after each update.
        leaveok(window, true)
    }

    /// Gives the terminal back to the shell (SIGTSTP).
    func suspend() {
        guard state == .active else { return }
        endwin()
        state = .suspended
    }

    /// Takes the terminal again and has the next update repaint every cell (SIGCONT: the shell drew over it).
    func resume() {
        guard state == .suspended else { return }
        state = .active
        clearok(ccurses_curscr(), true)
        refresh()
    }

    /// Ends curses and restores the terminal; safe to call more than once.
    func close() {
        guard state != .closed else { return }
        if state == .active { endwin() }
        state = .closed
        if let screen { delscreen(screen) }
        screen = nil
        ccurses_mark_active(0)
    }
}
