/* Wider types take the values of --nondet-range (by default -1..3): a run that left
 * values out is incomplete, never safe, and names the call. The bug behind 2 is found;
 * the one behind 1000 needs a wider range. Values in a bool: both.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=nondet_int.c:21
 * run: --svcomp --keep-going ; verdict=error executions=10 failing=2
 * run: --svcomp -DFAR ; verdict=incomplete executions=10
 * run: --svcomp -DFAR --nondet-range 995..1004 ; verdict=error location=nondet_int.c:19
 */
void reach_error(void) {}
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    _Bool b = __VERIFIER_nondet_bool();
#ifdef FAR
    if (n == 1000 && b) reach_error();
#else
    if (n == 2) reach_error();
#endif
    return 0;
}
