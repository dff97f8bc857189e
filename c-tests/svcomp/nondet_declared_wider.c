/* A nondeterministic value's domain is the one its name says, whatever type the program
 * declares the function with (SV-COMP programs declare `int __VERIFIER_nondet_bool()`
 * too): a bool is 0 or 1, a uchar 0 to 255, a short -32768 to 32767, even returned as
 * an int or a long. So the checks below hold; a bug behind one value of the domain is
 * still found (-DBUG).
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=32
 * run: --svcomp -DBUG ; verdict=error kind=assertion location=nondet_declared_wider.c:29
 */
extern int __VERIFIER_nondet_bool(void);
extern int __VERIFIER_nondet_uchar(void);
extern long __VERIFIER_nondet_short(void);

void reach_error(void) {}

int main(void) {
    int b = __VERIFIER_nondet_bool();
    if (b != 0 && b != 1)
        reach_error();
    int u = __VERIFIER_nondet_uchar();
    if (u < 0 || u > 255)
        reach_error();
    long s = __VERIFIER_nondet_short();
    if (s < -32768 || s > 32767)
        reach_error();
#ifdef BUG
    if (b == 1 && u == 200 && s == -32768)
        reach_error();
#endif
    return 0;
}
