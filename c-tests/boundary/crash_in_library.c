/* The worker measures a name main publishes only after starting it: strlen(NULL)
 * crashes inside the C library. The report places the crash at the call in the program.
 *
 * cdpor-test
 * run: ; verdict=error kind=crash location=crash_in_library.c:18 contains=strlen()
 * run: --keep-going ; verdict=error kind=crash executions=3 failing=2
 * run: --keep-going --algorithm none ; verdict=error kind=crash executions=10 failing=9
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char *name;

static void *worker(void *arg) {
    (void)arg;
    char *n = name;
    return (void *)strlen(n);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    name = strdup("bob");
    pthread_join(t, NULL);
    free(name);
    return 0;
}
