/* Main signals a condition variable over and over until the waiter acknowledges. A
 * signal that finds no waiter changes nothing, so main's loop waits; the waiter's
 * arrival at pthread_cond_wait changes no byte of memory, yet it is what main's next
 * signal needs: main must run its loop again then rather than keep waiting, or the
 * waiter would sleep forever. Safe. (With spurious wake-ups the waiter can also leave
 * its wait without the signal.)
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: --no-spurious-wakeups --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --no-spurious-wakeups --algorithm none ; verdict=safe
 */
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
atomic_int ack;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_cond_wait(&c, &m);
    ack = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    while (!ack)
        pthread_cond_signal(&c);
    pthread_join(t, 0);
    return 0;
}
