/* A recursive mutex made with pthread_mutexattr_settype: refused like one from the static
 * initializer, rather than explored as a default mutex (a false self-deadlock).
 *
 * cdpor-test
 * run: ; verdict=unknown exit=2 contains="recursive and error-checking mutexes"
 */
#include <pthread.h>

pthread_mutex_t m;

int main(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &a);
    pthread_mutexattr_destroy(&a);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}
