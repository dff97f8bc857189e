/* atexit handlers run when main returns, in main, last registered first, while the
 * worker may still run. Main's handler asserts that the worker's write came first,
 * which fails when the handler reads before the worker writes: an assertion in a
 * handler, found by every algorithm. Three traces: the write before the read, after the
 * read (before the exit), or never. With
 * -DJOIN main joins first and the handlers always see it. With -DQUICK main ends with
 * quick_exit, which runs only at_quick_exit handlers (the assertion is one of those
 * then). With -DNOW main ends with _exit, which runs none: safe. With -DORDER two
 * handlers check that the later-registered one ran first. With -DLEAVE main ends with
 * pthread_exit: the last thread's exit would run the handlers in no thread, refused.
 *
 * cdpor-test
 * run: --keep-going ; verdict=error executions=3 failing=2 blocked=0 errors=assertion@atexit.c:32
 * run: --keep-going --algorithm source ; verdict=error executions=3 failing=2 errors=assertion@atexit.c:32
 * run: --keep-going --algorithm classic ; verdict=error failing=2 errors=assertion@atexit.c:32
 * run: --keep-going --algorithm none ; verdict=error errors=assertion@atexit.c:32
 * run: -DJOIN ; verdict=safe executions=1
 * run: -DQUICK --keep-going ; verdict=error executions=3 failing=2 errors=assertion@atexit.c:32
 * run: -DNOW ; verdict=safe executions=1
 * run: -DORDER -DJOIN ; verdict=safe executions=1
 * run: -DLEAVE ; verdict=unknown exit=2 contains="atexit handlers of a program whose main ended with pthread_exit"
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int done;
int order;

void check_done(void) {
    assert(done == 1);
}

void second(void) {
    assert(order == 0);
    order = 2;
}

void first(void) {
    assert(order == 2);
}

void *worker(void *arg) {
    (void)arg;
    done = 1;
    return NULL;
}

int main(void) {
#ifdef QUICK
    at_quick_exit(check_done);
#elif !defined ORDER
    atexit(check_done);
#else
    atexit(first);
    atexit(second);
#endif
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
#ifdef JOIN
    pthread_join(t, NULL);
#endif
#ifdef QUICK
    quick_exit(0);
#elif defined NOW
    _exit(0);
#elif defined LEAVE
    pthread_exit(NULL);
#endif
    return 0;
}
