/* A character-device model in the style of kernel driver benchmarks: the program defines
 * `open`, `read` and `close` itself, over an in-memory device of four bytes. A normal
 * build calls these definitions, and so must the program under cdpor; the runtime's own
 * files and pipes must still reach the kernel. A reader thread and main each open the
 * device, read two bytes and close it. Without the lock in `close` (-DRACY_CLOSE) the two
 * decrements of the open count can lose one.
 * Two threads, each with three critical sections (open, read, close): their orders are
 * C(6,3) = 20 interleavings of the sections.
 *
 * cdpor-test
 * run: ; verdict=safe executions=20 blocked=0
 * run: --algorithm source ; verdict=safe executions=20
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=853
 * run: -DRACY_CLOSE ; verdict=error kind=assertion location=driver_open_read_close.c:80
 * run: -DRACY_CLOSE --algorithm none ; verdict=error kind=assertion location=driver_open_read_close.c:80
 */
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

static const char device[4] = {'a', 'b', 'c', 'd'};
static int pos;
static int opened;
static pthread_mutex_t dev = PTHREAD_MUTEX_INITIALIZER;

int open(const char *path, int flags, ...) {
    (void)path;
    (void)flags;
    pthread_mutex_lock(&dev);
    int fd = 10 + opened++;
    pthread_mutex_unlock(&dev);
    return fd;
}

ssize_t read(int fd, void *buf, size_t n) {
    if (fd < 10)
        return -1;
    pthread_mutex_lock(&dev);
    size_t i = 0;
    for (; i < n && pos < 4; i++)
        ((char *)buf)[i] = device[pos++];
    pthread_mutex_unlock(&dev);
    return (ssize_t)i;
}

int close(int fd) {
#ifndef RACY_CLOSE
    pthread_mutex_lock(&dev);
#endif
    int was = opened;
    opened = was - 1;
#ifndef RACY_CLOSE
    pthread_mutex_unlock(&dev);
#endif
    return fd < 10 ? -1 : 0;
}

static char got[2][2];

static int use_device(int who) {
    int fd = open("/dev/model0", O_RDONLY);
    ssize_t n = read(fd, got[who], 2);
    close(fd);
    return (int)n;
}

static void *reader(void *arg) {
    (void)arg;
    assert(use_device(1) == 2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    assert(use_device(0) == 2);
    pthread_join(t, 0);
    assert(opened == 0);
    /* Every byte was read exactly once. */
    int seen = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            seen |= 1 << (got[i][j] - 'a');
    assert(seen == 15);
    return 0;
}
