/* Calls a function that is declared but defined nowhere: compiling succeeds, linking fails.
 * cdpor reports a compile error (exit 2) that names the missing symbol.
 *
 * cdpor-test
 * run: ; verdict=compile-error exit=2 contains="the program does not link: c-tests/checks/bad_undefined_function.c:15: undefined reference to `frobnicate` (in `worker`)"
 */
#include <pthread.h>

int frobnicate(int);

int x;

void *worker(void *arg) {
    (void)arg;
    x = frobnicate(3);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
