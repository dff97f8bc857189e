/* Each thread has its own errno value, but cdpor keeps it in the one location the C
 * library writes, so `&errno` is the same address in every thread: a program that stores
 * it where another thread could take it is refused by name rather than checked wrongly.
 * Taking it within a thread, even through a helper, is fine (-DLOCAL).
 *
 * cdpor-test
 * run: ; verdict=compile-error exit=2 contains="errno_address_stored.c:29: each thread has its own errno value"
 * run: -DLOCAL ; verdict=safe executions=1
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

int *published;

static void set_through(int *e, int v) { *e = v; }

void *other(void *arg) {
    (void)arg;
    errno = 5;
    assert(errno == 5);
    return 0;
}

int main(void) {
#ifdef LOCAL
    set_through(&errno, 3);
#else
    published = &errno;
#endif
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    pthread_join(t, 0);
    assert(errno == 3 || published);
    return 0;
}
