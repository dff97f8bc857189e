/* N threads (main among them) pass one barrier K times, ignoring its result. The
 * arrivals of a round commute and no thread needs to be the serial one: one execution.
 * With --ordered-barriers the arrivals of each round race, so every order of arrival is
 * explored: (N!)^K executions; a thread's wait for the end of a round commutes with the
 * arrivals of the rounds after it (even with an arrival whose outcome a wakeup sequence
 * does not know yet), so `optimal` runs no trace twice and none sleep-set-blocked.
 * -DBUG: after the last round every thread writes its number into `last`, and main,
 * joining, asserts that thread 1 was not the last.
 *
 * cdpor-test
 * run: -DN=3 -DK=2 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DN=3 -DK=2 --algorithm source ; verdict=safe executions=1
 * run: -DN=4 -DK=3 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DN=3 -DK=2 --ordered-barriers ; verdict=safe executions=36 blocked=0
 * run: -DN=3 -DK=2 --ordered-barriers --algorithm source ; verdict=safe executions=36
 * run: -DN=3 -DK=3 --ordered-barriers ; verdict=safe executions=216 blocked=0
 * run: -DN=4 -DK=2 --ordered-barriers ; verdict=safe executions=576 blocked=0
 * run: -DN=2 -DK=2 --algorithm none ; verdict=safe executions=54
 * run: -DN=3 -DK=2 --algorithm classic ; verdict=safe
 * run: -DN=3 -DK=2 -DBUG --algorithm optimal ; verdict=error kind=assertion
 * run: -DN=2 -DK=2 -DBUG --algorithm none ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif
#ifndef K
#define K 2
#endif

static pthread_barrier_t barrier;
static int last;

static void *rounds(void *arg) {
    for (int r = 0; r < K; r++)
        pthread_barrier_wait(&barrier);
#ifdef BUG
    last = (int)(long)arg;
#endif
    return arg;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&barrier, 0, N);
    for (long i = 1; i < N; i++)
        pthread_create(&t[i], 0, rounds, (void *)i);
    rounds(0);
    for (int i = 1; i < N; i++)
        pthread_join(t[i], 0);
    assert(last != 1);
    return 0;
}
