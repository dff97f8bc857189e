/* The allocation functions of the checked program, on the runtime's heap (runtime/src/heap.rs). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* malloc(0) and free(NULL) behave as glibc's; a NULL result sets errno (heap.rs). */
void *__cdpor_malloc(size_t size) { return cdpor_heap_alloc(size, 16, __cdpor_site); }

/* Arena memory is fresh from mmap and never reused, so it is already zero. */
void *__cdpor_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return cdpor_heap_alloc(n * size, 16, __cdpor_site);
}

void __cdpor_free(void *p) {
    if (p && cdpor_heap_free(p, __cdpor_site))
        free(p);
}

/* The old block is freed (an event that writes it whole, so it conflicts with every
 * access to it) and copied, its bytes being still there; the new block is fresh, so no
 * other thread can see its bytes yet. As glibc's, realloc(p, 0) frees p and returns
 * NULL. (Unlike glibc's, a realloc that finds no memory has freed p: a thread's arena
 * holds 4 GiB.) */
void *__cdpor_realloc(void *p, size_t size) {
    uint32_t site = __cdpor_site;
    if (!p)
        return cdpor_heap_alloc(size, 16, site);
    if (cdpor_heap_free(p, site))
        return realloc(p, size);
    if (size == 0)
        return NULL;
    void *q = cdpor_heap_alloc(size, 16, site);
    if (q) {
        uint64_t old = cdpor_heap_size(p);
        memcpy(q, p, old < size ? old : size);
    }
    return q;
}

void *__cdpor_aligned_alloc(size_t align, size_t size) { return cdpor_heap_alloc(size, align, __cdpor_site); }

void *__cdpor_memalign(size_t align, size_t size) { return cdpor_heap_alloc(size, align, __cdpor_site); }

int __cdpor_posix_memalign(void **out, size_t align, size_t size) {
    void *p = cdpor_heap_alloc(size, align, __cdpor_site);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

char *__cdpor_strdup(const char *s) {
    uint32_t site = __cdpor_site;
    cdpor_read_string(s, SIZE_MAX, site);
    size_t n = strlen(s) + 1;
    char *p = cdpor_heap_alloc(n, 16, site);
    if (p)
        memcpy(p, s, n);
    return p;
}

char *__cdpor_strndup(const char *s, size_t max) {
    uint32_t site = __cdpor_site;
    cdpor_read_string(s, max, site);
    size_t n = strnlen(s, max);
    char *p = cdpor_heap_alloc(n + 1, 16, site);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* ---- the C library's own allocator ----
 * The program is linked with --wrap for these (src/program.rs): the C library's own
 * calls (a stream's buffer, a large sort, getline) reach glibc's allocator through here,
 * and one during an execution keeps an in-place worker from resetting (worker.rs). */
extern int cdpor_in_execution;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

void *__wrap_malloc(size_t n) {
    if (cdpor_in_execution)
        cdpor_library_alloc();
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size) {
    if (cdpor_in_execution)
        cdpor_library_alloc();
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n) {
    if (cdpor_in_execution)
        cdpor_library_alloc();
    return __real_realloc(p, n);
}

void __wrap_free(void *p) {
    if (p && cdpor_in_execution)
        cdpor_library_alloc();
    __real_free(p);
}
