/* fgets, fread and read write the bytes they received, not the whole buffer: a thread
 * that reads a byte of the buffer past them commutes with the input (one execution);
 * one that reads a byte they wrote races with it (-DNEAR), and its assertion that it
 * saw the byte before the input arrived fails in one of the two orders.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: -DFREAD ; verdict=safe executions=1
 * run: -DREAD ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe
 * run: -DNEAR ; verdict=error kind=assertion location=input_bytes.c:30
 * run: -DNEAR -DFREAD --keep-going ; verdict=error executions=2 failing=1
 * run: -DNEAR -DREAD --keep-going --algorithm none ; verdict=error failing=1
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

char buf[32];

#ifdef NEAR
#define AT 3
#else
#define AT 20
#endif

void *peek(void *arg) {
    (void)arg;
    assert(buf[AT] == 0);
    return 0;
}

int main(void) {
    FILE *f = tmpfile();
    fputs("hello\n", f);
    fflush(f);
    rewind(f);
    pthread_t t;
    pthread_create(&t, 0, peek, 0);
#if defined(FREAD)
    size_t got = fread(buf, 1, sizeof buf, f);
    assert(got == 6);
#elif defined(READ)
    ssize_t got = read(fileno(f), buf, sizeof buf);
    assert(got == 6);
#else
    assert(fgets(buf, sizeof buf, f) == buf);
#endif
    pthread_join(t, 0);
    assert(buf[0] == 'h' && buf[5] == '\n');
    fclose(f);
    return 0;
}
