/* l64a returns a static buffer that the next call, from any thread, overwrites, and
 * cdpor does not model it: main's text may change under it when T1 calls l64a too, an
 * order that is not explored. The program is not called safe in silence: l64a is named
 * in a warning, as is any function that POSIX lists as keeping such state.
 *
 * cdpor-test
 * run: ; verdict=safe warns=l64a
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void *other(void *arg) {
    (void)arg;
    (void)l64a(12345);
    return 0;
}

int main(void) {
    pthread_t t;
    char *text = l64a(7);
    pthread_create(&t, 0, other, 0);
    int same = text[0] == '5';
    pthread_join(t, 0);
    return !same;
}
