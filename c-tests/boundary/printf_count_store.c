/* snprintf's %n stores how many characters it has written so far: a write into the
 * program's memory, made by the C library. A thread started before the call reads the
 * count and expects it set; the read can come first.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=printf_count_store.c:19
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=6 failing=5
 * run: -DJOIN_FIRST ; verdict=safe executions=1
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int prefix = -1;

static void *reader(void *arg) {
    (void)arg;
    assert(prefix == 3);
    return NULL;
}

int main(void) {
    char out[16];
    pthread_t t;
#ifdef JOIN_FIRST
    snprintf(out, sizeof out, "abc%ndef", &prefix);
    pthread_create(&t, NULL, reader, NULL);
#else
    pthread_create(&t, NULL, reader, NULL);
    snprintf(out, sizeof out, "abc%ndef", &prefix);
#endif
    pthread_join(t, NULL);
    return out[0] == 'a' ? 0 : 1;
}
