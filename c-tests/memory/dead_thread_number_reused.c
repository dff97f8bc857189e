/* A thread publishes the address of its local (or, -DTLS, of its thread-local
 * variable) and exits; main joins it and starts another thread, which takes the
 * finished thread's number (and its slots). Main's read through the published pointer
 * is still a use of the finished thread's memory: each thread of a number starts its
 * stack and its thread-local block elsewhere, so the old bytes are in neither. Reading
 * the second thread's own variable instead is fine (-DOWN).
 *
 * cdpor-test
 * run: ; verdict=error kind=memory location=dead_thread_number_reused.c:50 contains="after T1 exited"
 * run: --keep-going --algorithm none ; verdict=error errors=memory@dead_thread_number_reused.c:50
 * run: -DTLS ; verdict=error kind=memory location=dead_thread_number_reused.c:50 contains="thread-local variable"
 * run: -DOWN ; verdict=safe
 * run: -DOWN -DTLS --algorithm none ; verdict=safe
 */
#include <pthread.h>
#include <semaphore.h>

int *published;
sem_t ready, done;
_Thread_local int mine = 7;

void *first(void *arg) {
    (void)arg;
    int local = 7;
#ifdef TLS
    published = &mine;
#else
    published = &local;
#endif
    return 0;
}

void *second(void *arg) {
    (void)arg;
    int local = 7;
#ifdef OWN
#ifdef TLS
    published = &mine;
#else
    published = &local;
#endif
#endif
    sem_post(&ready);
    sem_wait(&done);
    return (void *)(long)local;
}

static int peek(void) {
    sem_wait(&ready);
    int v = *published;
    sem_post(&done);
    return v;
}

int main(void) {
    pthread_t t;
    sem_init(&ready, 0, 0);
    sem_init(&done, 0, 0);
    pthread_create(&t, 0, first, 0);
    pthread_join(t, 0);
    pthread_create(&t, 0, second, 0);
    int v = peek();
    pthread_join(t, 0);
    return v != 7;
}
