/* An event-driven server that names two of its functions as the C library names system
 * calls: `write(void *)` queues a reply and `listen(void *)` registers a handler. A normal
 * build links and runs; cdpor's own I/O must not reach the program's `write` (it did:
 * "the program's fork server stopped answering"). Two clients and main each queue one
 * reply under the server's lock, and main prints the count with printf (which writes
 * through the C library, never through the program's `write`). Without the lock
 * (-DUNLOCKED), two replies can take the same slot.
 * The three critical sections order in 3! = 6 ways.
 *
 * cdpor-test
 * run: ; verdict=safe executions=6 blocked=0
 * run: --algorithm source ; verdict=safe executions=6
 * run: --algorithm classic ; verdict=safe
 * run: -DUNLOCKED ; verdict=error kind=assertion location=server_write_listen.c:65
 * run: -DUNLOCKED --algorithm none ; verdict=error kind=assertion location=server_write_listen.c:65
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct reply {
    int client;
};

static struct reply *queue[8];
static int queued;
static void (*handler)(void *);
static pthread_mutex_t server = PTHREAD_MUTEX_INITIALIZER;

void listen(void *h) { handler = (void (*)(void *))h; }

void write(void *r) {
#ifndef UNLOCKED
    pthread_mutex_lock(&server);
#endif
    int slot = queued;
    queue[slot] = r;
    queued = slot + 1;
#ifndef UNLOCKED
    pthread_mutex_unlock(&server);
#endif
}

static void on_request(void *r) { write(r); }

static struct reply replies[3] = {{1}, {2}, {0}};

static void *client(void *arg) {
    handler(arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    listen((void *)on_request);
    pthread_create(&a, 0, client, &replies[0]);
    pthread_create(&b, 0, client, &replies[1]);
    handler(&replies[2]);
    pthread_join(a, 0);
    pthread_join(b, 0);
    printf("%d replies queued\n", queued);
    int seen = 0;
    for (int i = 0; i < queued; i++)
        seen |= 1 << queue[i]->client;
    assert(seen == 7);
    return 0;
}
