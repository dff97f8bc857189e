/* Attributes that change nothing cdpor models are accepted: priority protocols, process
 * sharing (there is one process), guard sizes, scopes, a condition's clock (time is not
 * modelled; the clock set is the clock read back). The program runs as with defaults.
 *
 * cdpor-test
 * run: ; verdict=safe executions=4
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=assertion location=more_attributes.c:21
 */
#include <pthread.h>
#include <assert.h>
#include <time.h>
pthread_mutex_t m; pthread_cond_t c; int x;
void *w(void *a) { pthread_mutex_lock(&m); x = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return a; }
int main(void) {
  pthread_mutexattr_t ma; pthread_condattr_t ca; pthread_attr_t ta;
  pthread_mutexattr_init(&ma); pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT); pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_PRIVATE);
  pthread_mutex_init(&m, &ma);
  pthread_condattr_init(&ca); pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); clockid_t ck; pthread_condattr_getclock(&ca, &ck); 
#ifdef BUG
  assert(ck == CLOCK_REALTIME);
#endif
  assert(ck == CLOCK_MONOTONIC);
  pthread_cond_init(&c, &ca);
  pthread_attr_init(&ta); pthread_attr_setguardsize(&ta, 8192); pthread_attr_setscope(&ta, PTHREAD_SCOPE_SYSTEM);
  pthread_t t; pthread_create(&t, &ta, w, 0);
  pthread_mutex_lock(&m); while (!x) pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
