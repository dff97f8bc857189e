/* A value only compared with constants is explored by one value per interval those
 * constants define: [MIN,0) [0,2) [2] [3,MAX] for n, times both values of b: 8
 * executions, complete, and the bugs behind n == 2 and n == 1000 are found (NONE: n and
 * b are compared with nothing; the intervals are [MIN,0) [0,MAX] and 0, 1). A value that
 * is used otherwise (USE: computed with) takes the values of --nondet-range (by default
 * -1..3) in its wide intervals: a run that used one of them is incomplete and names the
 * call, unless the range covers what was left out.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=nondet_int.c:33
 * run: --svcomp --keep-going ; verdict=error executions=8 failing=2
 * run: --svcomp -DFAR --keep-going ; verdict=error executions=8 failing=1 location=nondet_int.c:31
 * run: --svcomp -DUSE --keep-going ; verdict=error executions=10 failing=2
 * run: --svcomp -DUSE -DNONE ; verdict=incomplete executions=10 contains="nondet_int() at c-tests/svcomp/nondet_int.c:24 explored over 5 of its values only"
 * run: --svcomp -DNONE ; verdict=safe executions=4
 */
void reach_error(void) {}
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);

int kept;

int main(void) {
    int n = __VERIFIER_nondet_int();
    _Bool b = __VERIFIER_nondet_bool();
#ifdef USE
    kept = n * 2;
#endif
#ifndef NONE
#ifdef FAR
    if (n == 1000 && b) reach_error();
#else
    if (n == 2) reach_error();
#endif
#endif
    return 0;
}
