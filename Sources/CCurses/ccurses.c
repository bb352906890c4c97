#include "ccurses.h"
#include <stdlib.h>

/* Only the main thread starts and ends curses; the flag is read again only at exit. */
static int active = 0;
static int registered = 0;

static void restore_at_exit(void) {
    if (active) {
        active = 0;
        endwin();
    }
}

void ccurses_mark_active(int value) {
    active = value;
    if (value && !registered) {
        registered = 1;
        atexit(restore_at_exit);
    }
}
