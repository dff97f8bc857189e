/* Two threads (three with -DTHREE) call pthread_once on one control: whichever comes
 * first runs the initializer, the others wait until it has returned, so each sees the
 * table filled; any of them can be the one that runs it. With -DFLAG the "once" is a
 * plain flag checked and set without synchronization: both threads can initialize. With
 * -DC11 the threads use C11's call_once instead.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DTHREE --algorithm optimal ; verdict=safe executions=3 blocked=0
 * run: -DTHREE --algorithm source ; verdict=safe
 * run: -DC11 --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DC11 --algorithm none ; verdict=safe
 * run: -DFLAG --keep-going --algorithm optimal ; verdict=error kind=assertion location=init.c:46 errors=assertion@init.c:46
 * run: -DFLAG --keep-going --algorithm source ; verdict=error kind=assertion location=init.c:46 errors=assertion@init.c:46
 * run: -DFLAG --keep-going --algorithm classic ; verdict=error kind=assertion location=init.c:46 errors=assertion@init.c:46
 * run: -DFLAG --keep-going --algorithm none ; verdict=error kind=assertion location=init.c:46 errors=assertion@init.c:46
 */
#include <assert.h>
#include <pthread.h>
#ifdef C11
#include <threads.h>
once_flag once = ONCE_FLAG_INIT;
#else
pthread_once_t once = PTHREAD_ONCE_INIT;
#endif
int table[2], inits;
#ifdef FLAG
int started;
#endif

static void init(void) {
    inits = inits + 1;
    table[0] = 1;
    table[1] = 2;
}

static void use(void) {
#ifdef FLAG
    if (!started) {
        started = 1;
        init();
    }
    assert(inits == 1);
#elif defined(C11)
    call_once(&once, init);
    assert(inits == 1 && table[0] + table[1] == 3);
#else
    pthread_once(&once, init);
    assert(inits == 1 && table[0] + table[1] == 3);
#endif
}

static void *worker(void *arg) {
    (void)arg;
    use();
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, worker, 0);
#ifdef THREE
    pthread_t b;
    pthread_create(&b, 0, worker, 0);
#endif
    use();
    pthread_join(a, 0);
#ifdef THREE
    pthread_join(b, 0);
#endif
    return 0;
}
