/* A barrier that waits for two threads, used by four: two rounds, and which threads make
 * up each depends on the order of arrival. Worker 1 sets `x` before it arrives; worker 3
 * reads it after its round. It reads 0 only when workers 3 and 4 make up the first round
 * before worker 1 arrives. Once an execution has more threads at the barrier than it
 * waits for, cdpor explores again with every order of arrival (the same executions as
 * --ordered-barriers). -DLATE: worker 3 takes part only if it reads `y` before worker
 * 2 sets it after its round, and worker 4 does not: only some executions show the
 * barrier used by more threads than it waits for, and in those one thread waits for good.
 * -DBUG: worker 3 asserts it read 1.
 *
 * cdpor-test
 * run: ; verdict=safe executions=32 blocked=0
 * run: --ordered-barriers ; verdict=safe executions=32 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: -DBUG --keep-going ; verdict=error kind=assertion location=overflow.c:43 executions=40 failing=16 blocked=0
 * run: -DBUG --keep-going --ordered-barriers ; verdict=error kind=assertion executions=40 failing=16
 * run: -DLATE --keep-going ; verdict=error kind=deadlock executions=10 failing=8 blocked=0
 * run: -DLATE --keep-going --ordered-barriers ; verdict=error kind=deadlock executions=10 failing=8
 * run: -DLATE --keep-going --algorithm source ; verdict=error kind=deadlock
 */
#include <assert.h>
#include <pthread.h>

static pthread_barrier_t b;
static int x, y, seen = -1;

static void *worker(void *arg) {
    long i = (long)arg;
    if (i == 1)
        x = 1;
#ifdef LATE
    if (i == 4)
        return NULL;
    if (i == 3 && y)
        return NULL;
#endif
    pthread_barrier_wait(&b);
    if (i == 2)
        y = 1;
    if (i == 3) {
        seen = x;
#ifdef BUG
        assert(seen == 1);
#endif
    }
    return NULL;
}

int main(void) {
    pthread_t t[4];
    pthread_barrier_init(&b, NULL, 2);
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&b);
    return 0;
}
