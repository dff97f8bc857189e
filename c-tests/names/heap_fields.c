/* Heap blocks are named by allocation site and by the fields of the struct they are
 * accessed through: an array of structs (`[1].hi`), a struct within a struct reached
 * through a pointer to the inner one (`.in.a`), an array field (`.items[2]`), a list node
 * (`.next`, `.val`). The worker's updates race with main's reads.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion
 * run: --algorithm none ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

typedef struct {
    int lo, hi;
} range_t;
struct inner {
    int a;
    int b;
};
struct outer {
    long tag;
    struct inner in;
    int items[4];
};
struct node {
    int val;
    struct node *next;
};

range_t *ranges;
struct outer *o;
struct inner *ip;
struct node *head;

void *worker(void *arg) {
    (void)arg;
    ranges[1].hi = 5;
    o->in.b = 1;
    o->items[2] = 7;
    ip->a = 3;
    head->next->val = 9;
    return 0;
}

int main(void) {
    ranges = calloc(3, sizeof *ranges);
    o = calloc(1, sizeof *o);
    ip = &o->in;
    head = calloc(1, sizeof *head);
    head->next = calloc(1, sizeof *head);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int v = ranges[1].hi + o->in.b + o->items[2] + ip->a + head->next->val;
    pthread_join(t, 0);
    assert(v != 25);
    free(head->next);
    free(head);
    free(o);
    free(ranges);
    return 0;
}
