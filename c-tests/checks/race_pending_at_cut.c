/* The assertion fails when T1's write of x comes before main's read, a few steps in. The
 * first execution runs main through its read and on into straight-line stores until
 * --max-steps cuts it, with T1's write still to come: that write races with the read all
 * the same, and reversing the race (which nothing after the cut would ever do) finds the
 * failure within the bound.
 *
 * cdpor-test
 * run: --max-steps 30 --algorithm optimal ; verdict=error kind=assertion location=race_pending_at_cut.c:30 executions=1 blocked=0
 * run: --max-steps 30 --algorithm source ; verdict=error kind=assertion location=race_pending_at_cut.c:30
 * run: --max-steps 30 --algorithm classic ; verdict=error kind=assertion location=race_pending_at_cut.c:30
 * run: --max-steps 30 --algorithm none ; verdict=error kind=assertion location=race_pending_at_cut.c:30
 */
#include <assert.h>
#include <pthread.h>

int x, z[64];
#define W4(i) z[i] = 1; z[i + 1] = 1; z[i + 2] = 1; z[i + 3] = 1;
#define W16(i) W4(i) W4(i + 4) W4(i + 8) W4(i + 12)

static void *writer(void *arg) {
    (void)arg;
    x = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int v = x;
    assert(v == 0);
    W16(0) W16(16) W16(32)
    pthread_join(t, 0);
    return 0;
}
