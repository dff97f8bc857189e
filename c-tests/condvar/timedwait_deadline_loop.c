/* The common timed-wait loop: each time round it computes a new deadline from the clock
 * (clock_gettime, then one second on) and waits until it. Time stands still here, so
 * the deadline is the same bytes each time: a wait that timed out and came back having
 * written only those bytes again changed nothing, and timing out again is not explored
 * again (else each round doubled the executions until --unroll). With nothing to set
 * `ready`, the waiter waits for ever: a deadlock (-DNEVER). With a retry counter that
 * gives up after 3 rounds, each round differs, and the program ends in every execution,
 * also when the counter is a volatile local, whose writes are no events (-DVOLATILE), and
 * when it counts only timeouts, in a global, so that a timeout, the count, then a
 * spurious wake-up leave the next wait free to time out again (-DTIMEOUTS: it was a
 * false deadlock). A deadline that moves one second on each round (-DLATER) makes each
 * round new: each wait that could end without a signal doubles the executions, so a
 * thread stops after 12 such ends, cut by --unroll, honestly incomplete.
 *
 * cdpor-test
 * run: ; verdict=safe executions=8
 * run: --algorithm none ; verdict=safe
 * run: -DNEVER ; verdict=error kind=deadlock
 * run: -DNEVER --algorithm none ; verdict=error kind=deadlock
 * run: -DNEVER -DGIVE_UP ; verdict=safe executions=8
 * run: -DNEVER -DGIVE_UP --algorithm none ; verdict=safe
 * run: -DNEVER -DGIVE_UP -DVOLATILE ; verdict=safe executions=8
 * run: -DNEVER -DTIMEOUTS ; verdict=safe
 * run: -DNEVER -DTIMEOUTS --algorithm none ; verdict=safe
 * run: -DNEVER -DLATER ; verdict=incomplete contains="cut by --unroll (a thread's condition wait"
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, timeouts;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
#if defined(GIVE_UP) && defined(VOLATILE)
    for (volatile int tries = 0; !ready && tries < 3; tries++) {
#elif defined(GIVE_UP)
    for (int tries = 0; !ready && tries < 3; tries++) {
#elif defined(TIMEOUTS)
    while (!ready && timeouts < 2) {
#else
    while (!ready) {
#endif
#ifdef LATER
        static struct timespec deadline;
        if (!deadline.tv_sec)
            clock_gettime(CLOCK_REALTIME, &deadline);
#else
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
#endif
        deadline.tv_sec += 1;
        int r = pthread_cond_timedwait(&c, &m, &deadline);
#ifdef TIMEOUTS
        if (r == ETIMEDOUT)
            timeouts++;
#endif
        (void)r;
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
#ifndef NEVER
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
#endif
    pthread_join(t, 0);
    return 0;
}
