/* Two threads wait for `done` in the usual loop; main sets it and signals once where a
 * broadcast was needed. A signal wakes exactly one waiter (POSIX: "at least one", and
 * an implementation may wake just one), so the other may sleep forever and main's join
 * of it never returns: a deadlock. Which waiter the signal wakes is a choice the engine
 * explores; the report shows it ("cond signal, wakes T2 (choice 2 of 2)").
 *
 * none: 639 interleavings (a signal that finds both waiters counts each choice), 114 of
 * them deadlock (enumerated independently over this event model). With the broadcast it
 * needed (-DBROADCAST), every waiter wakes, rechecks `done` and leaves: safe.
 *
 * (Runs with --no-spurious-wakeups count the signal semantics alone; by default a wait
 * may also end without a signal, which adds executions.)
 *
 * cdpor-test
 * run: --keep-going ; verdict=error kind=deadlock executions=80 failing=38 blocked=0
 * run: -DBROADCAST ; verdict=safe executions=50 blocked=0
 * run: --no-spurious-wakeups ; verdict=error kind=deadlock contains="no signal woke it" location=signal_wakes_one.c:55
 * run: --no-spurious-wakeups --keep-going ; verdict=error kind=deadlock executions=10 failing=4 blocked=0
 * run: --no-spurious-wakeups --keep-going --algorithm source ; verdict=error kind=deadlock
 * run: --no-spurious-wakeups --keep-going --algorithm classic ; verdict=error kind=deadlock
 * run: --no-spurious-wakeups --keep-going --algorithm none ; verdict=error kind=deadlock executions=639 failing=114
 * run: --no-spurious-wakeups -DBROADCAST ; verdict=safe executions=10 blocked=0
 * run: --no-spurious-wakeups -DBROADCAST --algorithm source ; verdict=safe
 * run: --no-spurious-wakeups -DBROADCAST --algorithm classic ; verdict=safe
 * run: --no-spurious-wakeups -DBROADCAST --algorithm none ; verdict=safe executions=1722
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int done;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!done)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter, 0);
    pthread_create(&b, 0, waiter, 0);
    pthread_mutex_lock(&m);
    done = 1;
#ifdef BROADCAST
    pthread_cond_broadcast(&c);
#else
    pthread_cond_signal(&c);
#endif
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
