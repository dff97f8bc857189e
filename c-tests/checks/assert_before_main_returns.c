/* main writes x and returns without joining; the thread asserts that x is still 0. The
 * assertion fails when main's write comes before the thread's read but main has not yet
 * returned: returning from main ends the program, but cdpor must still let the thread run
 * between main's last write and its return. Error.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=assert_before_main_returns.c:19
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 * run: --algorithm none ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

int x;

void *check(void *arg) {
    (void)arg;
    assert(x == 0); /* the error is reported on this line */
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, check, 0);
    x = 1;
    return 0;
}
