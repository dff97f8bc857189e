/* Two threads each increment a shared counter once without synchronization; main asserts
 * after joining both. An interleaving where both read 0 loses an update.
 *
 * cdpor-test
 * run: --keep-going --algorithm none    ; verdict=error kind=assertion executions=? failing=?
 */
#include <assert.h>
#include <pthread.h>

int x;

void *inc(void *arg) {
    (void)arg;
    x = x + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 2);
    return 0;
}
