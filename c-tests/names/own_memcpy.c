/* The program defines its own `memcpy` (byte by byte, counting its calls), as embedded
 * code and exercises do. Its calls of `memcpy` go to that definition, in main and in the
 * threads, as in a normal build, and nothing else does: cdpor's runtime copies a great
 * deal with the C library's memcpy, which would show as extra calls. Main and two
 * threads each copy one record; the count is taken under a lock, so it ends at 3. With
 * -DRACY_COUNT the count is not locked and two calls can lose an increment.
 * The three critical sections order in 3! = 6 ways.
 *
 * cdpor-test
 * run: ; verdict=safe executions=6 blocked=0
 * run: --algorithm source ; verdict=safe executions=6
 * run: --algorithm classic ; verdict=safe
 * run: -DRACY_COUNT ; verdict=error kind=assertion location=own_memcpy.c:64
 * run: -DRACY_COUNT --algorithm none ; verdict=error kind=assertion location=own_memcpy.c:64
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static int copies;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

void *memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
#ifndef RACY_COUNT
    pthread_mutex_lock(&count_lock);
#endif
    copies = copies + 1;
#ifndef RACY_COUNT
    pthread_mutex_unlock(&count_lock);
#endif
    return dst;
}

struct record {
    int id;
    int value;
};

static struct record table[3];
/* Not a constant: clang copies a constant size of 8 inline, without a call. */
static size_t record_size = sizeof(struct record);
static struct record inputs[3] = {{1, 10}, {2, 20}, {3, 30}};

static void *copier(void *arg) {
    int i = *(int *)arg;
    memcpy(&table[i], &inputs[i], record_size);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int ia = 1, ib = 2, im = 0;
    pthread_create(&a, 0, copier, &ia);
    pthread_create(&b, 0, copier, &ib);
    copier(&im);
    pthread_join(a, 0);
    pthread_join(b, 0);
    for (int i = 0; i < 3; i++)
        assert(table[i].value == 10 * (i + 1));
    assert(copies == 3);
    return 0;
}
