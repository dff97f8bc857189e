/* Thread-local storage: `__thread` variables and thread-specific data.
 *
 * The instrumentation gives every thread-local variable an offset in a block that each
 * thread has of its own (src/instrument/tls.rs), at a fixed address per thread so that
 * addresses stay the same in every interleaving, filled from the variables' initializers
 * when the thread first reaches one of them.
 *
 * Thread-specific data: pthread_key_* and C11's tss_* (the same objects in glibc). The
 * keys are one registry that all threads share: creating and deleting a key write it
 * (two threads creating keys get their numbers in either order), getting and setting a
 * value read it (whether the key exists), so gets and sets commute with each other and
 * race only with creations and deletions. A value is the calling thread's own. When a
 * thread exits (not when the process does), the destructors of its non-NULL values run
 * in that thread, for up to PTHREAD_DESTRUCTOR_ITERATIONS rounds. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <threads.h>

#include "kinds.h"
#include "rt.h"

/* ---- thread-local variables ---- */

struct tls_var {
    const void *init;
    uint64_t offset, size;
};

static void *blocks[CDPOR_MAX_THREADS];

void *__cdpor_tls(const struct tls_var *vars, uint64_t n, uint64_t size) {
    uint32_t t = cdpor_current_tid() % CDPOR_MAX_THREADS;
    if (blocks[t])
        return blocks[t];
    char *block = cdpor_tls_block(size);
    for (uint64_t i = 0; i < n; i++)
        memcpy(block + vars[i].offset, vars[i].init, vars[i].size);
    blocks[t] = block;
    return block;
}

#define KEYS PTHREAD_KEYS_MAX

static struct {
    int used;
    void (*destructor)(void *);
} keys[KEYS];

static const void *values[CDPOR_MAX_THREADS][KEYS];
/* Keys ever created in this execution: a thread's exit looks no further when none was
 * (every thread exit runs cdpor_key_destructors). */
static unsigned created;

uint64_t cdpor_keys_state;

static const void **mine(void) { return values[cdpor_current_tid() % CDPOR_MAX_THREADS]; }

int __cdpor_pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
    uint32_t site = __cdpor_site;
    cdpor_state_event(&cdpor_keys_state, CDPOR_MODE_READ_WRITE, site);
    for (unsigned k = 0; k < KEYS; k++) {
        if (keys[k].used)
            continue;
        keys[k].used = 1;
        keys[k].destructor = destructor;
        if (k >= created)
            created = k + 1;
        /* A key number used before starts with no values. */
        for (unsigned t = 0; t < CDPOR_MAX_THREADS; t++)
            values[t][k] = NULL;
        cdpor_store((uint64_t)(uintptr_t)key, sizeof *key, k, site);
        return 0;
    }
    return EAGAIN;
}

int __cdpor_pthread_key_delete(pthread_key_t key) {
    cdpor_state_event(&cdpor_keys_state, CDPOR_MODE_READ_WRITE, __cdpor_site);
    if (key >= KEYS || !keys[key].used)
        return EINVAL;
    keys[key].used = 0;
    return 0;
}

void *__cdpor_pthread_getspecific(pthread_key_t key) {
    cdpor_state_event(&cdpor_keys_state, CDPOR_MODE_READ, __cdpor_site);
    if (key >= KEYS || !keys[key].used)
        return NULL;
    return (void *)mine()[key];
}

int __cdpor_pthread_setspecific(pthread_key_t key, const void *value) {
    cdpor_state_event(&cdpor_keys_state, CDPOR_MODE_READ, __cdpor_site);
    if (key >= KEYS || !keys[key].used)
        return EINVAL;
    mine()[key] = value;
    return 0;
}

void cdpor_key_destructors(uint32_t site) {
    if (!created)
        return;
    const void **v = mine();
    for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
        int ran = 0;
        for (unsigned k = 0; k < created; k++) {
            if (!v[k] || !keys[k].used || !keys[k].destructor)
                continue;
            if (!ran)
                /* Which destructor a key has is the registry's. */
                cdpor_state_event(&cdpor_keys_state, CDPOR_MODE_READ, site);
            ran = 1;
            void *value = (void *)v[k];
            v[k] = NULL;
            keys[k].destructor(value);
        }
        if (!ran)
            break;
    }
}

/* A thread takes the number of one that was joined: it starts with its variables' initial
 * values and no thread-specific data. */
void cdpor_thread_reset(uint32_t t) {
    t %= CDPOR_MAX_THREADS;
    blocks[t] = NULL;
    for (unsigned k = 0; k < created; k++)
        values[t][k] = NULL;
}

/* The values' table, which an in-place reset clears row by row (cdpor_tls_reset). */
const void *cdpor_tls_values(uint64_t *len) {
    *len = sizeof values;
    return values;
}

void cdpor_tls_reset(uint32_t threads) {
    for (uint32_t t = 0; t < threads && t < CDPOR_MAX_THREADS; t++)
        blocks[t] = NULL;
    /* Most programs create no key: then no call of memset at all (one for no bytes, into
     * a row not yet written, costs some 140 ns here: glibc's masked store; one for a byte
     * 3.5 ns). */
    if (!created)
        return;
    for (uint32_t t = 0; t < threads && t < CDPOR_MAX_THREADS; t++)
        memset(values[t], 0, created * sizeof values[t][0]);
    memset(keys, 0, created * sizeof keys[0]);
    created = 0;
    cdpor_keys_state = 0;
}

/* ---- C11 ---- */

int __cdpor_tss_create(tss_t *key, tss_dtor_t destructor) {
    return __cdpor_pthread_key_create(key, destructor) == 0 ? thrd_success : thrd_error;
}

void *__cdpor_tss_get(tss_t key) { return __cdpor_pthread_getspecific(key); }

int __cdpor_tss_set(tss_t key, void *value) {
    return __cdpor_pthread_setspecific(key, value) == 0 ? thrd_success : thrd_error;
}

void __cdpor_tss_delete(tss_t key) { __cdpor_pthread_key_delete(key); }
