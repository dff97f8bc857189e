/* The C side of an in-place reset (runtime/src/worker.rs): the runtime's C tables, each
 * file resetting its own, and the C library's state that the models let it change and
 * that no event names: the standard streams and the floating-point environment. The fork
 * server takes the copies they go back to before any execution. */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

static FILE *const *const streams[] = {&stdin, &stdout, &stderr};
#define STREAMS (sizeof streams / sizeof streams[0])

static FILE saved_streams[STREAMS];
static fenv_t saved_fenv;

void cdpor_c_snapshot(void) {
    for (size_t i = 0; i < STREAMS; i++)
        saved_streams[i] = **streams[i];
    fegetenv(&saved_fenv);
    cdpor_libc_snapshot();
}

/* A stream the execution used: the bytes that passed through its buffer are cleared (the
 * output went to /dev/null, the input came from it), and its state goes back. */
static void reset_stream(FILE *f, const FILE *saved) {
    if (!memcmp(f, saved, sizeof *f))
        return;
    if (f->_IO_buf_base && f->_IO_buf_base == saved->_IO_buf_base)
        memset(f->_IO_buf_base, 0, (size_t)(f->_IO_buf_end - f->_IO_buf_base));
    *f = *saved;
}

void cdpor_c_reset(uint32_t threads) {
    cdpor_main_reset();
    cdpor_shims_reset(threads);
    cdpor_tls_reset(threads);
    cdpor_libc_reset();
    for (size_t i = 0; i < STREAMS; i++)
        reset_stream(*streams[i], &saved_streams[i]);
    fesetenv(&saved_fenv);
}

/* Whether an execution runs: the C library's allocator is then watched (alloc.c). */
int cdpor_in_execution;

void cdpor_c_execution(int running) { cdpor_in_execution = running; }
