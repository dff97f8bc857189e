/* One thread copies a name into a shared buffer with strcpy while another reads its
 * length with strlen. The library calls touch the buffer's bytes, and these accesses are
 * events: the reader may see the old name or the new one.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=strcpy_shared.c:27
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=8 failing=3
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

char name[16] = "anon";

void *rename_it(void *arg) {
    (void)arg;
    strcpy(name, "alice");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, rename_it, 0);
    assert(strlen(name) == 5);
    pthread_join(t, 0);
    return 0;
}
