/* Children of two different threads race on a counter: a lost update, found whatever
 * order the parents created them in. The report names the children T1.1 and T2.1.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=nested_child_race.c:34 contains="thread T0"
 * run: --keep-going ; verdict=error kind=assertion executions=4 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion executions=4
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

int count;

void *leaf(void *arg) {
    (void)arg;
    count = count + 1;
    return 0;
}

void *parent(void *arg) {
    pthread_t child;
    pthread_create(&child, 0, leaf, arg);
    pthread_join(child, 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, parent, 0);
    pthread_create(&b, 0, parent, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2);
    return 0;
}
