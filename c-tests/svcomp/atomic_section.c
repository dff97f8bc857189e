/* __VERIFIER_atomic_begin()/_end() bracket one step: the writer's temporary value is
 * never visible. Without the brackets (-DOPEN) the reader can see it.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=2 blocked=0
 * run: --svcomp --algorithm none ; verdict=safe executions=6
 * run: --svcomp -DOPEN ; verdict=error kind=assertion location=atomic_section.c:21
 * run: --svcomp -DOPEN --keep-going --algorithm none ; verdict=error executions=10 failing=2
 */
extern void abort(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void) {}

#include <pthread.h>

int shared;

void *reader(void *arg) {
    int seen = shared;
    if (seen != 0) { reach_error(); abort(); }
    return arg;
}

int main(void) {
    pthread_t r;
    pthread_create(&r, 0, reader, 0);
#ifndef OPEN
    __VERIFIER_atomic_begin();
#endif
    shared = 5;
    shared = 0;
#ifndef OPEN
    __VERIFIER_atomic_end();
#endif
    pthread_join(r, 0);
    return 0;
}
