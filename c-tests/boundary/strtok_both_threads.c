/* Two threads each take both tokens of their own line with strtok, whose position is
 * shared: whichever thread calls second can continue in the other's line. Either
 * thread's assertion can fail.
 *
 * cdpor-test
 * run: --keep-going ; verdict=error errors=assertion@strtok_both_threads.c:18,assertion@strtok_both_threads.c:28
 * run: --keep-going --algorithm none ; verdict=error errors=assertion@strtok_both_threads.c:18,assertion@strtok_both_threads.c:28
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

static void *parser(void *arg) {
    (void)arg;
    char line[] = "x,y";
    char *a = strtok(line, ",");
    char *b = strtok(NULL, ",");
    assert(a && b && *b == 'y');
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, parser, NULL);
    char line[] = "a,b";
    char *a = strtok(line, ",");
    char *b = strtok(NULL, ",");
    assert(a && b && *b == 'b');
    pthread_join(t, NULL);
    return 0;
}
