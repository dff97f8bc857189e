/* A thread reads the global pthread_t that main fills in with its second
 * pthread_create, to join that thread. POSIX stores the id only when pthread_create
 * returns, and the first thread may run before that: it then joins with an id that is
 * still 0. The store is the runtime's, so it is an event of its own that the read races
 * with.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=pthread_t_read_early.c:21
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=26 failing=20
 */
#include <assert.h>
#include <pthread.h>

pthread_t second;

void *first_thread(void *arg) {
    (void)arg;
    assert(second != 0);
    return 0;
}

void *second_thread(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, first_thread, 0);
    pthread_create(&second, 0, second_thread, 0);
    pthread_join(t, 0);
    pthread_join(second, 0);
    return 0;
}
