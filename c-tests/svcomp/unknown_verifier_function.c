/* A __VERIFIER_ function outside the API cdpor knows: refused by name (exit 2), never
 * run as an unknown external.
 *
 * cdpor-test
 * run: ; exit=2 contains=__VERIFIER_havoc_region
 * run: --svcomp ; exit=2 contains=__VERIFIER_havoc_region
 */
#include <pthread.h>

extern int __VERIFIER_havoc_region(void);

int x;

void *worker(void *arg) {
    (void)arg;
    x = __VERIFIER_havoc_region();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
