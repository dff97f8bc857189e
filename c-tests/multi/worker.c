/* Part of the program in main.c: what each thread does. */
#include "counter.h"

static int step(int n) { return 2 * n; }

void *worker(void *arg) {
    counter_add(&hits, step((int)(long)arg));
    return 0;
}

#ifdef DEFINE_TWICE
int counter_get(struct counter *c) { return c->value; }
#endif
