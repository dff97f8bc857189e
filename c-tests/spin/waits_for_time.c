/* A thread that waits for time to pass, reading the clock (time, clock_gettime) in a
 * loop that changes nothing else: time stands still in cdpor, but such a loop is no
 * await (no thread can end it, and it is no livelock of the program's): it counts
 * toward --unroll, and the run is cut, `incomplete`, never a false livelock. A loop that
 * waits for another thread's flag instead is an await, and the program is safe (-DFLAG).
 * Main waiting for time after it joined its thread (-DALONE) is cut too, not left to
 * hang until --exec-timeout as a loop of main alone that never reads the clock is.
 * Waiting for the flag or five seconds, whichever comes first (-DEITHER), is no await
 * either: the flag may come late, so never `safe`.
 *
 * cdpor-test
 * run: ; verdict=incomplete contains="cut by --unroll"
 * run: -DCLOCK ; verdict=incomplete contains="cut by --unroll"
 * run: -DFLAG ; verdict=safe
 * run: -DALONE -DFLAG ; verdict=incomplete contains="cut by --unroll"
 * run: -DEITHER ; verdict=incomplete contains="cut by --unroll"
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

atomic_int flag;

void *waiter(void *arg) {
    (void)arg;
#if defined(EITHER)
    time_t start = time(0);
    while (!atomic_load(&flag) && time(0) < start + 5) {
    }
#elif defined(FLAG)
    while (!atomic_load(&flag)) {
    }
#elif defined(CLOCK)
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do
        clock_gettime(CLOCK_MONOTONIC, &now);
    while (now.tv_sec < start.tv_sec + 1);
#else
    time_t start = time(0);
    while (time(0) < start + 1) {
    }
#endif
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    atomic_store(&flag, 1);
    pthread_join(t, 0);
#ifdef ALONE
    time_t start = time(0);
    while (time(0) < start + 1) {
    }
#endif
    return 0;
}
