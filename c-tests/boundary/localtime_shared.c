/* localtime returns a pointer to one static struct tm, which every call overwrites: a
 * thread that reads its result after another thread's call may see the other's time.
 * localtime_r, with the caller's own struct, is the fix (-DREENTRANT).
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=localtime_shared.c:41
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=35 failing=8
 * run: -DREENTRANT ; verdict=safe executions=1 blocked=0
 * run: -DREENTRANT --algorithm none ; verdict=safe executions=35
 */
#include <assert.h>
#include <pthread.h>
#include <time.h>

void *other(void *arg) {
    (void)arg;
    time_t later = 86400 * 400;
#ifdef REENTRANT
    struct tm mine;
    localtime_r(&later, &mine);
#else
    localtime(&later);
#endif
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    time_t now = 0;
#ifdef REENTRANT
    struct tm result, *tm = &result;
    localtime_r(&now, tm);
#else
    struct tm *tm = localtime(&now);
#endif
    int year = tm->tm_year;
    pthread_join(t, 0);
    assert(year == 70);
    return 0;
}
