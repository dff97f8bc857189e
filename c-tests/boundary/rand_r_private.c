/* rand_r keeps its state in the caller's seed: each thread with its own seed draws its
 * own sequence whatever the order. Safe, in one trace.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe executions=594
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

unsigned seeds[2] = {7, 7};
int drawn[2];

void *draw(void *arg) {
    long i = (long)arg;
    drawn[i] = rand_r(&seeds[i]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, draw, (void *)0);
    pthread_create(&b, 0, draw, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(drawn[0] == drawn[1]);
    return 0;
}
