/* A loop peeled by hand: the reader loads x, then waits in `while (a != 0) a = x;`. Its
 * value `a` only decides at the head whether it leaves, and each iteration takes it
 * afresh from x: an iteration that changed nothing waits, whatever it read (a memoryless
 * loop), and a first iteration that read x after the writer changed it since the load
 * is redundant (docs/reductions.md, "A memoryless loop waits after one idle iteration").
 * The writer stores 2..N, then 0 (the release), then, with -DBROKEN, N + 1, which the
 * reader's assertion can see.
 *
 * optimal, N=5: 6 complete executions (the load reads one of the five values before 0
 * and the first iteration reads 0, or the load reads 0), and 15 redundant ones (the
 * iteration read another value); with --all-retries, the oracle that compares the
 * loop's values as for any loop and runs every first iteration: 32, every subset of the
 * stores the reader's reads come between.
 *
 * cdpor-test
 * run: ; verdict=safe executions=6 blocked=0 stale_spins=15
 * run: --algorithm source ; verdict=safe executions=6 stale_spins=15
 * run: --algorithm classic ; verdict=safe
 * run: --all-retries ; verdict=safe executions=32
 * run: -DN=4 --algorithm none ; verdict=safe
 * run: -DN=4 --algorithm none --all-retries ; verdict=safe executions=1216
 * run: -DBROKEN ; verdict=error kind=assertion location=peeled.c:49
 * run: -DBROKEN -DN=4 --algorithm none --all-retries --keep-going ; verdict=error
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 5
#endif

int x = 1;

void *writer(void *arg) {
    for (int i = 2; i <= N; i++)
        x = i;
    x = 0;
#ifdef BROKEN
    x = N + 1;
#endif
    return arg;
}

void *reader(void *arg) {
    int a = x;
    while (a != 0)
        a = x;
#ifdef BROKEN
    assert(x == 0);
#endif
    return arg;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(r, 0);
    pthread_join(w, 0);
    return 0;
}
