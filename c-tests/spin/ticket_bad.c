/* A ticket lock whose ticket is drawn with a load and a separate store: both threads can
 * draw ticket 0 and enter together, losing an increment (main's assertion). And if one
 * of them serves ticket 0 and moves now_serving to 1 before the other, also holding
 * ticket 0, looks at it, that one spins on now_serving = 1 for good (livelock; whether
 * main or the worker is the spinner makes two distinct errors).
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error errors=assertion@ticket_bad.c:37,livelock@ticket_bad.c:25,livelock@ticket_bad.c:25 executions=24 blocked=0
 * run: --keep-going --algorithm source ; verdict=error errors=assertion@ticket_bad.c:37,livelock@ticket_bad.c:25,livelock@ticket_bad.c:25
 * run: --keep-going --algorithm classic ; verdict=error errors=assertion@ticket_bad.c:37,livelock@ticket_bad.c:25,livelock@ticket_bad.c:25
 * run: --keep-going --algorithm none ; verdict=error errors=assertion@ticket_bad.c:37,livelock@ticket_bad.c:25,livelock@ticket_bad.c:25
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_uint next_ticket;
atomic_uint now_serving;
int counter;

static void *worker(void *arg) {
    (void)arg;
    unsigned my = atomic_load(&next_ticket); /* BUG: two threads can draw the same ticket */
    atomic_store(&next_ticket, my + 1);
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
