/* Two threads race with pthread_mutex_trylock; the winner counts itself and keeps the
 * mutex (it never unlocks), so the loser's trylock must fail. Safe: exactly one winner.
 *
 * Traces (optimal): the successful and the failed trylock are dependent -> 2 executions
 * (either thread wins). none: 637 interleavings (enumerated).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm none ; verdict=safe executions=637
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int winners;

void *race(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0)
        winners = winners + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, race, 0);
    pthread_create(&b, 0, race, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(winners == 1);
    return 0;
}
