/* Threads created in an unbounded loop: each execution is cut at --max-threads (8 under
 * --svcomp), so the run is incomplete, but a bug within the bound is still found: two
 * workers that claim the same slot.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=unbounded_threads.c:22
 * run: --svcomp -DLOCKED --max-threads 3 ; verdict=incomplete bounded=6
 * run: --svcomp -DLOCKED --max-threads 3 --algorithm source ; verdict=incomplete
 */
void reach_error(void) {}

#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next_slot, owner[16];

void *claim(void *arg) {
#ifdef LOCKED
    pthread_mutex_lock(&m);
#endif
    int s = next_slot;
    if (owner[s]) reach_error();
    owner[s] = 1;
    next_slot = s + 1;
#ifdef LOCKED
    pthread_mutex_unlock(&m);
#endif
    return arg;
}

int main(void) {
    pthread_t t;
    while (1)
        pthread_create(&t, 0, claim, 0);
    return 0;
}
