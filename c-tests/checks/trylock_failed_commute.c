/* main holds the mutex for the whole time two threads each call trylock on it, so both
 * trylocks fail. Two failed trylocks commute and nothing else is shared between the
 * threads, so there is a single trace: optimal and source explore exactly 1 execution.
 * (classic is only checked for its verdict: its dependence may be coarser, treating failed
 * trylocks like reads that do not commute.) none: 594 interleavings (enumerated). Safe:
 * both threads record their failure.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe executions=1 blocked=0
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=594
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int failed[2];

void *try_it(void *arg) {
    int i = (int)(intptr_t)arg;
    if (pthread_mutex_trylock(&m) != 0)
        failed[i] = 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_lock(&m);
    pthread_create(&a, 0, try_it, (void *)0);
    pthread_create(&b, 0, try_it, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_mutex_unlock(&m);
    assert(failed[0] == 1 && failed[1] == 1);
    return 0;
}
