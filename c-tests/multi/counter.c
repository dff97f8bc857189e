/* Part of the program in main.c: the counter, locked unless UNLOCKED. */
#include "counter.h"

struct counter hits = {PTHREAD_MUTEX_INITIALIZER, 0};

/* Same name as a static function of worker.c: each file keeps its own. */
static int step(int n) { return n; }

void counter_add(struct counter *c, int n) {
#ifndef UNLOCKED
    pthread_mutex_lock(&c->lock);
#endif
    int v = c->value;
    c->value = v + step(n);
#ifndef UNLOCKED
    pthread_mutex_unlock(&c->lock);
#endif
}

int counter_get(struct counter *c) {
    pthread_mutex_lock(&c->lock);
    int v = c->value;
    pthread_mutex_unlock(&c->lock);
    return v;
}
