/* A ticket lock: take a ticket with fetch_add, spin until now_serving reaches it, and
 * unlock by serving the next ticket. Two threads each add 1 to a plain counter under the
 * lock; tickets are distinct, so the increments are exclusive and main sees 2: safe.
 *
 * -DBROKEN draws the ticket with a load and a separate store: both threads can draw
 * ticket 0 and enter together, losing an increment (main's assertion). And if one of them
 * serves ticket 0 and moves now_serving to 1 before the other, also holding ticket 0,
 * looks at it, that one spins on now_serving = 1 for good (livelock; whether main or the
 * worker is the spinner makes two distinct errors).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error errors=assertion@ticket.c:49,livelock@ticket.c:37,livelock@ticket.c:37 executions=22 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error errors=assertion@ticket.c:49,livelock@ticket.c:37,livelock@ticket.c:37
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error errors=assertion@ticket.c:49,livelock@ticket.c:37,livelock@ticket.c:37
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error errors=assertion@ticket.c:49,livelock@ticket.c:37,livelock@ticket.c:37
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_uint next_ticket;
atomic_uint now_serving;
int counter;

static void *worker(void *arg) {
    (void)arg;
#ifdef BROKEN
    unsigned my = atomic_load(&next_ticket); /* BUG: two threads can draw the same ticket */
    atomic_store(&next_ticket, my + 1);
#else
    unsigned my = atomic_fetch_add(&next_ticket, 1);
#endif
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
