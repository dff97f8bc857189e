/* Main polls `done` by taking and releasing a mutex each time round the loop; the worker
 * sets `done` under the same mutex. A turn that only took the mutex, read and freed it
 * again left the mutex as it found it: main waits there like a spin, and the execution
 * in which the worker then takes the mutex is redundant, covered by the one in which the
 * turn comes after the worker's critical section (ops::mutex::hold_change). One
 * execution, whatever --unroll; before, each turn counted toward --unroll and the run
 * ended cut (101 executions, incomplete). No assertion can fail: main reads done = 1
 * only after the worker wrote it, and then sees its data.
 *
 * cdpor-test
 * run: --unroll 3 --algorithm optimal ; verdict=safe executions=1 blocked=0 stale_spins=1
 * run: --unroll 3 --algorithm source ; verdict=safe executions=1
 * run: --unroll 3 --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=26
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done;
int data;

static void *worker(void *arg) {
    (void)arg;
    data = 7;
    pthread_mutex_lock(&m);
    done = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        int d = done;
        pthread_mutex_unlock(&m);
        if (d)
            break;
    }
    assert(data == 7);
    pthread_join(t, 0);
    return 0;
}
