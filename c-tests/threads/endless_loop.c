/* A thread that computes for ever on its own locals (`for (;;) n = n * 3 + 1;`, n
 * volatile so that the compiler keeps the loop's work): a loop
 * that cannot be left, makes no event and cannot fault. Natively the process ends when
 * main returns, whatever that thread is doing; so here: the thread waits for good after
 * its loop's first iteration, and main's return ends the program. With -DJOIN main joins
 * it: the program never ends, a livelock. With -DCHECK the thread first checks a shared
 * flag that main sets, and fails in the executions where main set it first. With -DDIV the
 * loop divides, which can trap: not such a loop, so the thread runs until
 * --exec-timeout stops the run, as any long computation would.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm none ; verdict=safe executions=1
 * run: -DJOIN ; verdict=error kind=livelock location=endless_loop.c:35
 * run: -DJOIN --svcomp ; verdict=safe executions=1
 * run: -DCHECK --keep-going ; verdict=error kind=assertion location=endless_loop.c:29 executions=2 failing=1
 * run: -DCHECK --keep-going --algorithm none ; verdict=error kind=assertion location=endless_loop.c:29 failing=1
 * run: -DDIV --exec-timeout 1 ; verdict=unknown exit=2 contains="thread T1 ran without a visible operation"
 */
#include <assert.h>
#include <pthread.h>

int flag;

static void *compute(void *arg) {
    volatile unsigned long n = (unsigned long)arg;
#ifdef CHECK
    int seen = flag;
    assert(!seen);
#endif
    for (;;) {
#ifdef DIV
        n = n / (n | 1) + 7;
#else
        n = n * 3 + 1;
#endif
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, compute, (void *)5);
#ifdef CHECK
    flag = 1;
#endif
#ifdef JOIN
    pthread_join(t, 0);
#endif
    return 0;
}
