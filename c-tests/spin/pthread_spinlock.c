/* POSIX spin locks: two threads add 1 to a counter under a pthread_spinlock_t, main sees
 * 2. A thread that finds the lock taken waits as for a mutex. With -DTRY the workers
 * take it with pthread_spin_trylock in a loop (a failed try changes nothing: an await).
 * With -DBROKEN one worker does not lock: an update can be lost. The lock sits between
 * two counters that only main touches, which must not make main's accesses conflict
 * with the lock (it is 4 bytes, not a mutex's 40).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DTRY --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DTRY --algorithm source ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=pthread_spinlock.c:55 errors=assertion@pthread_spinlock.c:55
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=pthread_spinlock.c:55 errors=assertion@pthread_spinlock.c:55
 */
#include <assert.h>
#include <pthread.h>

struct {
    int before;
    pthread_spinlock_t lock;
    int after;
} s;
int counter;

static void *worker(void *arg) {
    int locks = arg == 0;
#ifndef BROKEN
    locks = 1;
#endif
    if (locks) {
#ifdef TRY
        while (pthread_spin_trylock(&s.lock) != 0) {
        }
#else
        pthread_spin_lock(&s.lock);
#endif
    }
    counter = counter + 1;
    if (locks)
        pthread_spin_unlock(&s.lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_spin_init(&s.lock, PTHREAD_PROCESS_PRIVATE);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, (void *)1);
    s.before = s.after = 1;
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2 && s.before + s.after == 2);
    pthread_spin_destroy(&s.lock);
    return 0;
}
