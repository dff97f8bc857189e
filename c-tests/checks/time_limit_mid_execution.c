/* --time-limit stops the run even in the middle of one execution that takes longer (a
 * thread that computes long between its events, for ever under an --unroll that lets
 * it, and far from --max-steps): the verdict is `incomplete`,
 * naming the time limit, not a hang of the program (exit 2), which --exec-timeout
 * alone would report.
 *
 * cdpor-test
 * run: --unroll 100000000 --time-limit 2 ; verdict=incomplete exit=3 contains="--time-limit"
 */
#include <pthread.h>
#include <stdatomic.h>

atomic_int stop;
volatile long sink;

void *counter(void *arg) {
    (void)arg;
    while (!atomic_load(&stop)) {
        long sum = 0;
        for (long i = 0; i < 50000000; i++)
            sum += i ^ (sum >> 3);
        sink = sink + sum + 1;
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, counter, 0);
    pthread_join(t, 0);
    return 0;
}
