/* Main counts its turns in a shared variable while it waits for the watcher's flag; the
 * watcher reads the count, then sets the flag. Every turn writes, so the loop is no
 * await, and --unroll cuts it: incomplete. Whether main's loop counts toward the bound
 * must not depend on whether the watcher has finished (main cannot see that without
 * joining it), or re-executing a schedule where the watcher finishes later diverges
 * ("the program is not deterministic"). With -DBUG the watcher asserts that main has
 * not turned yet: an error within the bound.
 *
 * cdpor-test
 * run: --unroll 2 --algorithm optimal ; verdict=incomplete executions=6
 * run: --unroll 2 --algorithm source ; verdict=incomplete
 * run: --unroll 2 --algorithm classic ; verdict=incomplete
 * run: --unroll 2 --algorithm none ; verdict=incomplete
 * run: -DBUG --unroll 2 --keep-going --algorithm optimal ; verdict=error kind=assertion location=unroll_cut_reader.c:27 errors=assertion@unroll_cut_reader.c:27
 * run: -DBUG --unroll 2 --keep-going --algorithm none ; verdict=error kind=assertion location=unroll_cut_reader.c:27 errors=assertion@unroll_cut_reader.c:27
 */
#include <assert.h>
#include <pthread.h>

volatile int flag;
volatile int turns;

static void *watcher(void *arg) {
    (void)arg;
    int seen = turns;
#ifdef BUG
    assert(seen == 0);
#endif
    (void)seen;
    flag = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, watcher, 0);
    while (!flag)
        turns = turns + 1;
    pthread_join(t, 0);
    return 0;
}
