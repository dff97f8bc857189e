/* Two workers each release the shared buffer when they finish with it: whichever
 * frees second frees it again, in both orders of the frees (2 executions, both
 * failing). With -DFIXED the last one out frees it (a counter under a mutex): 2
 * executions, the orders of the critical sections.
 *
 * cdpor-test
 * run: ; verdict=error kind=memory location=double_free.c:34 contains="double free: thread T2 at c-tests/memory/double_free.c:34 frees again a heap block of 32 bytes allocated by T0 at c-tests/memory/double_free.c:40 and freed by T1 at c-tests/memory/double_free.c:34"
 * run: --keep-going ; verdict=error executions=2 failing=2 blocked=0
 * run: --algorithm source --keep-going ; verdict=error executions=2 failing=2
 * run: --algorithm classic --keep-going ; verdict=error failing=8 errors=memory@double_free.c:34
 * run: -DFIXED ; verdict=safe executions=2
 * run: -DFIXED --algorithm source ; verdict=safe executions=2
 * run: --algorithm none --keep-going ; verdict=error executions=1545 failing=1545
 * run: -DFIXED --algorithm none ; verdict=safe executions=4652
 */
#include <pthread.h>
#include <stdlib.h>

char *buffer;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int users = 2;

void *worker(void *arg) {
    (void)arg;
#ifdef FIXED
    pthread_mutex_lock(&lock);
    int last = --users == 0;
    pthread_mutex_unlock(&lock);
    if (last)
        free(buffer);
#else
    (void)lock;
    (void)users;
    free(buffer);
#endif
    return NULL;
}

int main(void) {
    buffer = malloc(32);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
