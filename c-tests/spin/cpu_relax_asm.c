/* A spin lock whose wait loop calls cpu_relax() as real code does, an inline asm that is
 * only a CPU hint (`pause`) or a compiler barrier (an empty asm clobbering memory): it
 * changes nothing, so a failed attempt that read the same is still an await, and the
 * program is safe in as many executions as without it. An asm that does something
 * (-DREAL: it writes a register the loop uses) hides its effect: the loop is no await,
 * and the run is cut by --unroll, honestly incomplete.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2 blocked=0
 * run: -DBARRIER ; verdict=safe executions=2 blocked=0
 * run: --algorithm none ; verdict=safe
 * run: -DREAL ; verdict=incomplete contains="cut by --unroll"
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int counter;

static inline void cpu_relax(void) {
#if defined(BARRIER)
    __asm__ __volatile__("" ::: "memory");
#else
    __asm__ __volatile__("rep; nop");
#endif
}

static void *worker(void *arg) {
    (void)arg;
    int expected = 0;
    unsigned spins = 0;
    while (!atomic_compare_exchange_strong(&lock, &expected, 1)) {
        expected = 0;
#ifdef REAL
        __asm__ __volatile__("mov %1, %0" : "=r"(spins) : "r"(spins + 1));
#else
        cpu_relax();
#endif
    }
    (void)spins;
    counter++;
    atomic_store(&lock, 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
