/* A global that holds only a nondeterministic value is followed like the value: the
 * threads compare it (0 < n <= 2) and use it (x += n), main restricts it to 0..2, so n
 * is explored whole over 0..2 and by one value in [MIN,0), [3] and [4,MAX], which the
 * guard stops: complete. Under the mutex, x == 2n after the joins; without it (BUG) an
 * update can be lost.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=6 assume_blocked=3
 * run: --svcomp -DBUG ; verdict=error kind=assertion location=interval_global.c:41
 */
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int c) { if (!c) abort(); }

int n;
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
    (void)arg;
#ifndef BUG
    pthread_mutex_lock(&m);
#endif
    if (n > 0 && n <= 2) x += n;
#ifndef BUG
    pthread_mutex_unlock(&m);
#endif
    return 0;
}

int main(void) {
    n = __VERIFIER_nondet_int();
    assume_abort_if_not(n >= 0 && n < 3);
    pthread_t a, b;
    pthread_create(&a, 0, add, 0);
    pthread_create(&b, 0, add, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (x != 2 * n) reach_error();
    return 0;
}
