/* A timed wait that nobody will signal times out (POSIX: it returns ETIMEDOUT at its
 * deadline); it is never stuck. Its wake may run at once, unsignalled, as a timeout, or
 * end spuriously (returning 0). A loop that waits until the wait times out ends either
 * way, after at most one spurious wake-up (a second would repeat the first). Asserting
 * that the wait was signalled (BUG) fails.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: --algorithm none ; verdict=safe executions=2
 * run: --no-spurious-wakeups ; verdict=safe executions=1
 * run: -DBUG ; verdict=error kind=assertion location=timedwait_alone.c:32
 * run: -DBUG --algorithm none ; verdict=error kind=assertion location=timedwait_alone.c:32
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int stop;

int main(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    pthread_mutex_lock(&m);
    int rc = 0;
    while (!stop && rc != ETIMEDOUT) {
        rc = pthread_cond_timedwait(&cv, &m, &ts);
#ifdef BUG
        assert(rc == 0);
#endif
    }
    pthread_mutex_unlock(&m);
    assert(rc == ETIMEDOUT);
    return 0;
}
