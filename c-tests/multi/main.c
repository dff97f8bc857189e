/* A program over three files: main.c, counter.c (the counter and its lock) and worker.c
 * (the threads' function); each file has its own static `step`. Two workers add 2 and 4
 * under the lock: with the lock, 2 executions (the order of the critical sections), and
 * the sum is 6; with -DUNLOCKED (which applies to every file) the update is lost in some
 * interleaving, reported in counter.c. Without counter.c, or with a second definition of
 * counter_get in worker.c (-DDEFINE_TWICE), the program does not link: the message names
 * the user's files and the symbol.
 *
 * cdpor-test
 * run: c-tests/multi/counter.c c-tests/multi/worker.c ; verdict=safe executions=2
 * run: c-tests/multi/counter.c c-tests/multi/worker.c --algorithm none ; verdict=safe executions=2302
 * run: c-tests/multi/counter.c c-tests/multi/worker.c -DUNLOCKED ; verdict=error kind=assertion location=multi/main.c:26
 * run: c-tests/multi/counter.c c-tests/multi/worker.c -DUNLOCKED --keep-going ; verdict=error executions=4 failing=2
 * run: ; verdict=compile-error contains="c-tests/multi/main.c:26: undefined reference to `counter_get` (in `main`)"
 * run: c-tests/multi/counter.c c-tests/multi/worker.c -DDEFINE_TWICE ; verdict=compile-error contains="`counter_get` is defined in both c-tests/multi/counter.c and c-tests/multi/worker.c"
 */
#include <assert.h>
#include "counter.h"

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, (void *)(i + 1));
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(counter_get(&hits) == 6);
    return 0;
}
