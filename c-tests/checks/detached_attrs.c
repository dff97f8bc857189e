/* Attributes and detached threads: a detached worker and one created with explicit
 * attributes (joinable, a stack size, a default-type mutex from a mutexattr) race on `x`.
 * Main joins only the joinable one and then asserts; the detached worker may or may not
 * have run by then.
 *
 * Traces: x = 2 always comes before main's read (join). The detached x = 1 comes before
 * x = 2 (main reads 2), between x = 2 and the read (reads 1: the assertion fails), or
 * after the read: 3 traces, 1 failing. Main's return does not cut the detached worker off
 * first: the end of the process waits while another thread can run (where it would cut
 * a thread is no behaviour of its own, `ops::enabled_threads`). (The detach is an event
 * too, which `none` interleaves with the others.)
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion contains="x == 2"
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion executions=3 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=353 failing=111
 */
#include <assert.h>
#include <pthread.h>

int x;
pthread_mutex_t m;

void *detached(void *arg) {
    (void)arg;
    x = 1;
    return 0;
}

void *joinable(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_NORMAL);
    pthread_mutex_init(&m, &ma);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_JOINABLE);
    pthread_attr_setstacksize(&at, 1 << 20);
    pthread_t d, j;
    pthread_create(&d, 0, detached, 0);
    pthread_detach(d);
    pthread_create(&j, &at, joinable, 0);
    pthread_join(j, 0);
    assert(x == 2);
    return 0;
}
