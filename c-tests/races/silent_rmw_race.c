/* An atomic exchange that writes what memory holds already changes nothing, so for the
 * exploration it is a read (spinners' failed test-and-sets commute); but it is still a
 * write for C11's data races, which do not look at values. Here T1 exchanges 0 for 0
 * while T2 reads the same int without an atomic: a data race under --races. With
 * -DATOMIC_READ the read is atomic too, and there is no data race (with --races the
 * exchange is a write, so the two orders are two executions; without, one).
 *
 * cdpor-test
 * run: --races --algorithm optimal ; verdict=error kind=data-race
 * run: --races --algorithm source ; verdict=error kind=data-race
 * run: --races --algorithm classic ; verdict=error kind=data-race
 * run: --races --algorithm none ; verdict=error kind=data-race
 * run: -DATOMIC_READ --races --algorithm optimal ; verdict=safe executions=2
 * run: -DATOMIC_READ --races --algorithm none ; verdict=safe
 * run: --algorithm optimal ; verdict=safe executions=1
 */
#include <pthread.h>

int word;
int seen;

static void *swapper(void *arg) {
    (void)arg;
    __atomic_exchange_n(&word, 0, __ATOMIC_SEQ_CST);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
#ifdef ATOMIC_READ
    seen = __atomic_load_n(&word, __ATOMIC_SEQ_CST);
#else
    seen = word;
#endif
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, swapper, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
