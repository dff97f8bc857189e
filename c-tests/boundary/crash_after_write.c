/* A thread sets a flag, then dereferences a null pointer. The crash is an event of its
 * own, after the write: another thread may run in between and see the flag set, so the
 * assertion below is reachable too. --keep-going reports both errors, with every
 * algorithm.
 *
 * cdpor-test
 * run: ; verdict=error kind=crash location=crash_after_write.c:22
 * run: --keep-going ; verdict=error executions=4 blocked=0 errors=crash@crash_after_write.c:22,assertion@crash_after_write.c:28
 * run: --keep-going --algorithm source ; verdict=error errors=crash@crash_after_write.c:22,assertion@crash_after_write.c:28
 * run: --keep-going --algorithm classic ; verdict=error errors=crash@crash_after_write.c:22,assertion@crash_after_write.c:28
 * run: --keep-going --algorithm none ; verdict=error executions=123 failing=123 errors=crash@crash_after_write.c:22,assertion@crash_after_write.c:28
 */
#include <assert.h>
#include <pthread.h>

int flag;
int *volatile target;

void *faulty(void *arg) {
    (void)arg;
    flag = 1;
    *target = 3;
    return 0;
}

void *checker(void *arg) {
    (void)arg;
    assert(flag == 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, faulty, 0);
    pthread_create(&b, 0, checker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
