/* A thread busy-waits on a shared flag that nothing ever sets. Every iteration is a
 * visible load, so the single execution (the loads commute with main's events) runs into
 * --max-steps 200 and is cut: no error found, exploration incomplete (exit 3), 1 bounded.
 *
 * cdpor-test
 * run: --max-steps 200 ; verdict=incomplete exit=3 bounded=1
 * run: --max-steps 200 --algorithm source ; verdict=incomplete exit=3
 * run: --max-steps 200 --algorithm classic ; verdict=incomplete exit=3
 */
#include <pthread.h>

int flag;
int after;

void *waiter(void *arg) {
    (void)arg;
    while (flag == 0) {
    }
    after = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_join(t, 0);
    return 0;
}
