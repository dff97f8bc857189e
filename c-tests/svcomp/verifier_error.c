/* The older API: __VERIFIER_error() declared and never defined. The flag is published
 * before the value it guards: the reader can see the flag and the old value.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion contains="__VERIFIER_error() called"
 * run: --svcomp --keep-going ; verdict=error executions=4 failing=2 location=verifier_error.c:30
 * run: --svcomp --keep-going --algorithm none ; verdict=error executions=515 failing=64
 * run: --svcomp -DFIXED ; verdict=safe executions=2
 * run: --svcomp -DFIXED --algorithm none ; verdict=safe
 */
extern void __VERIFIER_error(void);

#include <pthread.h>

int value, ready;

void *writer(void *arg) {
#ifdef FIXED
    value = 42;
    ready = 1;
#else
    ready = 1;
    value = 42;
#endif
    return arg;
}

void *reader(void *arg) {
    if (ready && value != 42)
        __VERIFIER_error();
    return arg;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
