/*
 * Signals as data: handlers that only record what arrived, for a poll() loop to act on.
 *
 * Every handler is async-signal-safe: it stores the first stop request in a flag and writes the signal
 * number as one byte into a self-pipe whose read end the run loop polls next to the terminal and the
 * camera. Handlers are installed without SA_RESTART, so a blocking poll or read returns EINTR at once.
 */
#ifndef CSIGNALS_H
#define CSIGNALS_H

/* Also the glibc allocator call Swift's Glibc module lacks: malloc_trim, for
 * FaceCapIO's MemoryRelease (the wizard's resident memory, SPEC §10). */
#include <malloc.h>

/**
 * Handles SIGINT, SIGTERM and SIGHUP (stop requests): what a command without a terminal UI needs, so a
 * Ctrl-Z still suspends it the default way. Creates the self-pipe on first use. Returns 0, or -1 with
 * errno when the pipe cannot be made (the stop flag still works then).
 */
int csignals_install_stop(void);

/** csignals_install_stop plus SIGWINCH, SIGTSTP and SIGCONT: what a full-screen UI needs. */
int csignals_install_all(void);

/** The self-pipe's read end (non-blocking, close-on-exec), or -1 before a successful install. */
int csignals_fd(void);

/** The first stop signal (SIGINT, SIGTERM or SIGHUP) since the last reset, or 0. */
int csignals_stop_signal(void);

/** Clears the stop flag (tests, and a new session). */
void csignals_reset_stop_signal(void);

/** Puts every signal handled here back to SIG_DFL (the pipe stays open for a later install). */
void csignals_restore_defaults(void);

/**
 * Stops this process the way the terminal's suspend key would: SIGTSTP back to SIG_DFL, unblocked,
 * raised; returns once the process is continued (SIGCONT) and then handles SIGTSTP again. The caller
 * restores the terminal before and redraws after.
 */
void csignals_suspend_self(void);

/**
 * Handles the fatal signals (SIGILL and SIGTRAP: a Swift trap on x86-64; SIGSEGV, SIGBUS, SIGFPE, SIGABRT) in any
 * thread, on a stack of its own: the first one calls `hook` (which must be async-signal-safe: facecap's writes back
 * the camera controls it changed), puts back the terminal given to csignals_fatal_terminal, calls the handler that
 * was there before (the Swift runtime's backtracer, when on), then ends the process by the same signal with its
 * default action, so the exit status still names it. Returns 0, or -1 with errno.
 */
int csignals_install_fatal(void (*hook)(void));

/**
 * Keeps `fd`'s terminal settings as they are now (call it before the full screen starts) to put back, with the
 * alternate screen left and the cursor shown, if a fatal signal ends the process; -1: no terminal to put back (the
 * full screen ended normally).
 */
void csignals_fatal_terminal(int fd);

#endif
