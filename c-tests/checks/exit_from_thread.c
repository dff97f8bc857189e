/* A thread calls exit(0): that ends the whole program normally, in every interleaving.
 * main joins that thread, which never returns, so the failing assert after the join is
 * unreachable. Safe; and the thread that is blocked in pthread_join when the program exits
 * is not a deadlock.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe exit=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int x;

void *quitter(void *arg) {
    (void)arg;
    x = 1;
    exit(0);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, quitter, 0);
    x = 2;
    pthread_join(t, 0);
    assert(0 && "unreachable: the thread never returns");
    return 0;
}
