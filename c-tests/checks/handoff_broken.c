/* A lock-free handoff written in the wrong order: the producer publishes `ready` before it
 * writes `data`. The consumer checks `ready` once (no spinning) and, if set, takes `data`.
 * main asserts the consumer saw either nothing (-1) or the real value 42.
 *
 * Traces (optimal): consumer reads ready before the producer sets it (1 trace, ok);
 * otherwise its read of data is before (fails: seen == 0) or after (ok) the write of data
 * -> 3 traces, 1 failing. none: 964 interleavings, 205 failing (enumerated).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=handoff_broken.c:43
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=3 blocked=0 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=964 failing=205
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

int data;
int ready;
int seen = -1;

void *producer(void *arg) {
    (void)arg;
    ready = 1; /* BUG: published before the data is written */
    data = 42;
    return 0;
}

void *consumer(void *arg) {
    (void)arg;
    if (ready)
        seen = data;
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    assert(seen == -1 || seen == 42); /* the error is reported on this line */
    return 0;
}
