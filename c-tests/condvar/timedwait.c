/* pthread_cond_timedwait may time out whenever it could wake (time is not modelled):
 * the timeout is explored beside the signal, and the wait returns ETIMEDOUT. A waiter
 * in a `while (!ready)` loop ends either way; asserting that it never timed out (BUG) is
 * a bug that is found. A wait that timed out and finds nothing changed (`timed_out` was
 * already set) may time out again only once another thread wrote what the loop read
 * (or the condition): timing out before would repeat the same state. With nobody to
 * set `ready` (NOSIGNAL), the program times out for ever: a livelock. QUIET: the other
 * thread sets `ready` without signalling; the timeouts see it, and the program ends. A
 * loop that counted its timeouts would make progress each time, and could time out
 * without end before the signal: its exploration is cut by --unroll.
 *
 * cdpor-test
 * run: ; verdict=safe executions=14
 * run: --algorithm none ; verdict=safe executions=133
 * run: --no-spurious-wakeups ; verdict=safe executions=5
 * run: -DBUG ; verdict=error kind=assertion location=timedwait.c:57
 * run: -DBUG --algorithm none ; verdict=error kind=assertion location=timedwait.c:57
 * run: -DNOSIGNAL ; verdict=error kind=livelock location=timedwait.c:53 contains="no thread will change ready = 0"
 * run: -DNOSIGNAL --algorithm none ; verdict=error kind=livelock
 * run: -DQUIET ; verdict=safe
 * run: -DQUIET --algorithm none ; verdict=safe
 * run: -DQUIET --no-spurious-wakeups --algorithm source ; verdict=safe
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
#ifndef QUIET
    pthread_cond_signal(&cv);
#endif
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
#ifndef NOSIGNAL
    pthread_create(&t, 0, signaller, 0);
#endif
    struct timespec ts = {0, 0};
    int timed_out = 0;
    pthread_mutex_lock(&m);
    while (!ready) {
        int r = pthread_cond_timedwait(&cv, &m, &ts);
        assert(r == 0 || r == ETIMEDOUT);
        if (r == ETIMEDOUT) timed_out = 1;
#ifdef BUG
        assert(!timed_out);
#endif
    }
    pthread_mutex_unlock(&m);
#ifndef NOSIGNAL
    pthread_join(t, 0);
#endif
    return 0;
}
