/* An interval too wide to explore whole (n > 1000) is sampled: over the --nondet-range
 * values it holds, or else its end nearest 0 (1001). That value reaches the bug behind
 * n - 1000 == 1. When the program uses a sampled value (here: computes with it), values
 * were left out that could matter, and the run is incomplete, naming the call; when
 * only the guard saw it (GUARDED: n <= 1000 is assumed first), the run is complete.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=interval_sampled.c:25
 * run: --svcomp -DSAFE ; verdict=incomplete contains="nondet_int() at c-tests/svcomp/interval_sampled.c:18"
 * run: --svcomp -DSAFE -DGUARDED ; verdict=safe assume_blocked=1
 */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void) {}
int out;

int main(void) {
    int n = __VERIFIER_nondet_int();
#ifdef GUARDED
    __VERIFIER_assume(n <= 1000);
#endif
    if (n > 1000) {
        int y = n - 1000;
#ifndef SAFE
        if (y == 1) reach_error();
#endif
        out = y;
    }
    return 0;
}
