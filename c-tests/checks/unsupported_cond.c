/* Waits on a condition variable with a timeout, which cdpor does not model yet (whether
 * the wait times out would be a choice of the schedule): it must refuse the program
 * (exit 2) and name the function instead of exploring it wrongly.
 *
 * cdpor-test
 * run: ; exit=2 contains=pthread_cond_timedwait
 */
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

int main(void) {
    struct timespec ts = {0, 0};
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_timedwait(&cv, &m, &ts);
    pthread_mutex_unlock(&m);
    return 0;
}
