/* Main draws a bound n in [5, 10] and starts n workers; each worker draws its own k in
 * the same range and counts itself in only if k == n. The checker, joined last, fails
 * when every worker drew n: one combination of values in 6^n. Independent random draws
 * almost never meet it, exploration takes long to reach it (every value of every
 * worker, times the orders of their locks), but a probe that repeats a value the
 * execution drew earlier finds it in the first few probes (before exploring: 0
 * executions).
 *
 * cdpor-test
 * run: --svcomp --time-limit 30 ; verdict=error kind=assertion location=equal_draws.c:43 executions=0
 */
#include <pthread.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
extern void reach_error(void);

static int counted, n;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    unsigned k = __VERIFIER_nondet_uint();
    if (!(k >= 5 && k <= 10))
        abort();
    pthread_mutex_lock(&lock);
    if (k == (unsigned)n)
        counted++;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t t[10];
    n = (int)__VERIFIER_nondet_uint();
    if (!(n >= 5 && n <= 10))
        abort();
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], 0);
    if (counted == n)
        reach_error();
    return 0;
}
