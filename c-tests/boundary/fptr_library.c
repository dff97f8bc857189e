/* The program reaches library functions through pointers. rand, reached through a
 * function pointer, is still the operation on the library's one random state that all
 * threads share (its event has the site of the call through the pointer): which thread
 * draws first is explored, so main's assertion that T1 drew the first number fails
 * when T2 draws first (-DBOTH). With only T1 drawing, the program is safe.
 * strspn is not modelled; a program that takes its address gets a warning naming it,
 * as calls through the pointer may pass shared memory.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 warns=strspn
 * run: --algorithm none ; verdict=safe executions=175
 * run: -DBOTH ; verdict=error kind=assertion location=fptr_library.c:53
 * run: -DBOTH --keep-going ; verdict=error executions=2 failing=1 blocked=0
 * run: -DBOTH --keep-going --algorithm source ; verdict=error failing=1
 * run: -DBOTH --keep-going --algorithm classic ; verdict=error failing=2
 * run: -DBOTH --keep-going --algorithm none ; verdict=error
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ops {
    int (*draw)(void);
    size_t (*span)(const char *, const char *);
} ops = {rand, strspn};

int r1, first;

void *one(void *arg) {
    (void)arg;
    r1 = ops.draw();
    return 0;
}

void *two(void *arg) {
    (void)arg;
#ifdef BOTH
    (void)ops.draw();
#endif
    return 0;
}

int main(void) {
    srand(1);
    first = rand();
    srand(1);
    pthread_t a, b;
    pthread_create(&a, 0, one, 0);
    pthread_create(&b, 0, two, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(r1 == first);
    return (int)ops.span("ab", "a") - 1;
}
