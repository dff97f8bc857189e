/* printf reads the strings it prints (%s), snprintf writes the bytes it produces, and
 * strtol reads the digits it parses: all events on those bytes. A thread formats a
 * report into a shared buffer while another parses it: the parser sees the old or the
 * new text. time() and getpid() are the same in every execution (documented values), so
 * a program that prints them behaves the same in each.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=printf_family.c:33
 * run: --keep-going ; verdict=error kind=assertion executions=4 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion executions=4
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=12 failing=3
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

char report[32] = "count=1";
char label[8] = "count";

void *writer(void *arg) {
    (void)arg;
    snprintf(report, sizeof report, "%s=%d", label, 2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    printf("%s at %ld by %d\n", report, (long)time(0), (int)getpid());
    assert(strtol(report + 6, 0, 10) == 2);
    pthread_join(t, 0);
    return 0;
}
