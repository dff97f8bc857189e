/* The old-style flag handoff with a plain `volatile int` (no atomics): the worker fills
 * `msg` and sets `done`; main spins on the volatile flag and then checks the message.
 * Under sequential consistency the message is complete once done = 1: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

volatile int done;
int msg[2];

static void *worker(void *arg) {
    (void)arg;
    msg[0] = 'h';
    msg[1] = 'i';
    done = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!done) {
    }
    assert(msg[0] == 'h' && msg[1] == 'i');
    pthread_join(t, 0);
    return 0;
}
