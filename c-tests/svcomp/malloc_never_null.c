/* SV-COMP assumes that malloc never fails. A request larger than a thread's heap (4 GiB)
 * cannot be met: under --svcomp its thread stops there for good and the execution is
 * cut (`incomplete`, naming the allocation), never a NULL that the program would take
 * for a failure; without --svcomp, malloc returns NULL as C allows, and the check fails.
 * A small block is fine either way (-DSMALL).
 *
 * cdpor-test
 * run: --svcomp ; verdict=incomplete contains="allocation was larger"
 * run: ; verdict=error kind=assertion location=malloc_never_null.c:26
 * run: --svcomp -DSMALL ; verdict=safe executions=1
 * run: -DSMALL ; verdict=safe executions=1
 */
#include <stdlib.h>

void reach_error(void) {}

#ifdef SMALL
unsigned long words = 16;
#else
unsigned long words = 1UL << 31;
#endif

int main(void) {
    int *a = malloc(words * sizeof(long));
    if (a == 0)
        reach_error();
    a[0] = 1;
    free(a);
    return 0;
}
