/* 300 threads alive at once: main creates all of them before it joins any. Each writes
 * its own element, so nothing conflicts: 1 execution. With -DBUG the first and the last
 * thread share an element, and the first checks it after writing it: the last writes
 * before, between or after (3 executions), and in between the check fails.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm source ; verdict=safe executions=1
 * run: -DBUG ; verdict=error kind=assertion location=many_alive.c:25
 * run: -DBUG --keep-going ; verdict=error executions=3 failing=1
 */
#include <assert.h>
#include <pthread.h>

#define N 300

pthread_t ts[N];
long done[N];

static void *work(void *arg) {
    long i = (long)arg;
#ifdef BUG
    long slot = i == N - 1 ? 0 : i;
    done[slot] = i + 1;
    assert(i != 0 || done[slot] == 1);
#else
    done[i] = i + 1;
#endif
    return 0;
}

int main(void) {
    for (long i = 0; i < N; i++)
        pthread_create(&ts[i], 0, work, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(ts[i], 0);
    return 0;
}
