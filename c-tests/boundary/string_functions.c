/* A writer appends to a shared message with strcat, another rewrites it with sprintf;
 * a reader compares and searches it with strcmp, strncmp, strchr, strrchr, strstr, memcmp
 * and memchr, and parses a number out of it with atoi. Each check holds only before or
 * only after the writers' calls, whose bytes are events: every assertion below can fail.
 * (none: 1554599 interleavings reach the same six errors; too many for every run.)
 *
 * cdpor-test
 * run: --keep-going ; verdict=error kind=assertion executions=80 blocked=0 errors=assertion@string_functions.c:34,assertion@string_functions.c:35,assertion@string_functions.c:36,assertion@string_functions.c:37,assertion@string_functions.c:38,assertion@string_functions.c:39
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion errors=assertion@string_functions.c:34,assertion@string_functions.c:35,assertion@string_functions.c:36,assertion@string_functions.c:37,assertion@string_functions.c:38,assertion@string_functions.c:39
 * run: --keep-going --algorithm source ; verdict=error kind=assertion errors=assertion@string_functions.c:34,assertion@string_functions.c:35,assertion@string_functions.c:36,assertion@string_functions.c:37,assertion@string_functions.c:38,assertion@string_functions.c:39
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char msg[64] = "id=7";

void *writer(void *arg) {
    (void)arg;
    strcat(msg, ";x");
    return 0;
}

void *counter(void *arg) {
    (void)arg;
    sprintf(msg + 3, "%d", 42);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    assert(strcmp(msg, "id=7") == 0 || strchr(msg, ';') != 0 || strncmp(msg, "id=42", 5) == 0);
    assert(strrchr(msg, 'x') == 0);
    assert(strstr(msg, ";x") == 0);
    assert(memchr(msg, ';', 8) == 0);
    assert(memcmp(msg, "id=7", 5) == 0 || msg[3] == '4');
    assert(atoi(msg + 3) != 42);
    return 0;
}

int main(void) {
    pthread_t w, c, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&c, 0, counter, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(c, 0);
    pthread_join(r, 0);
    return 0;
}
