/* A syntax error (missing semicolon): cdpor reports a compile error with exit status 2.
 *
 * cdpor-test
 * run: ; verdict=compile-error exit=2
 */
#include <pthread.h>

int x;

int main(void) {
    x = 1
    return 0;
}
