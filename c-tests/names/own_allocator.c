/* The program brings its own allocator, as glibc allows: `malloc` and `free` over a
 * static arena. Its calls go to it, in main and in the threads; cdpor's model heap and
 * the runtime's own allocations (which use the C library's malloc) stay apart from it.
 * Two threads and main each allocate a block and fill it; the arena's bump pointer is
 * taken under a lock. With -DRACY_BUMP two allocations can return the same block, and
 * one thread's fill overwrites another's.
 * The three allocations order in 3! = 6 ways.
 *
 * cdpor-test
 * run: ; verdict=safe executions=6 blocked=0
 * run: --algorithm source ; verdict=safe executions=6
 * run: --algorithm classic ; verdict=safe
 * run: -DRACY_BUMP ; verdict=error kind=assertion location=own_allocator.c:71
 * run: -DRACY_BUMP --algorithm none ; verdict=error kind=assertion location=own_allocator.c:71
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static _Alignas(16) unsigned char arena[256];
static size_t used;
static int freed;
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;

void *malloc(size_t n) {
    n = (n + 15) & ~(size_t)15;
#ifndef RACY_BUMP
    pthread_mutex_lock(&arena_lock);
#endif
    size_t at = used;
    used = at + n;
#ifndef RACY_BUMP
    pthread_mutex_unlock(&arena_lock);
#endif
    return at + n <= sizeof arena ? arena + at : NULL;
}

void free(void *p) {
    if (!p)
        return;
    pthread_mutex_lock(&arena_lock);
    freed++;
    pthread_mutex_unlock(&arena_lock);
}

static int *blocks[3];

static void fill(int who) {
    int *p = malloc(sizeof *p);
    *p = who;
    blocks[who] = p;
}

static void *worker(void *arg) {
    fill(*(int *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int ia = 1, ib = 2;
    pthread_create(&a, 0, worker, &ia);
    pthread_create(&b, 0, worker, &ib);
    fill(0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    for (int who = 0; who < 3; who++) {
        /* Blocks lie in the program's arena, not in cdpor's heap. */
        assert((unsigned char *)blocks[who] >= arena && (unsigned char *)blocks[who] < arena + sizeof arena);
        assert(*blocks[who] == who);
    }
    for (int who = 0; who < 3; who++)
        free(blocks[who]);
    assert(freed == 3);
    return 0;
}
