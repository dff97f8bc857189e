/* Two threads each run two children one at a time; the second child of each takes the
 * first's number. The four children add to `x` under a mutex: the traces are the orders
 * of the critical sections that keep each parent's children in order, 4!/(2!2!) = 6.
 * With -DBUG the children add without the mutex and updates get lost.
 *
 * cdpor-test
 * run: ; verdict=safe executions=6
 * run: --algorithm source ; verdict=safe executions=6
 * run: --algorithm classic ; verdict=safe executions=6
 * run: -DBUG ; verdict=error kind=assertion location=nested_reuse.c:44
 */
#include <assert.h>
#include <pthread.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *leaf(void *p) {
#ifndef BUG
    pthread_mutex_lock(&m);
#endif
    x += (int)(long)p;
#ifndef BUG
    pthread_mutex_unlock(&m);
#endif
    return 0;
}

static void *mid(void *p) {
    for (long i = 1; i <= 2; i++) {
        pthread_t t;
        pthread_create(&t, 0, leaf, (void *)(i * (long)p));
        pthread_join(t, 0);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, mid, (void *)1);
    pthread_create(&b, 0, mid, (void *)10);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 33);
    return 0;
}
