/* Data races under --races: two workers update shared counters. `locked` is updated
 * under a mutex, `atomic` with an atomic add, `flag` is published with a C11 release
 * store and read with an acquire load (atomics are no data races); `plain` is a plain
 * increment by both, a data race. Without --races the program is checked as usual (its
 * assertions hold whatever the race does: it asserts nothing about `plain`). -DNO_PLAIN
 * drops the plain counter: race-free. With --keep-going every race of every execution is
 * reported: `plain++` makes two, a read and a write of one worker against the other's write.
 *
 * cdpor-test
 * run: --races ; verdict=error kind=data-race location=counters.c:33 contains="data race: T1 writes plain at c-tests/races/counters.c:33 and T2 reads plain at c-tests/races/counters.c:33, with no synchronization between them"
 * run: --races --keep-going ; verdict=error executions=32 errors=data-race@counters.c:33,data-race@counters.c:33
 * run: --races --algorithm source ; verdict=error kind=data-race location=counters.c:33
 * run: --races --algorithm none ; verdict=error kind=data-race location=counters.c:33
 * run: --races -DNO_PLAIN ; verdict=safe executions=8
 * run: --races -DNO_PLAIN --algorithm source ; verdict=safe executions=8
 * run: --races -DNO_PLAIN --algorithm classic ; verdict=safe executions=8
 * run: ; verdict=safe executions=32
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int locked, plain;
atomic_int counter, flag;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    locked++;
    pthread_mutex_unlock(&lock);
#ifndef NO_PLAIN
    plain++;
#endif
    atomic_fetch_add(&counter, 1);
    atomic_store_explicit(&flag, 1, memory_order_release);
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(locked == 2 && atomic_load(&counter) == 2);
    assert(atomic_load_explicit(&flag, memory_order_acquire) == 1);
    return 0;
}
