/* Main polls `done` by taking and releasing a mutex each time round the loop; the worker
 * sets `done` under the same mutex. Locking is an effect, so the loop is no await: each
 * iteration counts towards --unroll, and the executions in which main polls that many
 * times before the worker runs are cut. No assertion can fail (main reads done = 1 only
 * after the worker wrote it, and then sees its data), so the verdict is incomplete.
 *
 * cdpor-test
 * run: --unroll 3 --algorithm optimal ; verdict=incomplete bounded=1 executions=4 blocked=0
 * run: --unroll 3 --algorithm source ; verdict=incomplete bounded=1
 * run: --unroll 3 --algorithm classic ; verdict=incomplete bounded=1
 * run: --unroll 3 --algorithm none ; verdict=incomplete
 * run: --algorithm optimal ; verdict=incomplete bounded=1 executions=101 blocked=0
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
