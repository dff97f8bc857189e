/* Case labels cut the domain like comparisons: a switch over a nondeterministic int with
 * cases 1, 7 and 100 is explored by one value of each of [MIN,0) [0,1) [1] [2,7) [7]
 * [8,100) [100] [101,MAX]: 8 executions, complete, and the bug behind case 7 is found.
 *
 * cdpor-test
 * run: --svcomp --keep-going ; verdict=error executions=8 failing=1 location=interval_switch.c:20
 * run: --svcomp -DSAFE ; verdict=safe executions=8
 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int hits;

int main(void) {
    switch (__VERIFIER_nondet_int()) {
    case 1:
        hits = 1;
        break;
    case 7:
#ifndef SAFE
        reach_error();
#endif
        break;
    case 100:
        hits = 100;
        break;
    default:
        break;
    }
    return 0;
}
