#ifndef CCURSES_H
#define CCURSES_H
/*
 * ncursesw for Swift: the few things the Clang importer cannot see or Swift 6 cannot touch.
 *
 * SwiftPM drops pkg-config's -D flags for ncursesw, so the wide-character API (cchar_t, setcchar,
 * get_wch, mvwaddnwstr) would be invisible: define what ncursesw.pc asks for before the include.
 */
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <wchar.h>
#include <fcntl.h>
#include <unistd.h>
#include <ncurses.h>
#include <zlib.h>

/* ---- Globals (Swift 6 refuses shared mutable C globals; libtinfo owns these) --------------- */

/* stdscr: a global in libtinfo. */
static inline WINDOW *ccurses_stdscr(void) { return stdscr; }
/* curscr: a global in libtinfo; clearok on it forces a full repaint after the shell drew over us. */
static inline WINDOW *ccurses_curscr(void) { return curscr; }
/* LINES: a global in libtinfo, updated by resizeterm. */
static inline int ccurses_lines(void) { return LINES; }
/* COLS: a global in libtinfo, updated by resizeterm. */
static inline int ccurses_cols(void) { return COLS; }
/* COLORS: a global, set by start_color from the terminfo `colors` capability. */
static inline int ccurses_colors(void) { return COLORS; }
/* COLOR_PAIRS: a global, set by start_color from the terminfo `pairs` capability. */
static inline int ccurses_color_pairs(void) { return COLOR_PAIRS; }

/* ---- Attributes (A_* are NCURSES_BITS shifts, which Swift cannot import) ------------------- */

static const attr_t CCURSES_A_NORMAL = A_NORMAL;
static const attr_t CCURSES_A_BOLD = A_BOLD;
static const attr_t CCURSES_A_DIM = A_DIM;
static const attr_t CCURSES_A_REVERSE = A_REVERSE;
static const attr_t CCURSES_A_UNDERLINE = A_UNDERLINE;

/* ---- Start-up ------------------------------------------------------------------------------ */

/* newterm needs the stdout/stdin FILE globals, which Swift 6 cannot touch; NULL files mean those. */
static inline SCREEN *ccurses_newterm(const char *type, FILE *out, FILE *in) {
    return newterm(type, out ? out : stdout, in ? in : stdin);
}

/* nl_langinfo(CODESET) after setlocale: whether the locale can show UTF-8 (half blocks, frames). */
static inline int ccurses_locale_is_utf8(void) {
    const char *set = nl_langinfo(CODESET);
    return set != NULL && (strcasecmp(set, "UTF-8") == 0 || strcasecmp(set, "utf8") == 0);
}

/* TIOCGWINSZ and struct winsize together: the real size after SIGWINCH (LINES/COLS lag behind). */
static inline int ccurses_terminal_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

/* ---- Terminal graphics (kitty, sixel) ---------------------------------------------------------- */

/* TIOCGWINSZ's pixel fields: the text area in pixels (0 when the terminal does not say). */
static inline int ccurses_terminal_pixels(int fd, int *width, int *height) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_xpixel == 0 || size.ws_ypixel == 0) return -1;
    *width = size.ws_xpixel;
    *height = size.ws_ypixel;
    return 0;
}

/* A new pseudo-terminal through /dev/ptmx (TIOCSPTLCK, TIOCGPTN: macros Swift cannot import): the master's
 * descriptor, the slave's number in `number`; -1 on failure. The tests' scripted terminals answer through it. */
static inline int ccurses_open_pty(int *number) {
    int master = open("/dev/ptmx", O_RDWR | O_NOCTTY), unlock = 0;
    if (master < 0) return -1;
    if (ioctl(master, TIOCSPTLCK, &unlock) != 0 || ioctl(master, TIOCGPTN, number) != 0) {
        close(master);
        return -1;
    }
    return master;
}

/* zlib's compress2 (kitty's o=z payloads): the bytes written, or 0 when `capacity` is too small. */
static inline size_t ccurses_deflate(const unsigned char *source, size_t count, unsigned char *target,
                                     size_t capacity, int level) {
    uLongf written = (uLongf)capacity;
    return compress2(target, &written, source, (uLong)count, level) == Z_OK ? (size_t)written : 0;
}

/* compressBound: the room compress2 may need for `count` bytes. */
static inline size_t ccurses_deflate_bound(size_t count) { return (size_t)compressBound((uLong)count); }

/* ---- Output ---------------------------------------------------------------------------------- */

/* One wide character with an extended pair number: setcchar takes pairs above 32767 only through
   its opts pointer, and COLOR_PAIR() holds only 8 bits. */
static inline int ccurses_put_cell(WINDOW *window, int y, int x, wchar_t character, attr_t attributes, int pair) {
    wchar_t text[2] = { character, 0 };
    cchar_t cell;
    if (setcchar(&cell, text, attributes, 0, &pair) == ERR) return ERR;
    return mvwadd_wch(window, y, x, &cell);
}

/* A run of wide characters in one style; wattr_set likewise takes an extended pair through opts. */
static inline int ccurses_put_text(WINDOW *window, int y, int x, const wchar_t *text, int count,
                                   attr_t attributes, int pair) {
    wattr_set(window, attributes, 0, &pair);
    int result = mvwaddnwstr(window, y, x, text, count);
    int none = 0;
    wattr_set(window, A_NORMAL, 0, &none);
    return result;
}

/* ---- Restoring the terminal ------------------------------------------------------------------- */

/* Marks curses as active and, once per process, registers an atexit hook that calls endwin if it
   still is: an exit() from any error path then leaves a usable terminal. */
void ccurses_mark_active(int active);

#endif
