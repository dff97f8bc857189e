/* Integer division by a shared divisor that another thread may set to zero first (SIGFPE
 * in some interleavings only). `volatile` keeps clang from folding the division.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=crash location=div_zero.c:22
 * run: --algorithm none ; verdict=error kind=crash location=div_zero.c:22
 * run: --algorithm classic ; verdict=error kind=crash
 */
#include <pthread.h>

volatile int divisor = 1;
int result;

void *zero(void *arg) {
    (void)arg;
    divisor = 0;
    return 0;
}

void *divide(void *arg) {
    (void)arg;
    result = 100 / divisor; /* the error is reported on this line */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, zero, 0);
    pthread_create(&b, 0, divide, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
