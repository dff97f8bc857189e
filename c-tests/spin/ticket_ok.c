/* A ticket lock: take a ticket with fetch_add, spin until now_serving reaches it, and
 * unlock by serving the next ticket. Two threads each add 1 to a plain counter under the
 * lock; tickets are distinct, so the increments are exclusive and main sees 2: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_uint next_ticket;
atomic_uint now_serving;
int counter;

static void *worker(void *arg) {
    (void)arg;
    unsigned my = atomic_fetch_add(&next_ticket, 1);
    while (atomic_load(&now_serving) != my) {
    }
    counter = counter + 1;
    atomic_fetch_add(&now_serving, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    worker(0);
    pthread_join(t, 0);
    assert(counter == 2);
    return 0;
}
