/*
 * The controls facecap changed, kept where a fatal-signal handler can write them back (see cv4l2.h).
 *
 * Two fixed slots and a published index: the writer (the thread that changes the controls; one per run) fills the
 * slot that is not published, bumping that slot's sequence number to odd before and to even after, then publishes
 * its index. The reader (a handler, in any thread, at any moment) copies the published slot and keeps the copy only
 * when its sequence number was even and the same before and after: never a half-written set. Nothing here takes a
 * lock or allocates, and the restore makes only ioctl calls, which are async-signal-safe.
 */
#include "cv4l2.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>

typedef struct saved_slot {
    atomic_uint sequence;
    int count;
    cv4l2_saved_control controls[CV4L2_SAVED_CONTROLS_MAX];
} saved_slot;

static saved_slot slots[2];
/* The slot a reader takes: 0 or 1; -1 before the first publish. */
static atomic_int published = -1;
/* Set by the first restore: a second fatal signal (or the restore called twice) writes nothing again. */
static atomic_int restored = 0;

int cv4l2_saved_controls_publish(const cv4l2_saved_control *controls, int count) {
    if (count < 0) count = 0;
    int kept = count > CV4L2_SAVED_CONTROLS_MAX ? CV4L2_SAVED_CONTROLS_MAX : count;
    int current = atomic_load_explicit(&published, memory_order_acquire);
    saved_slot *slot = &slots[current == 0 ? 1 : 0];
    atomic_fetch_add_explicit(&slot->sequence, 1, memory_order_acq_rel);   /* odd: being written */
    atomic_thread_fence(memory_order_release);
    slot->count = kept;
    if (kept) memcpy(slot->controls, controls, sizeof *controls * (size_t)kept);
    atomic_fetch_add_explicit(&slot->sequence, 1, memory_order_release);   /* even: whole */
    atomic_store_explicit(&published, current == 0 ? 1 : 0, memory_order_release);
    atomic_store_explicit(&restored, 0, memory_order_release);
    return kept;
}

/* A whole copy of the published set into `copy`; its count, or -1 when none could be read whole. */
static int read_published(saved_slot *copy) {
    for (int attempt = 0; attempt < 8; attempt++) {
        int index = atomic_load_explicit(&published, memory_order_acquire);
        if (index < 0) return 0;
        saved_slot *slot = &slots[index];
        unsigned before = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        if (before & 1) continue;
        int count = slot->count;
        if (count < 0 || count > CV4L2_SAVED_CONTROLS_MAX) continue;
        memcpy(copy->controls, slot->controls, sizeof slot->controls[0] * (size_t)count);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&slot->sequence, memory_order_relaxed) == before) return count;
    }
    return -1;
}

int cv4l2_saved_controls_count(void) {
    static saved_slot copy;     /* tests only: not called from a handler */
    return read_published(&copy);
}

static int call_ioctl(const cv4l2_saved_control *control, unsigned long request, void *argument) {
    for (int attempt = 0; attempt < 16; attempt++) {
        int result = control->ioctl ? control->ioctl(control->context, control->fd, request, argument)
                                    : ioctl(control->fd, request, argument);
        if (result != -1) return 0;
        if (errno != EINTR) return errno ? errno : EIO;
    }
    return EINTR;
}

static int rect_call(const cv4l2_saved_control *control, unsigned long request, struct v4l2_rect *rect) {
    struct v4l2_ext_control one;
    memset(&one, 0, sizeof one);
    one.id = control->id;
    one.size = sizeof *rect;
    one.ptr = rect;
    struct v4l2_ext_controls controls;
    memset(&controls, 0, sizeof controls);
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &one;
    return call_ioctl(control, request, &controls);
}

static int same_rect(const struct v4l2_rect *a, const struct v4l2_rect *b) {
    return a->left == b->left && a->top == b->top && a->width == b->width && a->height == b->height;
}

/* Reads the control; writes its value before back only where it still holds what facecap last wrote. */
static int restore_one(const cv4l2_saved_control *control) {
    if (control->fd < 0) return CV4L2_SAVED_FAILED;
    if (control->is_rect) {
        struct v4l2_rect current;
        memset(&current, 0, sizeof current);
        if (rect_call(control, VIDIOC_G_EXT_CTRLS, &current)) return CV4L2_SAVED_FAILED;
        if (!same_rect(&current, &control->written_rect)) return CV4L2_SAVED_LEFT_ALONE;
        struct v4l2_rect original = control->original_rect;
        return rect_call(control, VIDIOC_S_EXT_CTRLS, &original) ? CV4L2_SAVED_FAILED : CV4L2_SAVED_RESTORED;
    }
    struct v4l2_control value = {.id = control->id, .value = 0};
    if (call_ioctl(control, VIDIOC_G_CTRL, &value)) return CV4L2_SAVED_FAILED;
    if (value.value != control->written) return CV4L2_SAVED_LEFT_ALONE;
    value.value = control->original;
    return call_ioctl(control, VIDIOC_S_CTRL, &value) ? CV4L2_SAVED_FAILED : CV4L2_SAVED_RESTORED;
}

int cv4l2_restore_saved_controls(int *outcomes, int capacity) {
    if (atomic_exchange_explicit(&restored, 1, memory_order_acq_rel)) return 0;
    /* On the handler's stack: ~2 KiB at CV4L2_SAVED_CONTROLS_MAX = 32. */
    saved_slot copy;
    int count = read_published(&copy);
    if (count <= 0) return 0;
    /* The last changed first, as the ledger's own restore does. */
    for (int index = count - 1; index >= 0; index--) {
        int outcome = restore_one(&copy.controls[index]);
        if (outcomes && index < capacity) outcomes[index] = outcome;
    }
    return count;
}
