/* A recursive mutex (here from glibc's static initializer, which needs no function call
 * cdpor could reject when it compiles the program): relocking it is legal, so treating it
 * as a default mutex would report a false self-deadlock. cdpor must refuse it instead.
 *
 * cdpor-test
 * run: ; verdict=unknown exit=2 contains="recursive and error-checking mutexes"
 */
#define _GNU_SOURCE
#include <pthread.h>

pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

int main(void) {
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}
