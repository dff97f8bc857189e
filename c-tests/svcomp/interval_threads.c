/* Each thread picks an index with a nondeterministic unsigned value and the guard
 * i < 3: [0,3) is explored whole and [3], [4,2^31), [2^31,MAX] by one value each, which
 * the guard stops. One thread stopping at a sampled value while the other uses its own
 * index is no use of the sampled value: the run is complete. BUG: the increments race.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=18
 * run: --svcomp -DBUG ; verdict=error kind=assertion location=interval_threads.c:41
 */
#include <pthread.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int c) { if (!c) abort(); }

int slots[3];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *pick(void *arg) {
    (void)arg;
    unsigned i = __VERIFIER_nondet_uint();
    assume_abort_if_not(i < 3);
#ifndef BUG
    pthread_mutex_lock(&m);
#endif
    slots[i] = slots[i] + 1;
#ifndef BUG
    pthread_mutex_unlock(&m);
#endif
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, pick, 0);
    pthread_create(&b, 0, pick, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int sum = 0;
    for (int j = 0; j < 3; j++) sum += slots[j];
    if (sum != 2) reach_error();
    return 0;
}
