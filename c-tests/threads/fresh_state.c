/* A thread that takes a joined thread's number starts afresh: its thread-local variable
 * holds the initializer's value, and its thread-specific value is NULL, whatever the
 * thread before it left there. 1 execution.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

__thread int mine = 7;
pthread_key_t key;
int destroyed;

static void destroy(void *v) {
    destroyed++;
    free(v);
}

static void *work(void *arg) {
    assert(mine == 7);
    assert(pthread_getspecific(key) == NULL);
    mine = (int)(long)arg;
    pthread_setspecific(key, malloc(4));
    return 0;
}

int main(void) {
    pthread_key_create(&key, destroy);
    for (long i = 0; i < 3; i++) {
        pthread_t t;
        pthread_create(&t, 0, work, (void *)i);
        pthread_join(t, 0);
    }
    assert(destroyed == 3);
    return 0;
}
