/* A thread's local array larger than its stack (8 MiB) would land below the stack's
 * guard, in another thread's stack: cdpor checks such a frame before it is allocated,
 * and the thread overflows its stack there, in a step of its own after its write of
 * the flag, so main's assertion that the flag is still clear fails in some
 * interleavings too. A variable-length array is checked likewise (-DVLA). With 1 MiB,
 * the thread does not overflow (-DSMALL).
 *
 * cdpor-test
 * run: ; verdict=error location=large_frame.c:37 contains=overflowed
 * run: --keep-going ; verdict=error executions=4 blocked=0 errors=crash@large_frame.c:37,assertion@large_frame.c:51
 * run: --keep-going --algorithm none ; verdict=error executions=8 errors=crash@large_frame.c:37,assertion@large_frame.c:51
 * run: -DVLA --keep-going ; verdict=error executions=4 blocked=0 errors=crash@large_frame.c:33,assertion@large_frame.c:51
 * run: -DVLA --keep-going --algorithm source ; verdict=error errors=crash@large_frame.c:33,assertion@large_frame.c:51
 * run: -DVLA --keep-going --algorithm none ; verdict=error errors=crash@large_frame.c:33,assertion@large_frame.c:51
 * run: -DSMALL --keep-going ; verdict=error executions=2 failing=1 errors=assertion@large_frame.c:51
 * run: -DSMALL -DVLA --keep-going --algorithm classic ; verdict=error errors=assertion@large_frame.c:51
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

#ifdef SMALL
#define BYTES (1 << 20)
#else
#define BYTES (12 << 20)
#endif

int bytes = BYTES;
int flag, last;

static int fill(void) {
#ifdef VLA
    char buf[bytes];
#else
    char buf[BYTES];
#endif
    memset(buf, 1, (size_t)bytes);
    return buf[bytes - 1];
}

void *worker(void *arg) {
    (void)arg;
    flag = 1;
    last = fill();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    assert(flag == 0);
    pthread_join(t, 0);
    assert(last == 1);
    return 0;
}
