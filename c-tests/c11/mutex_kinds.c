/* C11 mutexes and their return codes: a recursive mtx_t taken twice by one thread, a
 * timed one whose mtx_timedlock may time out (thrd_timedout) whenever another thread
 * holds it, mtx_trylock's thrd_busy, and tss_t values with a destructor that runs at
 * thrd_exit. The worker counts its timeouts; main checks that a timeout happened only
 * when the lock was held. -DBUG: main asserts the timed lock never times out, which
 * fails in the interleaving where main holds it.
 *
 * cdpor-test
 * run: ; verdict=safe executions=4
 * run: --algorithm source ; verdict=safe executions=4
 * run: --algorithm none ; verdict=safe executions=5271
 * run: -DBUG ; verdict=error kind=assertion location=mutex_kinds.c:44
 */
#include <assert.h>
#include <stdlib.h>
#include <threads.h>

mtx_t nested, timed;
tss_t key;
int destroyed;

static void release(void *p) {
    destroyed = *(int *)p;
    free(p);
}

static int worker(void *arg) {
    (void)arg;
    int *mine = malloc(sizeof *mine);
    *mine = 9;
    assert(tss_set(key, mine) == thrd_success && tss_get(key) == mine);
    assert(mtx_lock(&nested) == thrd_success);
    assert(mtx_lock(&nested) == thrd_success);
    mtx_unlock(&nested);
    mtx_unlock(&nested);
    struct timespec at = {0, 0};
    int r = mtx_timedlock(&timed, &at);
    if (r == thrd_success) {
        mtx_unlock(&timed);
        return 0;
    }
    assert(r == thrd_timedout);
#ifdef BUG
    assert(0 && "the timed lock timed out");
#endif
    return 1;
}

int main(void) {
    assert(mtx_init(&nested, mtx_plain | mtx_recursive) == thrd_success);
    assert(mtx_init(&timed, mtx_timed) == thrd_success);
    assert(tss_create(&key, release) == thrd_success);
    thrd_t t;
    thrd_create(&t, worker, NULL);
    int busy = mtx_trylock(&timed);
    assert(busy == thrd_success || busy == thrd_busy);
    if (busy == thrd_success)
        mtx_unlock(&timed);
    int timeouts;
    thrd_join(t, &timeouts);
    assert(timeouts == 0 || busy == thrd_success);
    assert(destroyed == 9);
    return 0;
}
