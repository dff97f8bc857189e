/* A thousand threads, one at a time: main creates each and joins it before the next.
 * A joined thread's number goes to main's next child, so one exploration never runs
 * out of numbers, and the creation and join loops are bounded by the threads there are,
 * not by --unroll. Nothing is shared but what a join orders: 1 execution. With -DBUG
 * thread 700 finds the counter one short of what it expects.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm source ; verdict=safe executions=1
 * run: --algorithm classic ; verdict=safe executions=1
 * run: -DBUG ; verdict=error kind=assertion location=one_at_a_time.c:25 contains=T700
 */
#include <assert.h>
#include <pthread.h>

#define N 1000

int count;

static void *work(void *arg) {
    long i = (long)arg;
#ifdef BUG
    if (i == 699)
        /* The 700th thread expects 700 earlier ones: there are 699. */
        assert(count == 700);
#endif
    assert(count == i);
    count++;
    return 0;
}

int main(void) {
    for (long i = 0; i < N; i++) {
        pthread_t t;
        pthread_create(&t, 0, work, (void *)i);
        pthread_join(t, 0);
    }
    assert(count == N);
    return 0;
}
