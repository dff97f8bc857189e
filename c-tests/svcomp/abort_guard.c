/* assume_abort_if_not: under --svcomp abort() ends an execution silently (the path is
 * excluded), so only the values the guard lets through are checked. Without --svcomp,
 * abort() is an error, as in C. n is only compared: with 2 and 5, one value for each of
 * [0,2) [2] [3,5) [5] [6,128) [128,256), of which the first passes the guard.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=1 assume_blocked=5
 * run: ; verdict=error kind=abort
 * run: --svcomp -DWIDE ; verdict=error kind=assertion location=abort_guard.c:24
 */
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int cond) { if (!cond) abort(); }
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
    unsigned char n = __VERIFIER_nondet_uchar();
#ifdef WIDE
    assume_abort_if_not(n < 10);
#else
    assume_abort_if_not(n < 2);
#endif
    if (n > 5)
        reach_error();
    return 0;
}
