/* A char whose value the program uses takes all 256 values, so the one value that leads
 * to the bug is found, and the run is complete; the value adds no races: 256 executions,
 * one per value. Compared only (CMP), it takes one value per interval: [0,44) [44] [45,128)
 * [128,200) [200] [201,256) (c == 300 compares c widened: its low byte is 44). Declared
 * without `extern` and with `()`, as SV-COMP programs do.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=nondet_char.c:25
 * run: --svcomp --keep-going ; verdict=error executions=256 failing=1 blocked=0
 * run: --svcomp -DSAFE ; verdict=safe executions=256
 * run: -DSAFE ; verdict=safe executions=256
 * run: --svcomp -DCMP --keep-going ; verdict=error executions=6 failing=1
 * run: --svcomp -DCMP -DSAFE ; verdict=safe executions=4
 */
void reach_error(void) {}
unsigned char __VERIFIER_nondet_uchar();
int seen;

int main(void) {
    unsigned char c = __VERIFIER_nondet_uchar();
#ifndef CMP
    seen = c + 1;
#endif
#ifndef SAFE
    if (c == 200) reach_error();
#endif
    return c == 300;
}
