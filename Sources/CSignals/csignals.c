/*
 * The signal handlers and the self-pipe (see csignals.h).
 */
#define _GNU_SOURCE             /* pipe2 */
#include "csignals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Written only by handlers and reset; read by the loop. sig_atomic_t: the one type a handler may store. */
static volatile sig_atomic_t stop_signal = 0;
/* The pipe's ends; set once (before any handler that reads them is installed), then only read. */
static volatile sig_atomic_t pipe_read = -1;
static volatile sig_atomic_t pipe_write = -1;
static pthread_once_t pipe_once = PTHREAD_ONCE_INIT;
static int pipe_errno = 0;

/* SIGQUIT (the quit key, Ctrl and backslash) too: by default it would end the process with a backtrace
   over the full screen. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static const int terminal_signals[] = {SIGWINCH, SIGTSTP, SIGCONT};
enum { STOP_COUNT = sizeof stop_signals / sizeof stop_signals[0] };
enum { TERMINAL_COUNT = sizeof terminal_signals / sizeof terminal_signals[0] };

static void on_signal(int number) {
    int saved = errno;          /* write() may change errno under the code this interrupted */
    if ((number == SIGINT || number == SIGTERM || number == SIGHUP || number == SIGQUIT) && stop_signal == 0)
        stop_signal = number;
    if (pipe_write >= 0) {
        unsigned char byte = (unsigned char)number;
        /* Non-blocking: with the pipe full the byte is dropped, and the loop already has bytes to wake it. */
        ssize_t ignored = write(pipe_write, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

static void make_pipe(void) {
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) {
        pipe_errno = errno;
        return;
    }
    pipe_read = fds[0];
    pipe_write = fds[1];
}

static void set_handler(int number, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;        /* no SA_RESTART: a poll in progress returns EINTR at once */
    sigaction(number, &action, NULL);
}

static int install(int with_terminal) {
    pthread_once(&pipe_once, make_pipe);
    for (int i = 0; i < STOP_COUNT; i++) set_handler(stop_signals[i], on_signal);
    /* A reader that goes away (`facecap --plain | head -1`) is an EPIPE the writer handles, not a death
       that leaves the terminal raw and the photo unsaved. */
    set_handler(SIGPIPE, SIG_IGN);
    if (with_terminal) {
        for (int i = 0; i < TERMINAL_COUNT; i++) set_handler(terminal_signals[i], on_signal);
    }
    if (pipe_read < 0) {
        errno = pipe_errno;
        return -1;
    }
    return 0;
}

int csignals_install_stop(void) { return install(0); }

int csignals_install_all(void) { return install(1); }

int csignals_fd(void) { return pipe_read; }

int csignals_stop_signal(void) { return stop_signal; }

void csignals_reset_stop_signal(void) { stop_signal = 0; }

void csignals_restore_defaults(void) {
    for (int i = 0; i < STOP_COUNT; i++) set_handler(stop_signals[i], SIG_DFL);
    set_handler(SIGPIPE, SIG_DFL);
    for (int i = 0; i < TERMINAL_COUNT; i++) set_handler(terminal_signals[i], SIG_DFL);
}

void csignals_suspend_self(void) {
    set_handler(SIGTSTP, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGTSTP);             /* the process stops here until SIGCONT */
    set_handler(SIGTSTP, on_signal);
}
