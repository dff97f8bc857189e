/* Three threads each create and join one child; nothing is shared. Threads are named by
 * creator and rank (T1.1 is T1's first child), not numbered from one counter, so the
 * creations by different threads commute: one trace, as in Nidhugg and GenMC.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe executions=1
 * run: --algorithm classic ; verdict=safe
 */
#include <pthread.h>

void *leaf(void *arg) { return arg; }

void *parent(void *arg) {
    pthread_t child;
    pthread_create(&child, 0, leaf, arg);
    pthread_join(child, 0);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, parent, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
