/* sscanf writes through its pointer arguments, which cdpor does not model: the shared
 * `value` it fills in is named in a warning (once, with the call's place) and in the
 * JSON, instead of being silently left out. The exploration itself goes on.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 warns=sscanf
 */
#include <pthread.h>
#include <stdio.h>

int value;

void *parse(void *arg) {
    (void)arg;
    sscanf("42", "%d", &value);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, parse, 0);
    pthread_join(t, 0);
    return 0;
}
