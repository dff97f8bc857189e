/* A polling consumer whose producer increments the count before it writes the item: the
 * consumer (main) can see the count and read item[i] while it is still 0, so the sum
 * is short and the assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=polling_bad.c:38 errors=assertion@polling_bad.c:38 executions=6 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=polling_bad.c:38 errors=assertion@polling_bad.c:38
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=polling_bad.c:38 errors=assertion@polling_bad.c:38
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=polling_bad.c:38 errors=assertion@polling_bad.c:38
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
        atomic_fetch_add_explicit(&count, 1, memory_order_release); /* BUG: published early */
        item[i] = 10 * (i + 1);
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
