/* Thread-specific data: each worker keeps a heap buffer under one key, whose destructor
 * runs in the worker when it exits (a return from its start routine or pthread_exit),
 * and adds the buffer's value to a total under a mutex; main, which returns from main,
 * runs no destructor. 2 executions: the orders of the destructors' critical sections.
 * A second key whose destructor sets the value again shows the rounds: it runs
 * PTHREAD_DESTRUCTOR_ITERATIONS times. Getting and setting a value read the registry
 * of keys, so they race with a deletion: with -DLEAK main deletes the key while the
 * workers may still use it, and a worker that gets its value after that gets NULL (its
 * check fails), or one whose destructor would have run does not add to the total.
 * (Classic DPOR, under which reads of the registry do not commute, runs thousands of
 * executions here.)
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: --algorithm source ; verdict=safe executions=2
 * run: -DLEAK ; verdict=error kind=assertion location=keys.c:46
 * run: -DLEAK --keep-going ; verdict=error executions=97 failing=68 errors=assertion@keys.c:46,assertion@keys.c:65
 * run: -DLEAK --keep-going --algorithm source ; verdict=error executions=100 failing=71
 */
#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

pthread_key_t buffer_key, again_key;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int total, rounds;

static void release(void *p) {
    pthread_mutex_lock(&lock);
    total += *(int *)p;
    pthread_mutex_unlock(&lock);
    free(p);
}

static void again(void *p) {
    rounds++;
    pthread_setspecific(again_key, p);
}

static void *worker(void *arg) {
    int *buf = malloc(sizeof *buf);
    *buf = (int)(long)arg;
    assert(pthread_getspecific(buffer_key) == NULL);
    pthread_setspecific(buffer_key, buf);
    assert(pthread_getspecific(buffer_key) == buf);
    if (arg == (void *)1) {
        pthread_setspecific(again_key, buf);
        pthread_exit(NULL);
    }
    return NULL;
}

int main(void) {
    pthread_key_create(&buffer_key, release);
    pthread_key_create(&again_key, again);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
#ifdef LEAK
    pthread_key_delete(buffer_key);
#endif
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(total == 3);
    assert(rounds == PTHREAD_DESTRUCTOR_ITERATIONS);
    return 0;
}
