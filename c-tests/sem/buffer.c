/* A bounded buffer of SLOTS places guarded by two counting semaphores (free places, full
 * places) and a mutex; one producer puts ITEMS numbers 1..ITEMS, one consumer takes them
 * and checks their order and sum. Safe. With -DOVERTAKE the consumer takes one item more
 * than is ever put: a deadlock. With -DNOLOCK a second producer puts 10 without the
 * mutex: two puts can pick the same place, and the consumer then takes an item twice or
 * a place never written, so the sum is wrong. (`none` cannot finish that one: three
 * threads, too many interleavings.)
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=16 blocked=0
 * run: --algorithm source ; verdict=safe executions=16
 * run: --algorithm classic ; verdict=safe
 * run: -DITEMS=2 --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: -DITEMS=2 --algorithm none ; verdict=safe
 * run: -DITEMS=2 -DSLOTS=1 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DITEMS=2 -DSLOTS=1 --algorithm none ; verdict=safe
 * run: -DITEMS=2 -DOVERTAKE --algorithm optimal ; verdict=error kind=deadlock
 * run: -DITEMS=2 -DOVERTAKE --algorithm none ; verdict=error kind=deadlock
 * run: -DITEMS=1 -DNOLOCK --keep-going --algorithm optimal ; verdict=error kind=assertion location=buffer.c:87 errors=assertion@buffer.c:87 executions=86 blocked=0
 * run: -DITEMS=1 -DNOLOCK --keep-going --algorithm source ; verdict=error kind=assertion location=buffer.c:87 errors=assertion@buffer.c:87
 * run: -DITEMS=1 -DNOLOCK --keep-going --algorithm classic ; verdict=error kind=assertion location=buffer.c:87 errors=assertion@buffer.c:87
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

#ifndef SLOTS
#define SLOTS 2
#endif
#ifndef ITEMS
#define ITEMS 3
#endif

sem_t free_slots, full_slots;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int buf[SLOTS], head, tail;

static void put(int v) {
    sem_wait(&free_slots);
#ifndef NOLOCK
    pthread_mutex_lock(&m);
#endif
    buf[tail] = v;
    tail = (tail + 1) % SLOTS;
#ifndef NOLOCK
    pthread_mutex_unlock(&m);
#endif
    sem_post(&full_slots);
}

static int take(void) {
    sem_wait(&full_slots);
    pthread_mutex_lock(&m);
    int v = buf[head];
    head = (head + 1) % SLOTS;
    pthread_mutex_unlock(&m);
    sem_post(&free_slots);
    return v;
}

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= ITEMS; i++)
        put(i);
    return 0;
}

#ifdef NOLOCK
static void *second(void *arg) {
    (void)arg;
    put(10);
    return 0;
}
#endif

int main(void) {
    pthread_t p;
    sem_init(&free_slots, 0, SLOTS);
    sem_init(&full_slots, 0, 0);
    pthread_create(&p, 0, producer, 0);
#ifdef NOLOCK
    pthread_t q;
    pthread_create(&q, 0, second, 0);
    int sum = 0;
    for (int i = 0; i < ITEMS + 1; i++)
        sum += take();
    assert(sum == ITEMS * (ITEMS + 1) / 2 + 10);
    pthread_join(q, 0);
#else
    int n = ITEMS;
#ifdef OVERTAKE
    n++;
#endif
    int sum = 0, last = 0;
    for (int i = 0; i < n; i++) {
        int v = take();
        assert(v == last + 1);
        last = v;
        sum += v;
    }
    assert(sum == ITEMS * (ITEMS + 1) / 2);
#endif
    pthread_join(p, 0);
    return 0;
}
