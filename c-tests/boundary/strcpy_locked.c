/* strcpy_shared.c with the reader waiting for the writer (join) first: the reader always
 * sees the new name. And strings in buffers the other thread never touches do not make
 * the reads race: `other` is copied and measured in parallel without effect.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe executions=1
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
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
    assert(strlen(other) == 3);
    pthread_join(t, 0);
    assert(strlen(name) == 5);
    return 0;
}
