/* The program defines `malloc` and `free` but also calls the C library's `strdup`, whose
 * block glibc would take from the program's malloc and cdpor's model from its own heap;
 * the program's `free` would then get a block of the model's. cdpor refuses the program
 * with one line that names both functions, rather than explore something else.
 *
 * cdpor-test
 * run: ; verdict=compile-error exit=2 contains="defines its own `malloc` but calls the C library's `strdup` (at c-tests/names/allocators_mixed.c:24)"
 */
#include <stddef.h>
#include <string.h>

static unsigned char arena[128];
static size_t used;

void *malloc(size_t n) {
    void *p = arena + used;
    used += (n + 15) & ~(size_t)15;
    return p;
}

void free(void *p) { (void)p; }

int main(void) {
    char *s = strdup("hello");
    free(s);
    return 0;
}
