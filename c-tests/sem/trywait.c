/* sem_trywait takes a unit when there is one and otherwise fails at once with EAGAIN;
 * sem_getvalue reads the count. A poster and a main thread that tries: main either finds
 * the unit (count back to 0) or finds none (count 0 or, once posted, 1). Safe; with
 * -DWRONG main claims that a failed trywait means the count is still 0 afterwards, which
 * the poster can make false.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=3 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DWRONG --keep-going --algorithm optimal ; verdict=error kind=assertion location=trywait.c:41 errors=assertion@trywait.c:41
 * run: -DWRONG --keep-going --algorithm none ; verdict=error kind=assertion location=trywait.c:41 errors=assertion@trywait.c:41
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

sem_t s;

static void *poster(void *arg) {
    (void)arg;
    sem_post(&s);
    return 0;
}

int main(void) {
    pthread_t t;
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, poster, 0);
    int r = sem_trywait(&s);
    int err = errno;
    int v = -1;
    sem_getvalue(&s, &v);
    if (r == 0) {
        assert(v == 0);
    } else {
        assert(r == -1 && err == EAGAIN);
#ifdef WRONG
        assert(v == 0);
#else
        assert(v == 0 || v == 1);
#endif
    }
    pthread_join(t, 0);
    return 0;
}
