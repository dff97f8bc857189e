/* pthread_mutex_timedlock may time out whenever the mutex is busy (time is not
 * modelled), and takes it when free: both outcomes are explored. BUG: asserting that it
 * never times out.
 *
 * cdpor-test
 * run: ; verdict=safe executions=3
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=assertion location=timedlock.c:29
 * run: -DBUG --algorithm none ; verdict=error kind=assertion location=timedlock.c:29
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *holder(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void check(int r) {
#ifdef BUG
    assert(r == 0);
#endif
    assert(r == 0 || r == ETIMEDOUT);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, holder, 0);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    int r = pthread_mutex_timedlock(&m, &ts);
    check(r);
    if (r == 0) {
        x = 2;
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, 0);
    return 0;
}
