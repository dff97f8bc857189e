/* Each thread wants to add 1 to a counter but uses trylock and silently skips the
 * increment when the mutex is busy ("someone else is already counting"). If one thread
 * tries while the other holds the lock, an increment is lost.
 *
 * Traces (optimal): one thread's whole section before the other's (2 traces, ok), or the
 * second trylock falls inside the first thread's section and fails (2 traces, failing)
 * -> 4 executions, 2 failing. none: 3069 interleavings, 767 failing (enumerated).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=trylock_skip_bug.c:37
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=4 blocked=0 failing=2
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=3069 failing=767
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *add(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0) {
        count = count + 1;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add, 0);
    pthread_create(&b, 0, add, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2); /* the error is reported on this line */
    return 0;
}
