/* A thread calls abort() when it observes the other thread's write: an abort error that
 * needs the writer to run first.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=abort location=abort_thread.c:24
 * run: --algorithm none ; verdict=error kind=abort location=abort_thread.c:24
 * run: --algorithm source ; verdict=error kind=abort
 * run: --algorithm classic ; verdict=error kind=abort
 */
#include <pthread.h>
#include <stdlib.h>

int x;

void *writer(void *arg) {
    (void)arg;
    x = 1;
    return 0;
}

void *checker(void *arg) {
    (void)arg;
    if (x == 1)
        abort(); /* the error is reported on this line */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, checker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
