/* One thread copies a name into a shared buffer with strcpy while another reads its
 * length with strlen. The library calls touch the buffer's bytes, and these accesses are
 * events: the reader may see the old name or the new one. With the reader after the
 * join (-DJOIN_FIRST) it always sees the new name; and strings in buffers the other
 * thread never touches do not race: `other` is measured in parallel without effect.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=strcpy_shared.c:37
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=8 failing=3
 * run: -DJOIN_FIRST ; verdict=safe executions=1 blocked=0
 * run: -DJOIN_FIRST --algorithm source ; verdict=safe executions=1
 * run: -DJOIN_FIRST --algorithm none ; verdict=safe executions=6
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

char name[16] = "anon";
char other[16] = "bob";

void *rename_it(void *arg) {
    (void)arg;
    strcpy(name, "alice");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, rename_it, 0);
#ifdef JOIN_FIRST
    assert(strlen(other) == 3);
    pthread_join(t, 0);
#endif
    assert(strlen(name) == 5);
#ifndef JOIN_FIRST
    pthread_join(t, 0);
#endif
    return 0;
}
