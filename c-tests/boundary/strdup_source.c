/* strdup reads its source string: a copy made while another thread rewrites the source
 * may see the old or the new text. The version that copies after the join is safe.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=strdup_source.c:31
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2 blocked=0
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=13 failing=6
 * run: -DJOIN_FIRST ; verdict=safe executions=1
 * run: -DJOIN_FIRST --algorithm none ; verdict=safe executions=3
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

char text[8] = "old";

void *rewrite(void *arg) {
    (void)arg;
    strncpy(text, "new", sizeof text);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, rewrite, 0);
#ifdef JOIN_FIRST
    pthread_join(t, 0);
#endif
    char *copy = strdup(text);
    assert(strcmp(copy, "new") == 0);
#ifndef JOIN_FIRST
    pthread_join(t, 0);
#endif
    free(copy);
    return 0;
}
