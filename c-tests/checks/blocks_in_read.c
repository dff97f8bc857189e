/* Main reads a byte from a pipe that its worker writes. cdpor runs one thread at a time
 * and does not model pipes: main sleeps in the kernel's read, where no other thread can
 * run to write. cdpor notices that main has slept in one system call for a second and
 * stops with an error that names it (verdict unknown, exit 2) rather than waiting for
 * --exec-timeout. With -DSPIN main spins instead: that takes the whole --exec-timeout.
 *
 * cdpor-test
 * run: ; verdict=unknown exit=2 contains="thread T0 blocked in the system call `read`"
 * run: -DSPIN --exec-timeout 3 ; verdict=unknown exit=2 contains="did not finish within 3.0 s: thread T0 ran without a visible operation"
 */
#include <pthread.h>
#include <unistd.h>

int fds[2];

void *writer(void *arg) {
    (void)arg;
    char c = 'x';
    if (write(fds[1], &c, 1) != 1)
        return arg;
    return NULL;
}

int main(void) {
    if (pipe(fds) != 0)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    char c = 0;
#ifdef SPIN
    /* A division (it could trap): not a loop cdpor knows to be endless. */
    volatile unsigned long n = 1;
    for (;;)
        n = n / (n | 1) + n;
#endif
    if (read(fds[0], &c, 1) != 1)
        return 1;
    pthread_join(t, NULL);
    return c == 'x' ? 0 : 1;
}
