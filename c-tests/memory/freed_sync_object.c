/* A synchronization object is memory like any other: a mutex (or, with -DSEM, a
 * semaphore) that lives in a heap block is gone once another thread frees the block.
 * The worker frees the shared object; main, which kept a pointer to it, locks the mutex
 * inside it: a use after free in every execution where the free comes first (the
 * worker is joined first, so in all). With -DFIXED main locks it before the worker may
 * run and destroys nothing afterwards: no error.
 *
 * cdpor-test
 * run: ; verdict=error kind=memory location=freed_sync_object.c:45 contains="use after free" executions=1
 * run: --algorithm none ; verdict=error kind=memory location=freed_sync_object.c:45
 * run: -DSEM ; verdict=error kind=memory location=freed_sync_object.c:41 contains="use after free"
 * run: -DFIXED ; verdict=safe executions=1
 * run: -DFIXED --algorithm none ; verdict=safe
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

struct shared {
    pthread_mutex_t lock;
    sem_t ready;
    int value;
};

static struct shared *obj;

static void *worker(void *arg) {
    free(obj);
    return arg;
}

int main(void) {
    pthread_t t;
    obj = malloc(sizeof *obj);
    pthread_mutex_init(&obj->lock, 0);
    sem_init(&obj->ready, 0, 1);
    struct shared *mine = obj;
#ifdef SEM
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    sem_wait(&mine->ready);
#elif !defined(FIXED)
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    pthread_mutex_lock(&mine->lock);
    pthread_mutex_unlock(&mine->lock);
#else
    pthread_mutex_lock(&mine->lock);
    pthread_mutex_unlock(&mine->lock);
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
#endif
    return 0;
}
