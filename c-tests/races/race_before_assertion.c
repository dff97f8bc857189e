/* A data race in an execution that then fails an assertion is reported too: with
 * --keep-going both errors are listed, by every algorithm. T2 writes `data` only after
 * it saw T1's flag, and T3 reads it unsynchronized: the race exists only in the
 * executions where main's assertion fails. Without --races, only the assertion.
 *
 * cdpor-test
 * run: --races --keep-going ; verdict=error executions=3 failing=2 blocked=0 errors=assertion@race_before_assertion.c:46,data-race@race_before_assertion.c:34
 * run: --races --keep-going --algorithm source ; verdict=error errors=assertion@race_before_assertion.c:46,data-race@race_before_assertion.c:34
 * run: --races --keep-going --algorithm classic ; verdict=error errors=assertion@race_before_assertion.c:46,data-race@race_before_assertion.c:34
 * run: --keep-going ; verdict=error errors=assertion@race_before_assertion.c:46
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int data, copy;

void *raise_flag(void *arg) {
    (void)arg;
    atomic_store(&flag, 1);
    return 0;
}

void *write_data(void *arg) {
    (void)arg;
    if (atomic_load(&flag))
        data = 1;
    return 0;
}

void *read_data(void *arg) {
    (void)arg;
    copy = data;
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, raise_flag, 0);
    pthread_create(&b, 0, write_data, 0);
    pthread_create(&c, 0, read_data, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    assert(data == 0);
    return 0;
}
