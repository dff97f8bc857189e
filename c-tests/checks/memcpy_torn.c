/* One thread copies a whole struct with memcpy (one event that reads src and writes all 8
 * bytes of s); the other reads the two fields one at a time. The reader can see a torn
 * pair (a from before the copy, b from after).
 *
 * Traces (optimal): the copy is before both field reads, between them (torn: fails), or
 * after both -> 3 executions, 1 failing. none: 665 interleavings, 170 failing
 * (enumerated; reader: load s.a, store ra, load s.b, store rb, finish).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=memcpy_torn.c:48
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=3 blocked=0 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=665 failing=170
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct pair {
    int a;
    int b;
};

struct pair s;
struct pair src = {1, 1};
int ra, rb;

void *copier(void *arg) {
    (void)arg;
    memcpy(&s, &src, sizeof s);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    ra = s.a;
    rb = s.b;
    return 0;
}

int main(void) {
    pthread_t c, r;
    pthread_create(&c, 0, copier, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(c, 0);
    pthread_join(r, 0);
    assert(ra == rb); /* the error is reported on this line */
    return 0;
}
