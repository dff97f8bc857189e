/* The heap of the checked program. Each thread allocates from its own arena at a fixed
 * address, by bumping a pointer, so a block's address depends only on which thread
 * allocates it and what that thread allocated before: the same in every interleaving,
 * which the engine needs to recognise an event when it re-executes a schedule. Freed
 * blocks are not reused, for the same reason. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "kinds.h"
#include "rt.h"

#define HEADER 16 /* block size, kept in front of every block */

static uint64_t used[CDPOR_MAX_THREADS];
static uint64_t mapped[CDPOR_MAX_THREADS];

static void *bump(uint64_t size, uint64_t align, uint32_t site) {
    uint32_t t = cdpor_current_tid();
    if (t >= CDPOR_MAX_THREADS || align > 4096 || size > CDPOR_HEAP_SLOT)
        return NULL;
    if (align < 16)
        align = 16;
    uint64_t base = CDPOR_HEAP_BASE + (uint64_t)t * CDPOR_HEAP_SLOT;
    uint64_t start = (used[t] + HEADER + align - 1) & ~(align - 1);
    uint64_t end = start + size;
    if (end > CDPOR_HEAP_SLOT) {
        errno = ENOMEM;
        return NULL;
    }
    if (end > mapped[t]) {
        uint64_t want = (end + CDPOR_HEAP_STEP - 1) & ~(CDPOR_HEAP_STEP - 1);
        if (mprotect((void *)(uintptr_t)(base + mapped[t]), want - mapped[t],
                     PROT_READ | PROT_WRITE) != 0) {
            errno = ENOMEM;
            return NULL;
        }
        mapped[t] = want;
    }
    used[t] = end;
    *(uint64_t *)(uintptr_t)(base + start - HEADER) = size;
    cdpor_log_alloc(base + start, size, site);
    return (void *)(uintptr_t)(base + start);
}

static uint64_t block_size(void *p) { return *(uint64_t *)((char *)p - HEADER); }

void *__cdpor_malloc(size_t size) { return bump(size, 16, __cdpor_site); }

/* Arena memory is fresh from mmap and never reused, so it is already zero. */
void *__cdpor_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return bump(n * size, 16, __cdpor_site);
}

void __cdpor_free(void *p) { (void)p; }

/* The copy into the new block reads the old one; the new block is fresh, so no other
 * thread can see its bytes yet. */
void *__cdpor_realloc(void *p, size_t size) {
    uint32_t site = __cdpor_site;
    if (!p)
        return bump(size, 16, site);
    uint64_t old = block_size(p);
    size_t n = old < size ? old : size;
    cdpor_read_block(p, n, site);
    void *q = bump(size, 16, site);
    if (q)
        memcpy(q, p, n);
    return q;
}

void *__cdpor_aligned_alloc(size_t align, size_t size) { return bump(size, align, __cdpor_site); }

void *__cdpor_memalign(size_t align, size_t size) { return bump(size, align, __cdpor_site); }

int __cdpor_posix_memalign(void **out, size_t align, size_t size) {
    void *p = bump(size, align, __cdpor_site);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

char *__cdpor_strdup(const char *s) {
    uint32_t site = __cdpor_site;
    cdpor_read_string(s, SIZE_MAX, site);
    size_t n = strlen(s) + 1;
    char *p = bump(n, 16, site);
    if (p)
        memcpy(p, s, n);
    return p;
}

char *__cdpor_strndup(const char *s, size_t max) {
    uint32_t site = __cdpor_site;
    cdpor_read_string(s, max, site);
    size_t n = strnlen(s, max);
    char *p = bump(n + 1, 16, site);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}
