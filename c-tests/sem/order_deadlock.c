/* Two threads each take two semaphores of count 1, in opposite orders: each can hold one
 * and wait for the other, a deadlock that the report shows as two waits on semaphores.
 * With -DSAME_ORDER they take them in the same order: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=deadlock contains="T0 waits on semaphore b, whose count is 0"
 * run: --algorithm none ; verdict=error kind=deadlock
 * run: --keep-going --algorithm optimal ; verdict=error kind=deadlock errors=deadlock@order_deadlock.c:39 executions=3 blocked=0
 * run: -DSAME_ORDER --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DSAME_ORDER --algorithm source ; verdict=safe
 * run: -DSAME_ORDER --algorithm classic ; verdict=safe
 * run: -DSAME_ORDER --algorithm none ; verdict=safe
 */
#include <pthread.h>
#include <semaphore.h>

sem_t a, b;

static void *other(void *arg) {
    (void)arg;
#ifdef SAME_ORDER
    sem_wait(&a);
    sem_wait(&b);
#else
    sem_wait(&b);
    sem_wait(&a);
#endif
    sem_post(&a);
    sem_post(&b);
    return 0;
}

int main(void) {
    pthread_t t;
    sem_init(&a, 0, 1);
    sem_init(&b, 0, 1);
    pthread_create(&t, 0, other, 0);
    sem_wait(&a);
    sem_wait(&b);
    sem_post(&b);
    sem_post(&a);
    pthread_join(t, 0);
    return 0;
}
