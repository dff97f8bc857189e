/* free() of what malloc did not return: a pointer into the middle of a block
 * (-DINTERIOR), a global (-DGLOBAL), a local of the calling thread (-DLOCAL). The
 * pointer is handed from main to a worker, which frees it. Without a -D, the worker
 * frees the block itself, and memory from the C library's own allocator (getline's
 * buffer) is given back to it.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: -DINTERIOR ; verdict=error kind=memory location=invalid_free.c:26 contains="invalid free: thread T1 at c-tests/memory/invalid_free.c:26 frees a pointer 16 bytes into a heap block of 64 bytes allocated by T0"
 * run: -DGLOBAL ; verdict=error kind=memory location=invalid_free.c:26 contains="frees table[2], which is not heap memory"
 * run: -DLOCAL ; verdict=error kind=memory location=invalid_free.c:26 contains="invalid free: thread T1 at c-tests/memory/invalid_free.c:26 frees T0's stack"
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int table[8];

void *worker(void *arg) {
    FILE *f = fopen("/proc/self/stat", "r");
    char *line = NULL;
    size_t cap = 0;
    if (f && getline(&line, &cap, f) > 0)
        free(line);
    free(arg);
    if (f)
        fclose(f);
    return NULL;
}

int main(void) {
    char *block = malloc(64);
    void *p = block;
    int local = 0;
#if defined(INTERIOR)
    p = block + 16;
#elif defined(GLOBAL)
    p = &table[2];
#elif defined(LOCAL)
    p = &local;
#endif
    pthread_t t;
    pthread_create(&t, NULL, worker, p);
    pthread_join(t, NULL);
    (void)local;
    return 0;
}
