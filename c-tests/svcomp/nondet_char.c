/* Nondeterministic values are choices: a char takes all 256 values, so the one value that
 * leads to the bug is found, and the run can be complete. The value adds no races: 256
 * executions, one per value. Declared without `extern` and with `()`, as SV-COMP programs
 * do.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=nondet_char.c:18
 * run: --svcomp --keep-going ; verdict=error executions=256 failing=1 blocked=0
 * run: --svcomp -DSAFE ; verdict=safe executions=256
 * run: -DSAFE ; verdict=safe executions=256
 */
void reach_error(void) {}
unsigned char __VERIFIER_nondet_uchar();

int main(void) {
    unsigned char c = __VERIFIER_nondet_uchar();
#ifndef SAFE
    if (c == 200) reach_error();
#endif
    return c == 300;
}
