/* C99's `extern inline` gives a function its external definition: the program links,
 * though GNU C89's `inline` (which cdpor tries first, for older programs whose plain
 * `inline` functions have no external definition) makes `extern inline` none. The two
 * threads add with the function under a lock (-DBUG: without it, an update is lost).
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: -DBUG ; verdict=error kind=assertion location=extern_inline.c:36
 */
#include <assert.h>
#include <pthread.h>

extern inline int plus(int a, int b) { return a + b; }

int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
    (void)arg;
#ifndef BUG
    pthread_mutex_lock(&m);
#endif
    total = plus(total, 1);
#ifndef BUG
    pthread_mutex_unlock(&m);
#endif
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add, 0);
    pthread_create(&b, 0, add, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(total == 2);
    return 0;
}
