/* Two threads each take both tokens of their own line with strtok, whose position is
 * shared: whichever thread calls second can continue in the other's line. Either
 * thread's assertion can fail, and main can continue in the worker's line after the
 * worker has exited, when the line is gone with its stack (a memory error).
 *
 * cdpor-test
 * run: --keep-going ; verdict=error executions=12 failing=10 errors=assertion@strtok_both_threads.c:19,assertion@strtok_both_threads.c:29,memory@strtok_both_threads.c:28
 * run: --keep-going --algorithm none ; verdict=error executions=254 failing=102 errors=assertion@strtok_both_threads.c:19,assertion@strtok_both_threads.c:29,memory@strtok_both_threads.c:28
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
