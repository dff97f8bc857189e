/* A thread busy-waits on a shared flag that nothing ever sets. Its second look at the
 * flag finds what the first found and nothing wrote it since: the loop waits for a write
 * that no thread will make, while main waits to join it, which is a livelock (one
 * execution: the load commutes with main's events). Under --svcomp it is no error.
 *
 * cdpor-test
 * run: --max-steps 200 ; verdict=error kind=livelock location=spin_never_set.c:20 executions=1 messages="spins in the loop"
 * run: --algorithm source ; verdict=error kind=livelock executions=1
 * run: --algorithm classic ; verdict=error kind=livelock executions=1
 * run: --algorithm none ; verdict=error kind=livelock executions=1
 * run: --svcomp ; verdict=safe executions=1
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
