/* C11 <threads.h>: a producer hands ITEMS items to a consumer through a one-slot buffer
 * under an mtx_t with two cnd_t, and both return results through thrd_join (the
 * consumer by thrd_exit). The waits re-check in `while` loops; with -DIF the consumer
 * checks with `if`, and a spurious wake-up lets it take from an empty slot. With
 * -DNO_SIGNAL the producer forgets to signal after the last item, and the consumer can
 * wait forever. The counts are those of the pthread version of this program.
 *
 * cdpor-test
 * run: ; verdict=safe executions=64
 * run: --algorithm source ; verdict=safe executions=64
 * run: --algorithm classic ; verdict=safe executions=64
 * run: --no-spurious-wakeups ; verdict=safe executions=8
 * run: -DITEMS=1 --no-spurious-wakeups ; verdict=safe executions=2
 * run: -DIF ; verdict=error kind=assertion location=producer_consumer.c:57
 * run: -DNO_SIGNAL ; verdict=error kind=deadlock contains="T2 waits on condition filled"
 */
#include <assert.h>
#include <stdio.h>
#include <threads.h>

#ifndef ITEMS
#define ITEMS 2
#endif

mtx_t lock;
cnd_t filled, emptied;
int slot, full;

static int producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= ITEMS; i++) {
        mtx_lock(&lock);
        while (full)
            cnd_wait(&emptied, &lock);
        slot = i;
        full = 1;
#ifdef NO_SIGNAL
        if (i < ITEMS)
#endif
            cnd_signal(&filled);
        mtx_unlock(&lock);
    }
    return 7;
}

static int consumer(void *arg) {
    int sum = 0;
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        mtx_lock(&lock);
#ifdef IF
        if (!full)
#else
        while (!full)
#endif
            cnd_wait(&filled, &lock);
        assert(full);
        sum += slot;
        full = 0;
        cnd_signal(&emptied);
        mtx_unlock(&lock);
    }
    thrd_exit(sum);
}

int main(void) {
    thrd_t p, c;
    assert(mtx_init(&lock, mtx_plain) == thrd_success);
    assert(cnd_init(&filled) == thrd_success && cnd_init(&emptied) == thrd_success);
    assert(thrd_create(&p, producer, NULL) == thrd_success);
    assert(thrd_create(&c, consumer, NULL) == thrd_success);
    assert(!thrd_equal(p, c) && thrd_equal(thrd_current(), thrd_current()));
    int rp = 0, rc = 0;
    assert(thrd_join(p, &rp) == thrd_success);
    assert(thrd_join(c, &rc) == thrd_success);
    assert(rp == 7 && rc == ITEMS * (ITEMS + 1) / 2);
    cnd_destroy(&filled);
    cnd_destroy(&emptied);
    mtx_destroy(&lock);
    return 0;
}
