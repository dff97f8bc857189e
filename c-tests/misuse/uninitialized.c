/* A semaphore and a barrier have no static initializer: using one that was never
 * initialized is a misuse, even when it is a zeroed global. Correctly main initializes
 * both before it creates the worker, which posts once and meets main at the barrier
 * (whose result neither uses, and whose arrivals commute: 1 execution).
 * LATE_SEM: main initializes the semaphore only after creating the worker, so the
 * worker's post can come first (it races with the init: 2 executions, one a misuse).
 * NO_BARRIER: the barrier is never initialized. DESTROY: main destroys the barrier
 * instead of waiting at it: while the worker waits at it, or before the worker uses it.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe executions=21
 * run: -DLATE_SEM ; verdict=error kind=misuse location=uninitialized.c:27 contains="uses s, a semaphore that was never initialized"
 * run: -DLATE_SEM --algorithm none ; verdict=error kind=misuse location=uninitialized.c:27
 * run: -DLATE_SEM --keep-going ; verdict=error kind=misuse executions=2
 * run: -DNO_BARRIER ; verdict=error kind=misuse contains="a barrier that was never initialized"
 * run: -DDESTROY --keep-going ; verdict=error kind=misuse executions=2
 * run: -DDESTROY --keep-going --algorithm none ; verdict=error kind=misuse executions=7
 */
#include <pthread.h>
#include <semaphore.h>

sem_t s;
pthread_barrier_t b;

static void *worker(void *arg) {
    sem_post(&s);
    pthread_barrier_wait(&b);
    return arg;
}

int main(void) {
    pthread_t t;
#ifndef LATE_SEM
    sem_init(&s, 0, 0);
#endif
#ifndef NO_BARRIER
    pthread_barrier_init(&b, 0, 2);
#endif
    pthread_create(&t, 0, worker, 0);
#ifdef LATE_SEM
    sem_init(&s, 0, 0);
#endif
    sem_wait(&s);
#ifdef DESTROY
    pthread_barrier_destroy(&b);
#else
    pthread_barrier_wait(&b);
#endif
    pthread_join(t, 0);
    sem_destroy(&s);
    pthread_barrier_destroy(&b);
    return 0;
}
