/* strtok keeps its position in the C library, shared by all threads. Two threads that
 * tokenize their own strings interleave their calls and take each other's tokens: a
 * bug (strtok_r, with the position in the caller's variable, is the fix: -DREENTRANT).
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=strtok_shared.c:43
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=1 blocked=0
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=61 failing=15
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: -DREENTRANT ; verdict=safe executions=1 blocked=0
 * run: -DREENTRANT --algorithm none ; verdict=safe executions=56
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

char mine[16] = "a b", theirs[16] = "x y";

void *other(void *arg) {
    (void)arg;
#ifdef REENTRANT
    char *save;
    assert(strtok_r(theirs, " ", &save)[0] == 'x');
#else
    assert(strtok(theirs, " ")[0] == 'x');
#endif
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, other, 0);
#ifdef REENTRANT
    char *save;
    char *first = strtok_r(mine, " ", &save);
    char *second = strtok_r(0, " ", &save);
#else
    char *first = strtok(mine, " ");
    char *second = strtok(0, " ");
#endif
    assert(first[0] == 'a');
    assert(second != 0 && second[0] == 'b');
    pthread_join(t, 0);
    return 0;
}
