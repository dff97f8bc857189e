/* main returns while its threads are still running: one thread is blocked on a mutex that
 * main still holds, the other is in the middle of a loop of shared writes. Returning from
 * main ends the program (exit status 0), so this is neither a deadlock nor an error.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe exit=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *blocked(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *busy(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++)
        y = y + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_lock(&m);
    pthread_create(&a, 0, blocked, 0);
    pthread_create(&b, 0, busy, 0);
    return 0; /* m still locked, neither thread joined */
}
