/* A thread recurses without bound; each frame has a 1000-byte local array that is fully
 * written, so the frames cannot be optimised away and the thread's stack overflows. The
 * array never escapes, so its writes are not visible events: the thread reaches the
 * overflow without hitting --max-steps. cdpor must report a crash in that thread.
 * With -DVISIBLE each frame also writes a shared counter, a visible operation whose hook
 * runs on the thread's stack: the overflow is still the thread's, at that operation
 * (the runtime keeps room for itself below it), not a crash of the runtime.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=crash location=stack_overflow.c:24 contains="overflowed its stack"
 * run: -DVISIBLE ; verdict=error kind=crash location=stack_overflow.c:21 contains="overflowed its stack at"
 * run: -DVISIBLE --algorithm none ; verdict=error kind=crash location=stack_overflow.c:21 contains="in deep()"
 */
#include <pthread.h>

int shared;

int deep(int n) {
    char buf[1000];
#ifdef VISIBLE
    shared++;
#endif
    for (int i = 0; i < 1000; i++)
        buf[i] = (char)(n + i);
    if (n < 0) /* never: n only grows (the stack runs out long before it wraps) */
        return 0;
    return deep(n + 1) + buf[n % 1000];
}

void *recurse(void *arg) {
    (void)arg;
    shared = deep(0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, recurse, 0);
    pthread_join(t, 0);
    return 0;
}
