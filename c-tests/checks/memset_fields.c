/* memset clears the first two fields of a shared struct while another thread writes the
 * third field and then the second. Dependence is by bytes: the memset (bytes 0-7) commutes
 * with the write of c (bytes 8-11) but not with the write of b (bytes 4-7).
 *
 * Traces (optimal): only the order of memset and `s.b = 7` matters -> 2 executions. Safe:
 * a is always 0, c always 5, b is 0 or 7. none: 215 interleavings (enumerated).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm none ; verdict=safe executions=215
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct triple {
    int a;
    int b;
    int c;
};

struct triple s = {1, 1, 1};

void *clear(void *arg) {
    (void)arg;
    memset(&s, 0, 2 * sizeof(int));
    return 0;
}

void *fill(void *arg) {
    (void)arg;
    s.c = 5;
    s.b = 7;
    return 0;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, clear, 0);
    pthread_create(&y, 0, fill, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    assert(s.a == 0);
    assert(s.c == 5);
    assert(s.b == 0 || s.b == 7);
    return 0;
}
