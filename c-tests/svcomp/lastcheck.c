/* A checker thread, created first, asserts that fewer than N workers have added
 * their one to a shared count; each worker adds with a plain read and write. The
 * assertion fails only when every worker runs its read and write without another
 * worker between them, all before the checker looks: with N workers, exploration
 * meets that late. A probe (main creates them all, then the youngest thread first,
 * each to its end) meets it at once.
 *
 * cdpor-test
 * run: --probes 64 --max-executions 200 ; verdict=error kind=assertion location=lastcheck.c:23
 * run: --max-executions 200 ; verdict=incomplete
 * run: --svcomp ; verdict=error kind=assertion location=lastcheck.c:23
 */
#include <assert.h>
#include <pthread.h>

#define N 12

volatile int count;

static void *checker(void *arg) {
    (void)arg;
    int seen = count;
    assert(seen < N);
    return 0;
}

static void *worker(void *arg) {
    (void)arg;
    int t = count;
    count = t + 1;
    return 0;
}

int main(void) {
    pthread_t c, w[N];
    pthread_create(&c, 0, checker, 0);
    for (int i = 0; i < N; i++)
        pthread_create(&w[i], 0, worker, 0);
    return 0;
}
