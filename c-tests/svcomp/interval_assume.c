/* The values a guard lets through are explored whole, the rest by one value per
 * interval: `if (!(0 <= n && n < 4)) abort();` cuts an int at 0 and 4 (and at 1 and 5,
 * where `n < 0` and `n >= 4` could change too), so n takes -1, 0, 1, 2, 3, 4 and 5; the
 * four that pass are used as an index, and the run is complete: 4 executions, 3 ended by
 * abort() under --svcomp (an error without it). BUG: the value 3 reaches an error.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=4 assume_blocked=3
 * run: --svcomp -DBUG ; verdict=error kind=assertion location=interval_assume.c:25
 * run: --svcomp -DBUG --keep-going ; verdict=error executions=4 failing=1
 * run: ; verdict=error kind=abort location=interval_assume.c:20
 */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
int slot[4];

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (!(0 <= n && n < 4)) abort();
    slot[n] = n + 1;
    if (slot[n] != n + 1) reach_error();
#ifdef BUG
    if (slot[3] == 4)
        reach_error();
#endif
    return 0;
}
