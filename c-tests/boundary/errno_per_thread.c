/* errno belongs to each thread (POSIX): a thread that sets it and reads it back sees its
 * own value whatever the others do to theirs, including the C library setting it in a
 * failed call (strtol overflow sets ERANGE). Safe in every interleaving.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=3
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

void *other(void *arg) {
    (void)arg;
    errno = 1;
    (void)strtol("99999999999999999999999", 0, 10);
    assert(errno == ERANGE);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    errno = 2;
    assert(errno == 2);
    pthread_join(t, 0);
    assert(errno == 2);
    return 0;
}
