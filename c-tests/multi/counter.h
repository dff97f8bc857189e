/* Shared by main.c, counter.c and worker.c (see main.c). */
#include <pthread.h>

struct counter {
    pthread_mutex_t lock;
    int value;
};

extern struct counter hits;
void counter_add(struct counter *c, int n);
int counter_get(struct counter *c);
void *worker(void *arg);
