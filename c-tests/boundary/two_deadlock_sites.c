/* main relocks the mutex it holds, at one of two places depending on what it read:
 * two different deadlocks, both reported with --keep-going.
 *
 * cdpor-test
 * run: --keep-going ; verdict=error errors=deadlock@two_deadlock_sites.c:24,deadlock@two_deadlock_sites.c:26
 * run: --keep-going --algorithm none ; verdict=error errors=deadlock@two_deadlock_sites.c:24,deadlock@two_deadlock_sites.c:26
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready;

static void *setter(void *arg) {
    (void)arg;
    ready = 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, setter, NULL);
    pthread_mutex_lock(&m);
    if (ready == 0)
        pthread_mutex_lock(&m);
    else
        pthread_mutex_lock(&m);
    pthread_join(t, NULL);
    return 0;
}
