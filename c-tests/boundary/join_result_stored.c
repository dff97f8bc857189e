/* pthread_join stores the thread's result through its retval pointer: a store of the
 * runtime's, made when the join returns. Another thread that reads the same variable
 * without synchronisation may see it before or after.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=join_result_stored.c:19
 * run: --keep-going ; verdict=error kind=assertion executions=2 failing=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=56 failing=2
 */
#include <assert.h>
#include <pthread.h>

void *result;

void *reader(void *arg) {
    (void)arg;
    assert(result == 0);
    return 0;
}

void *worker(void *arg) {
    (void)arg;
    return (void *)42;
}

int main(void) {
    pthread_t r, w;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, worker, 0);
    pthread_join(w, &result);
    pthread_join(r, 0);
    return 0;
}
