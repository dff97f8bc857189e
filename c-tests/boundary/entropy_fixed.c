/* Entropy is a fixed stream that all threads share: getrandom, getentropy, and reads of
 * /dev/urandom give the same bytes in every execution, so the program is deterministic
 * (else re-executing a schedule could take another branch), and which thread draws
 * first is explored: main asserts that its number is the smaller one, which holds in
 * one order of the two draws only. The cycle counter (`__rdtsc`) stands still. Without
 * the second thread's draw the program is safe (-DALONE).
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=entropy_fixed.c:49
 * run: --keep-going ; verdict=error executions=2 failing=1 blocked=0
 * run: --keep-going --algorithm none ; verdict=error failing=1
 * run: -DALONE ; verdict=safe executions=1
 * run: -DALONE --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>
#include <x86intrin.h>

unsigned mine, theirs;

void *draw(void *arg) {
    (void)arg;
#ifndef ALONE
    getrandom(&theirs, sizeof theirs, 0);
#endif
    return 0;
}

int main(void) {
    unsigned long long t0 = __rdtsc();
    pthread_t t;
    pthread_create(&t, 0, draw, 0);
    getrandom(&mine, sizeof mine, 0);
    pthread_join(t, 0);
    unsigned from_file = 0, from_stdio = 0, entropy = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    assert(fd >= 0 && read(fd, &from_file, sizeof from_file) == sizeof from_file);
    close(fd);
    FILE *f = fopen("/dev/random", "r");
    assert(f && fread(&from_stdio, sizeof from_stdio, 1, f) == 1);
    fclose(f);
    assert(getentropy(&entropy, sizeof entropy) == 0);
    assert(__rdtsc() == t0);
#ifndef ALONE
    assert(mine < theirs);
#endif
    return from_file == from_stdio;
}
