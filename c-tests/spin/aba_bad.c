/* The writer sets x to 1 and then back to 0 (A-B-A). Main spins while x == 0 and then
 * asserts that x is still 1. Two things can go wrong: main reads x = 1 and the writer
 * resets it before main's second read (assertion), or both writes happen before main
 * looks again and main spins on x = 0 for good while the writer has finished
 * (livelock). Both must be found: a spin on x = 0 is covered by the executions in which
 * main reads x after the first write, and after the second.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error errors=assertion@aba_bad.c:32,livelock@aba_bad.c:30 executions=3 blocked=0
 * run: --keep-going --algorithm source ; verdict=error errors=assertion@aba_bad.c:32,livelock@aba_bad.c:30
 * run: --keep-going --algorithm classic ; verdict=error errors=assertion@aba_bad.c:32,livelock@aba_bad.c:30
 * run: --keep-going --algorithm none ; verdict=error errors=assertion@aba_bad.c:32,livelock@aba_bad.c:30
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *writer(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    atomic_store(&x, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (atomic_load(&x) == 0) {
    }
    assert(atomic_load(&x) == 1);
    pthread_join(t, 0);
    return 0;
}
