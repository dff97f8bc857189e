/* Two waiters each take a token; main adds two tokens, signalling each time. A waiter
 * that finds a token does not wait, and a signal that finds no waiter is lost harmlessly:
 * both waiters always leave. Safe; which waiter each signal wakes is explored.
 *
 * (Found in testing: a waiter woken by the first signal waits for the mutex that main
 * holds again for the second; its wake cannot move before that second signal.)
 *
 * (Runs with --no-spurious-wakeups count the signal semantics alone; by default a wait
 * may also end without a signal, which adds executions.)
 *
 * cdpor-test
 * run: ; verdict=safe executions=178 blocked=0
 * run: --no-spurious-wakeups ; verdict=safe executions=30 blocked=0
 * run: --no-spurious-wakeups --algorithm source ; verdict=safe
 * run: --no-spurious-wakeups --algorithm classic ; verdict=safe
 * run: --no-spurious-wakeups --algorithm none ; verdict=safe executions=13736
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int tokens;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (tokens == 0)
        pthread_cond_wait(&c, &m);
    tokens--;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter, 0);
    pthread_create(&b, 0, waiter, 0);
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        tokens++;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
