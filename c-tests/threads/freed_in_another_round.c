/* Rounds of threads run one at a time, each taking the number of the one before: the
 * first allocates a block, the second frees it, the third writes to it (use after free).
 * The report names each thread as it was when it acted, not by the thread that holds
 * its number at the end. 1 execution.
 *
 * cdpor-test
 * run: ; verdict=error kind=memory contains="allocated by T1 at c-tests/threads/freed_in_another_round.c:15" executions=1
 * run: ; verdict=error kind=memory contains="freed by T2 at c-tests/threads/freed_in_another_round.c:16"
 */
#include <pthread.h>
#include <stdlib.h>

int *block;

static void *make(void *arg) { block = malloc(16); return arg; }
static void *drop(void *arg) { free(block); return arg; }
static void *use(void *arg) { block[1] = 7; return arg; }

int main(void) {
    void *(*rounds[])(void *) = {make, drop, use};
    for (int i = 0; i < 3; i++) {
        pthread_t t;
        pthread_create(&t, 0, rounds[i], 0);
        pthread_join(t, 0);
    }
    return 0;
}
