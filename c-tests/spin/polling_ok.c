/* A polling consumer: the producer writes item[i] and then publishes it by incrementing
 * an atomic count; the consumer (main) spins until count reaches i + 1 before reading
 * item[i]. Every item is written before the count that covers it: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define ITEMS 2

int item[ITEMS];
atomic_int count;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        item[i] = 10 * (i + 1);
        atomic_fetch_add_explicit(&count, 1, memory_order_release);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    int sum = 0;
    for (int i = 0; i < ITEMS; i++) {
        while (atomic_load_explicit(&count, memory_order_acquire) <= i) {
        }
        sum += item[i];
    }
    assert(sum == 30);
    pthread_join(t, 0);
    return 0;
}
