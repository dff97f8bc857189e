/* A shared pointer starts out pointing at a valid object; one thread clears it while another
 * loads it and writes through it. The write crashes (SIGSEGV on NULL) only in interleavings
 * where the clearing store comes before the load.
 * (No exact counts: the crash ends the program while other threads may still have events.)
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=crash location=null_deref.c:27
 * run: --algorithm none ; verdict=error kind=crash location=null_deref.c:27
 * run: --algorithm source ; verdict=error kind=crash
 * run: --algorithm classic ; verdict=error kind=crash
 */
#include <pthread.h>
#include <stddef.h>

int object;
int *ptr = &object;

void *clear(void *arg) {
    (void)arg;
    ptr = NULL;
    return 0;
}

void *use(void *arg) {
    (void)arg;
    int *q = ptr;
    *q = 7; /* the error is reported on this line */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, clear, 0);
    pthread_create(&b, 0, use, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
