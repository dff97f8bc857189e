/* Two players pass a ball ROUNDS times each in atomic steps; a pass counts when it
 * comes from the other player. Main looks at the count once, without waiting: the
 * count reaches 2*ROUNDS only when the players strictly alternate from the first pass
 * and main looks last, one interleaving of thousands, which exploration in depth-first
 * order meets late. A probe (the players in turn, main last) meets it at once; with
 * -DSAFE the count is checked against a value it cannot reach.
 *
 * cdpor-test
 * run: --probes 64 --max-executions 200 ; verdict=error kind=assertion location=pingpong.c:44
 * run: --max-executions 200 ; verdict=incomplete
 * run: --svcomp ; verdict=error kind=assertion location=pingpong.c:44
 * run: -DSAFE --probes 64 --max-executions 200 ; verdict=incomplete
 */
#include <assert.h>
#include <pthread.h>

#define ROUNDS 8

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int holder, passes;

static void *player(void *arg) {
    int me = (int)(long)arg;
    for (int k = 0; k < ROUNDS; k++) {
        __VERIFIER_atomic_begin();
        if (holder != me)
            passes++;
        holder = me;
        __VERIFIER_atomic_end();
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, player, (void *)1L);
    pthread_create(&b, 0, player, (void *)2L);
    __VERIFIER_atomic_begin();
    int seen = passes;
    __VERIFIER_atomic_end();
#ifndef SAFE
    assert(seen < 2 * ROUNDS);
#else
    assert(seen <= 2 * ROUNDS);
#endif
    return 0;
}
