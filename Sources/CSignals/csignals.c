/*
 * The signal handlers and the self-pipe (see csignals.h).
 */
#define _GNU_SOURCE             /* pipe2 */
#include "csignals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <termios.h>
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

/* ---- Fatal signals ---------------------------------------------------------------------------- */

/* A Swift trap is SIGILL (ud2) or SIGTRAP on x86-64; the others are the C library's and the kernel's. */
static const int fatal_signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
enum { FATAL_COUNT = sizeof fatal_signals / sizeof fatal_signals[0] };
/* What each fatal signal did before (the Swift runtime's backtracer, when it is on): called after ours. */
static struct sigaction fatal_previous[FATAL_COUNT];
static void (*_Atomic fatal_hook)(void) = NULL;
static atomic_int fatal_entered = 0;
/* The terminal to put back: its descriptor (-1: none) and its settings from before the full screen. */
static atomic_int fatal_terminal_fd = -1;
static struct termios fatal_terminal_settings;
/* A stack of its own for the handler, so a stack overflow (SIGSEGV on the guard page) still runs it. */
static char fatal_stack[64 * 1024];

static void restore_terminal(void) {
    int fd = atomic_load(&fatal_terminal_fd);
    if (fd < 0) return;
    /* Leave the alternate screen, show the cursor, plain attributes, keypad and mouse reports off: what
       endwin() would send on this kind of terminal, written in one call. */
    static const char reset[] = "\033[?1000l\033[?1006l\033[0m\033[?25h\033[?1l\033>\033[?1049l\r\n";
    ssize_t ignored = write(fd, reset, sizeof reset - 1);
    (void)ignored;
    tcsetattr(fd, TCSANOW, &fatal_terminal_settings);
}

static void on_fatal(int number, siginfo_t *info, void *context) {
    int saved = errno;
    int index = 0;
    while (index < FATAL_COUNT - 1 && fatal_signals[index] != number) index++;
    /* The first fatal signal puts things back; one that comes while that runs (a fault in a hook) only ends. */
    if (atomic_exchange(&fatal_entered, 1) == 0) {
        /* The terminal first: it cannot fault (a write and tcsetattr on static data), while the hook's ioctls
         * might, and a fault there would end the process with the screen still raw. */
        restore_terminal();
        void (*hook)(void) = atomic_load(&fatal_hook);
        if (hook) hook();
        /* Then what was there before: the Swift runtime's backtracer prints its report (now on a normal screen). */
        struct sigaction *previous = &fatal_previous[index];
        if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction) {
            previous->sa_sigaction(number, info, context);
        } else if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL
                   && previous->sa_handler != SIG_IGN) {
            previous->sa_handler(number);
        }
    }
    /* The default action, so the exit status still says which signal ended the process. */
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, number);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(number);
    errno = saved;
}

int csignals_install_fatal(void (*hook)(void)) {
    atomic_store(&fatal_hook, hook);
    stack_t stack;
    memset(&stack, 0, sizeof stack);
    stack.ss_sp = fatal_stack;
    stack.ss_size = sizeof fatal_stack;
    stack_t current;
    /* Only where the thread has none yet (the Swift runtime may have given it one). */
    if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) sigaltstack(&stack, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fatal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (int i = 0; i < FATAL_COUNT; i++) {
        struct sigaction previous;
        if (sigaction(fatal_signals[i], NULL, &previous) != 0) return -1;
        /* Installed twice (a second session): what was there before the first stays the one to call. */
        if (!((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction == on_fatal)) fatal_previous[i] = previous;
        if (sigaction(fatal_signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

void csignals_fatal_terminal(int fd) {
    if (fd >= 0 && tcgetattr(fd, &fatal_terminal_settings) != 0) fd = -1;
    atomic_store(&fatal_terminal_fd, fd);
}
