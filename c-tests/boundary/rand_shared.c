/* rand() keeps its state in the C library, shared by all threads: two threads that
 * each draw a number get the first and the second of the sequence in either order.
 * Asserting which one a thread gets is a bug the order of the calls exposes.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=rand_shared.c:32
 * run: --keep-going ; verdict=error kind=assertion executions=2 failing=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=10 failing=9
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int drawn;

void *draw(void *arg) {
    (void)arg;
    drawn = rand();
    return 0;
}

int main(void) {
    srand(7);
    int first = rand();
    srand(7);
    pthread_t t;
    pthread_create(&t, 0, draw, 0);
    int mine = rand();
    pthread_join(t, 0);
    assert(mine == first);
    return 0;
}
