/* The C library functions that read or write the program's memory, as events on exactly
 * the bytes they touch (cdpor_lib): <string.h>, the printf family's %s arguments and
 * output buffers, the strtol family's input, qsort's element accesses; the library's
 * hidden state (rand, strtok, the environment) as objects that all threads share; and
 * the thread attribute objects that glibc's own functions fill in.
 *
 * A call is one event when it touches at most two ranges, and a few events in the order
 * an implementation would touch them otherwise (strcat finds the end of the string,
 * then appends). Ranges that depend on memory contents (a string's length) are computed
 * by a footprint function, which the runtime calls again when the event executes: other
 * threads may have changed the string in between. The work itself is done right after
 * the event, before any other thread runs. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "kinds.h"
#include "rt.h"

#define R CDPOR_MODE_READ
#define W CDPOR_MODE_WRITE
#define RW CDPOR_MODE_READ_WRITE

static uint64_t addr(const void *p) { return (uint64_t)(uintptr_t)p; }

/* What a footprint function needs: up to three pointers and two sizes. */
struct call {
    const void *a, *b, *c;
    size_t n, m;
    int ch;
};

static void set(cdpor_ranges *r, const void *p, size_t len, uint32_t mode) {
    r->addr = addr(p);
    r->len = len;
    r->mode = mode;
}

static void set_arg(cdpor_ranges *r, const void *p, size_t len, uint32_t mode) {
    r->arg = addr(p);
    r->arg_len = len;
    r->arg_mode = mode;
}

/* Bytes a scan of the string at s reads: up to and including its NUL. */
static size_t scan(const char *s) { return strlen(s) + 1; }

/* Bytes a scan of at most n bytes of s reads. */
static size_t scan_n(const char *s, size_t n) {
    size_t k = strnlen(s, n);
    return k < n ? k + 1 : n;
}

/* One event over the ranges fp computes from the call c. */
/* The standard streams and descriptors read /dev/null and write to it (or to the
 * terminal, on replay): using them changes nothing an in-place reset does not put back.
 * Any other file does. */
static void outside(const char *what, uint32_t site) { cdpor_irreversible(what, site); }

static void on_stream(FILE *f, const char *what, uint32_t site) {
    if (f != stdin && f != stdout && f != stderr)
        outside(what, site);
}

static void on_fd(int fd, const char *what, uint32_t site) {
    if (fd < 0 || fd > 2)
        outside(what, site);
}

static void event(cdpor_footprint fp, const struct call *c, uint32_t site) {
    cdpor_lib(fp, c, site);
}

/* ---- <string.h> ---- */

static void fp_read_a(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, scan(c->a), R);
}

static void fp_read_a_n(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, scan_n(c->a, c->n), R);
}

size_t __cdpor_strlen(const char *s) {
    struct call c = {.a = s};
    event(fp_read_a, &c, __cdpor_site);
    return strlen(s);
}

size_t __cdpor_strnlen(const char *s, size_t n) {
    struct call c = {.a = s, .n = n};
    if (n)
        event(fp_read_a_n, &c, __cdpor_site);
    return strnlen(s, n);
}

/* Copies the string b to a. */
static void fp_copy_string(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    size_t n = scan(c->b);
    set(r, c->a, n, W);
    set_arg(r, c->b, n, R);
}

char *__cdpor_strcpy(char *d, const char *s) {
    struct call c = {.a = d, .b = s};
    event(fp_copy_string, &c, __cdpor_site);
    return strcpy(d, s);
}

char *__cdpor_stpcpy(char *d, const char *s) {
    struct call c = {.a = d, .b = s};
    event(fp_copy_string, &c, __cdpor_site);
    return stpcpy(d, s);
}

/* strncpy writes all n bytes (padding with NULs) and reads at most n. */
static void fp_strncpy(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->n, W);
    set_arg(r, c->b, scan_n(c->b, c->n), R);
}

char *__cdpor_strncpy(char *d, const char *s, size_t n) {
    struct call c = {.a = d, .b = s, .n = n};
    if (n)
        event(fp_strncpy, &c, __cdpor_site);
    return strncpy(d, s, n);
}

/* Appends b (at most m bytes of it when n is set) at a + n. */
static void fp_append(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    size_t len = c->ch ? strnlen(c->b, c->m) : strlen(c->b);
    set(r, (const char *)c->a + c->n, len + 1, W);
    set_arg(r, c->b, c->ch ? scan_n(c->b, c->m) : len + 1, R);
}

char *__cdpor_strcat(char *d, const char *s) {
    uint32_t site = __cdpor_site;
    struct call c = {.a = d, .b = s};
    event(fp_read_a, &c, site); /* finds the end of d */
    c.n = strlen(d);
    event(fp_append, &c, site);
    strcpy(d + c.n, s);
    return d;
}

char *__cdpor_strncat(char *d, const char *s, size_t n) {
    uint32_t site = __cdpor_site;
    struct call c = {.a = d, .b = s, .m = n, .ch = 1};
    event(fp_read_a, &c, site);
    c.n = strlen(d);
    if (n == 0)
        return d;
    event(fp_append, &c, site);
    size_t k = strnlen(s, n);
    memcpy(d + c.n, s, k);
    d[c.n + k] = 0;
    return d;
}

/* Two strings compared up to their first difference or NUL (at most n bytes if m). */
static void fp_compare_strings(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    const unsigned char *a = c->a, *b = c->b;
    size_t i = 0, max = c->m ? c->n : SIZE_MAX;
    if (max == 0)
        return;
    while (i + 1 < max && a[i] && a[i] == b[i])
        i++;
    set(r, a, i + 1, R);
    set_arg(r, b, i + 1, R);
}

int __cdpor_strcmp(const char *a, const char *b) {
    struct call c = {.a = a, .b = b};
    event(fp_compare_strings, &c, __cdpor_site);
    return strcmp(a, b);
}

int __cdpor_strncmp(const char *a, const char *b, size_t n) {
    struct call c = {.a = a, .b = b, .n = n, .m = 1};
    if (n)
        event(fp_compare_strings, &c, __cdpor_site);
    return strncmp(a, b, n);
}

/* memcmp reads both blocks up to the first difference. */
static void fp_memcmp(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    const unsigned char *a = c->a, *b = c->b;
    size_t i = 0;
    while (i + 1 < c->n && a[i] == b[i])
        i++;
    set(r, a, i + 1, R);
    set_arg(r, b, i + 1, R);
}

int __cdpor_memcmp(const void *a, const void *b, size_t n) {
    struct call c = {.a = a, .b = b, .n = n};
    if (n)
        event(fp_memcmp, &c, __cdpor_site);
    return memcmp(a, b, n);
}

/* strchr reads up to the character found, or the whole string. */
static void fp_strchr(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    const char *p = strchr(c->a, c->ch);
    set(r, c->a, p ? (size_t)(p - (const char *)c->a) + 1 : scan(c->a), R);
}

char *__cdpor_strchr(const char *s, int ch) {
    struct call c = {.a = s, .ch = ch};
    event(fp_strchr, &c, __cdpor_site);
    return strchr(s, ch);
}

char *__cdpor_strrchr(const char *s, int ch) {
    struct call c = {.a = s};
    event(fp_read_a, &c, __cdpor_site);
    return strrchr(s, ch);
}

/* memchr reads up to the byte found, or all n. */
static void fp_memchr(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    const char *p = memchr(c->a, c->ch, c->n);
    set(r, c->a, p ? (size_t)(p - (const char *)c->a) + 1 : c->n, R);
}

void *__cdpor_memchr(const void *s, int ch, size_t n) {
    struct call c = {.a = s, .ch = ch, .n = n};
    if (n)
        event(fp_memchr, &c, __cdpor_site);
    return memchr(s, ch, n);
}

/* strstr reads the needle, and the haystack up to the end of the match (or all). */
static void fp_strstr(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    const char *p = strstr(c->a, c->b);
    size_t hay = p ? (size_t)(p - (const char *)c->a) + strlen(c->b) + 1 : scan(c->a);
    set(r, c->a, hay, R);
    set_arg(r, c->b, scan(c->b), R);
}

char *__cdpor_strstr(const char *h, const char *n) {
    struct call c = {.a = h, .b = n};
    event(fp_strstr, &c, __cdpor_site);
    return strstr(h, n);
}

/* Calls of memcpy/memmove/memset themselves (instrumented code usually has the LLVM
 * intrinsics, which are hooked directly). */
static void fp_copy_n(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->n, W);
    set_arg(r, c->b, c->n, R);
}

static void fp_write_n(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->n, W);
}

void *__cdpor_lib_memcpy(void *d, const void *s, size_t n) {
    struct call c = {.a = d, .b = s, .n = n};
    if (n)
        event(fp_copy_n, &c, __cdpor_site);
    return memcpy(d, s, n);
}

void *__cdpor_lib_memmove(void *d, const void *s, size_t n) {
    struct call c = {.a = d, .b = s, .n = n};
    if (n)
        event(fp_copy_n, &c, __cdpor_site);
    return memmove(d, s, n);
}

void *__cdpor_lib_memset(void *d, int ch, size_t n) {
    struct call c = {.a = d, .n = n};
    if (n)
        event(fp_write_n, &c, __cdpor_site);
    return memset(d, ch, n);
}

/* strdup and strndup read their source (the copy is a fresh block: alloc.c). */
void cdpor_read_string(const char *s, size_t max, uint32_t site) {
    struct call c = {.a = s, .n = max};
    if (max)
        event(max == SIZE_MAX ? fp_read_a : fp_read_a_n, &c, site);
}


/* ---- the printf family ----
 * Its %s arguments are reads of the strings (as far as a precision allows), %n a write,
 * and the output of sprintf and snprintf a write of the bytes produced. The format
 * itself is taken to be constant. */

/* A conversion's argument that reaches user memory. */
struct conv_arg {
    const void *p;
    size_t len;
    uint32_t mode;
};

#define MAX_CONV_ARGS 16

/* Walks fmt and ap, collecting the %s arguments (bytes read) and %n targets (bytes
 * written); returns how many, or -1 for a format it cannot follow. */
static int conv_args(const char *fmt, va_list ap0, struct conv_arg *out) {
    va_list ap;
    va_copy(ap, ap0);
    int n = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        /* flags, width, precision */
        while (*p && strchr("-+ #0'", *p))
            p++;
        if (*p == '*') {
            (void)va_arg(ap, int);
            p++;
        } else
            while (isdigit((unsigned char)*p))
                p++;
        long prec = -1;
        if (*p == '.') {
            p++;
            if (*p == '*') {
                prec = va_arg(ap, int);
                p++;
            } else {
                prec = 0;
                while (isdigit((unsigned char)*p))
                    prec = prec * 10 + (*p++ - '0');
            }
        }
        /* length: hh h l ll L q j z t */
        int longs = 0, shorts = 0, big = 0, size = 0;
        for (;; p++) {
            if (*p == 'l')
                longs++;
            else if (*p == 'h')
                shorts++;
            else if (*p == 'L' || *p == 'q')
                big = 1, longs = 2;
            else if (*p == 'j' || *p == 'z' || *p == 't')
                size = 1;
            else
                break;
        }
        switch (*p) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':
            if (longs || size)
                (void)va_arg(ap, long long);
            else
                (void)va_arg(ap, int);
            break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
            if (big)
                (void)va_arg(ap, long double);
            else
                (void)va_arg(ap, double);
            break;
        case 'p':
            (void)va_arg(ap, void *);
            break;
        case 'm':
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (longs || !s || n == MAX_CONV_ARGS)
                break; /* wide strings and (null) are not read here */
            out[n].p = s;
            out[n].len = prec >= 0 ? scan_n(s, (size_t)prec) : scan(s);
            out[n].mode = R;
            if (out[n].len)
                n++;
            break;
        }
        case 'n': {
            void *t = va_arg(ap, void *);
            if (n == MAX_CONV_ARGS)
                break;
            out[n].p = t;
            out[n].len = shorts == 2 ? 1 : shorts ? 2 : longs || size ? 8 : 4;
            out[n].mode = W;
            n++;
            break;
        }
        default:
            va_end(ap);
            return -1;
        }
        if (!*p)
            break;
    }
    va_end(ap);
    return n;
}

/* A printf-family call: its argument ranges, then (sprintf, snprintf) its output. */
struct printf_call {
    const char *fmt;
    va_list ap;
    char *out;       /* sprintf's buffer, or NULL */
    size_t out_size; /* snprintf's size, or SIZE_MAX */
    int first;       /* the argument ranges this event covers */
    int count;
    int output;      /* this event writes the output too */
};

/* fmt with each %n conversion (which stores through its argument) replaced by %.0s
 * (which takes a pointer too, and prints nothing), written to out (3 * strlen(fmt) + 1
 * bytes): formatting it gives the output's length without storing anything. */
static void without_stores(const char *fmt, char *out) {
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            *out++ = *p++;
            continue;
        }
        const char *q = p + 1;
        while (*q && strchr("-+ #0'123456789.*hlLqjzt", *q))
            q++;
        if (*q == 'n') {
            memcpy(out, "%.0s", 4);
            out += 4;
        } else {
            size_t k = (size_t)(q - p) + (*q ? 1 : 0);
            memcpy(out, p, k);
            out += k;
        }
        p = q + (*q ? 1 : 0);
    }
    *out = 0;
}

static void fp_printf(const void *ctx, cdpor_ranges *r) {
    const struct printf_call *c = ctx;
    struct conv_arg args[MAX_CONV_ARGS];
    va_list ap;
    va_copy(ap, *(va_list *)&c->ap);
    int n = conv_args(c->fmt, ap, args);
    va_end(ap);
    int k = 0;
    if (c->output) {
        /* The last event writes the output; its length is measured without the stores
         * of %n, which happen when the call runs. */
        char *fmt = __builtin_alloca(3 * strlen(c->fmt) + 1);
        without_stores(c->fmt, fmt);
        va_copy(ap, *(va_list *)&c->ap);
        int len = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        size_t bytes = len < 0 ? 0 : (size_t)len + 1;
        if (bytes > c->out_size)
            bytes = c->out_size;
        set(r, c->out, bytes, W);
        k = 1;
    }
    for (int i = c->first; i < n && i < c->first + c->count && k < 2; i++, k++) {
        if (k == 0)
            set(r, args[i].p, args[i].len, args[i].mode);
        else
            set_arg(r, args[i].p, args[i].len, args[i].mode);
    }
}

/* Announces the events of a printf-family call: two ranges per event, the output in
 * the last. */
static void printf_events(const char *fmt, va_list ap, char *out, size_t out_size, uint32_t site) {
    struct printf_call c = {.fmt = fmt, .out = out, .out_size = out_size};
    va_copy(c.ap, ap);
    struct conv_arg args[MAX_CONV_ARGS];
    int n = conv_args(fmt, ap, args);
    if (n < 0)
        n = 0;
    int ranges = n + (out && out_size ? 1 : 0);
    if (!out_size)
        c.out = NULL;
    for (int done = 0; done < ranges;) {
        int left = ranges - done;
        /* With the output in this event, it takes one argument range less. */
        int out_here = c.out && left <= 2;
        c.first = done;
        c.count = left <= 2 ? left - out_here : 2;
        c.output = out_here;
        cdpor_lib(fp_printf, &c, site);
        done += c.count + out_here;
    }
    va_end(c.ap);
}

int __cdpor_vprintf(const char *fmt, va_list ap) {
    printf_events(fmt, ap, NULL, 0, __cdpor_site);
    return vprintf(fmt, ap);
}

int __cdpor_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = __cdpor_vprintf(fmt, ap);
    va_end(ap);
    return r;
}

int __cdpor_vfprintf(FILE *f, const char *fmt, va_list ap) {
    on_stream(f, "fprintf", __cdpor_site);
    printf_events(fmt, ap, NULL, 0, __cdpor_site);
    return vfprintf(f, fmt, ap);
}

int __cdpor_fprintf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = __cdpor_vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}

int __cdpor_vdprintf(int fd, const char *fmt, va_list ap) {
    on_fd(fd, "dprintf", __cdpor_site);
    printf_events(fmt, ap, NULL, 0, __cdpor_site);
    return vdprintf(fd, fmt, ap);
}

int __cdpor_dprintf(int fd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = __cdpor_vdprintf(fd, fmt, ap);
    va_end(ap);
    return r;
}

int __cdpor_vsprintf(char *d, const char *fmt, va_list ap) {
    printf_events(fmt, ap, d, SIZE_MAX, __cdpor_site);
    return vsprintf(d, fmt, ap);
}

int __cdpor_sprintf(char *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = __cdpor_vsprintf(d, fmt, ap);
    va_end(ap);
    return r;
}

int __cdpor_vsnprintf(char *d, size_t n, const char *fmt, va_list ap) {
    printf_events(fmt, ap, d, n, __cdpor_site);
    return vsnprintf(d, n, fmt, ap);
}

int __cdpor_snprintf(char *d, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = __cdpor_vsnprintf(d, n, fmt, ap);
    va_end(ap);
    return r;
}

int __cdpor_puts(const char *s) {
    cdpor_read_string(s, SIZE_MAX, __cdpor_site);
    return puts(s);
}

int __cdpor_fputs(const char *s, FILE *f) {
    on_stream(f, "fputs", __cdpor_site);
    cdpor_read_string(s, SIZE_MAX, __cdpor_site);
    return fputs(s, f);
}

static void fp_read_n(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->n, R);
}

size_t __cdpor_fwrite(const void *p, size_t size, size_t n, FILE *f) {
    on_stream(f, "fwrite", __cdpor_site);
    struct call c = {.a = p, .n = size * n};
    if (c.n)
        event(fp_read_n, &c, __cdpor_site);
    return fwrite(p, size, n, f);
}

/* Input into user memory: a write of exactly the bytes the call stores, which only the
 * input itself tells. So the input is taken into a private buffer first (the file is no
 * memory of the program, so no event orders that), then the event writes the bytes
 * received, and they are copied into the program's buffer. */
struct input {
    char *buf;
    size_t n;
    char small[512];
};

static int input_open(struct input *in, size_t n) {
    in->n = n;
    in->buf = in->small;
    if (n > sizeof in->small) {
        in->buf = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (in->buf == MAP_FAILED) {
            errno = ENOMEM;
            return 0;
        }
    }
    return 1;
}

static void input_deliver(struct input *in, void *to, size_t got, uint32_t site) {
    struct call c = {.a = to, .n = got};
    if (got) {
        event(fp_write_n, &c, site);
        memcpy(to, in->buf, got);
    }
    if (in->buf != in->small)
        munmap(in->buf, in->n);
}

size_t __cdpor_fread(void *p, size_t size, size_t n, FILE *f) {
    uint32_t site = __cdpor_site;
    on_stream(f, "fread", site);
    struct input in;
    if (size == 0 || n == 0 || n > SIZE_MAX / size || !input_open(&in, size * n))
        return fread(p, size, n, f);
    size_t items = fread(in.buf, size, n, f);
    input_deliver(&in, p, items * size, site);
    return items;
}

char *__cdpor_fgets(char *s, int n, FILE *f) {
    uint32_t site = __cdpor_site;
    on_stream(f, "fgets", site);
    struct input in;
    if (n <= 0 || !input_open(&in, (size_t)n))
        return fgets(s, n, f);
    char *got = fgets(in.buf, n, f);
    input_deliver(&in, s, got ? strlen(in.buf) + 1 : 0, site);
    return got ? s : NULL;
}

ssize_t __cdpor_read(int fd, void *p, size_t n) {
    uint32_t site = __cdpor_site;
    on_fd(fd, "read", site);
    struct input in;
    if (n == 0 || !input_open(&in, n))
        return read(fd, p, n);
    ssize_t got = read(fd, in.buf, n);
    input_deliver(&in, p, got > 0 ? (size_t)got : 0, site);
    return got;
}

ssize_t __cdpor_write(int fd, const void *p, size_t n) {
    on_fd(fd, "write", __cdpor_site);
    struct call c = {.a = p, .n = n};
    if (n)
        event(fp_read_n, &c, __cdpor_site);
    return write(fd, p, n);
}

/* ---- numbers from strings ----
 * The bytes examined: leading space, sign and digits, and the byte that ends the number;
 * an end pointer the caller asked for is written. */

static void fp_number(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    const char *s = c->a, *p = s;
    char *end = NULL;
    if (c->ch)
        (void)strtod(s, &end);
    else
        (void)strtoll(s, &end, (int)c->m);
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '+' || *p == '-')
        p++;
    if (end < p)
        end = (char *)p;
    set(r, s, (size_t)(end - s) + 1, R);
    if (c->b)
        set_arg(r, c->b, sizeof(char *), W);
}

/* Reads a number at s (base `base`, or floating when `floating`); `endp` is written. */
static void number_event(const char *s, char **endp, int base, int floating, uint32_t site) {
    struct call c = {.a = s, .b = endp, .m = (size_t)base, .ch = floating};
    event(fp_number, &c, site);
}

int __cdpor_atoi(const char *s) {
    number_event(s, NULL, 10, 0, __cdpor_site);
    return atoi(s);
}

long __cdpor_atol(const char *s) {
    number_event(s, NULL, 10, 0, __cdpor_site);
    return atol(s);
}

long long __cdpor_atoll(const char *s) {
    number_event(s, NULL, 10, 0, __cdpor_site);
    return atoll(s);
}

double __cdpor_atof(const char *s) {
    number_event(s, NULL, 0, 1, __cdpor_site);
    return atof(s);
}

long __cdpor_strtol(const char *s, char **end, int base) {
    number_event(s, end, base, 0, __cdpor_site);
    return strtol(s, end, base);
}

unsigned long __cdpor_strtoul(const char *s, char **end, int base) {
    number_event(s, end, base, 0, __cdpor_site);
    return strtoul(s, end, base);
}

long long __cdpor_strtoll(const char *s, char **end, int base) {
    number_event(s, end, base, 0, __cdpor_site);
    return strtoll(s, end, base);
}

unsigned long long __cdpor_strtoull(const char *s, char **end, int base) {
    number_event(s, end, base, 0, __cdpor_site);
    return strtoull(s, end, base);
}

double __cdpor_strtod(const char *s, char **end) {
    number_event(s, end, 0, 1, __cdpor_site);
    return strtod(s, end);
}

float __cdpor_strtof(const char *s, char **end) {
    number_event(s, end, 0, 1, __cdpor_site);
    return strtof(s, end);
}

long double __cdpor_strtold(const char *s, char **end) {
    number_event(s, end, 0, 1, __cdpor_site);
    return strtold(s, end);
}

/* ---- qsort ----
 * As glibc's merge sort, it reads the array, sorts, and writes the array back: the first
 * event reads the whole array (a snapshot), the last writes the whole array (the
 * snapshot in order), so a write by another thread in between is lost, as it can be
 * natively. In between, no write to the array goes unseen: the sort orders the
 * elements' indices, and the comparator is given pointers into the array, as C
 * requires, whose reads are events of its own. */

static void fp_rw_n(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->n, c->ch);
}

struct sort {
    const char *base;
    size_t size;
    int (*cmp)(const void *, const void *);
};

static int compare_indices(const void *a, const void *b, void *ctx) {
    const struct sort *s = ctx;
    return s->cmp(s->base + *(const size_t *)a * s->size, s->base + *(const size_t *)b * s->size);
}

void __cdpor_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    uint32_t site = __cdpor_site;
    size_t bytes = n * size;
    if (n < 2 || size == 0 || bytes / size != n || n > (SIZE_MAX - bytes) / sizeof(size_t)) {
        qsort(base, n, size, cmp);
        return;
    }
    size_t room = n * sizeof(size_t) + bytes;
    size_t *order = mmap(NULL, room, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (order == MAP_FAILED) {
        errno = ENOMEM;
        return;
    }
    struct call c = {.a = base, .n = bytes, .ch = R};
    event(fp_rw_n, &c, site);
    char *snapshot = (char *)(order + n);
    memcpy(snapshot, base, bytes);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    struct sort s = {.base = base, .size = size, .cmp = cmp};
    qsort_r(order, n, sizeof(size_t), compare_indices, &s);
    c.ch = W;
    event(fp_rw_n, &c, site);
    for (size_t i = 0; i < n; i++)
        memcpy((char *)base + i * size, snapshot + order[i] * size, size);
    munmap(order, room);
}

/* ---- hidden state of the library ----
 * Objects of the runtime's that stand for state all threads share. */

uint64_t cdpor_rand_state, cdpor_drand48_state, cdpor_environ_state;

/* The generators' state, the runtime's own (glibc's _r functions, with the state glibc
 * starts from: random() as after initstate(1, ..., 128), drand48() from zero), so that
 * an in-place reset puts it back; with the copy it goes back to. */
struct generators {
    struct random_data random;
    int32_t table[32];
    struct drand48_data drand48;
};

static struct generators gen, gen_start;

static void generators_init(void) {
    memset(&gen, 0, sizeof gen);
    initstate_r(1, (char *)gen.table, sizeof gen.table, &gen.random);
    gen_start = gen;
}

static int32_t next_random(void) {
    int32_t r;
    random_r(&gen.random, &r);
    return r;
}

static void fp_object(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, 8, c->ch);
}

void cdpor_state_event(uint64_t *object, uint32_t mode, uint32_t site) {
    struct call c = {.a = object, .ch = (int)mode};
    event(fp_object, &c, site);
}

int __cdpor_rand(void) {
    cdpor_state_event(&cdpor_rand_state, RW, __cdpor_site);
    return next_random();
}

void __cdpor_srand(unsigned seed) {
    cdpor_state_event(&cdpor_rand_state, W, __cdpor_site);
    srandom_r(seed, &gen.random);
}

long __cdpor_random(void) {
    cdpor_state_event(&cdpor_rand_state, RW, __cdpor_site);
    return next_random();
}

void __cdpor_srandom(unsigned seed) {
    cdpor_state_event(&cdpor_rand_state, W, __cdpor_site);
    srandom_r(seed, &gen.random);
}

static void fp_rand_r(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, sizeof(unsigned), RW);
}

int __cdpor_rand_r(unsigned *seed) {
    struct call c = {.a = seed};
    event(fp_rand_r, &c, __cdpor_site);
    return rand_r(seed);
}

double __cdpor_drand48(void) {
    cdpor_state_event(&cdpor_drand48_state, RW, __cdpor_site);
    double r;
    drand48_r(&gen.drand48, &r);
    return r;
}

long __cdpor_lrand48(void) {
    cdpor_state_event(&cdpor_drand48_state, RW, __cdpor_site);
    long r;
    lrand48_r(&gen.drand48, &r);
    return r;
}

long __cdpor_mrand48(void) {
    cdpor_state_event(&cdpor_drand48_state, RW, __cdpor_site);
    long r;
    mrand48_r(&gen.drand48, &r);
    return r;
}

void __cdpor_srand48(long seed) {
    cdpor_state_event(&cdpor_drand48_state, W, __cdpor_site);
    srand48_r(seed, &gen.drand48);
}

/* strtok: its saved position (strtok's own state, or *save for strtok_r), and the string
 * from where it starts to the end of the token, whose end it overwrites with a NUL. */
static void fp_strtok(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    char *const *save = c->c;
    const char *s = c->a ? c->a : *save;
    set_arg(r, c->c, sizeof(char *), RW);
    if (!s)
        return;
    const char *start = s + strspn(s, c->b);
    const char *end = start + strcspn(start, c->b);
    set(r, s, (size_t)(end - s) + 1, *start ? RW : R);
}

/* Where strtok's next call starts: glibc keeps it to itself, this mirrors it (it is
 * also the object that stands for that state). */
static char *strtok_saved;
/* glibc's own strtok keeps its position to itself: strtok_r with one of the runtime's. */
static char *strtok_position;

char *__cdpor_strtok(char *s, const char *delim) {
    struct call c = {.a = s, .b = delim, .c = &strtok_saved};
    event(fp_strtok, &c, __cdpor_site);
    char *from = s ? s : strtok_saved, *next = NULL;
    if (from) {
        char *start = from + strspn(from, delim);
        char *end = start + strcspn(start, delim);
        next = *start && *end ? end + 1 : end;
    }
    char *t = strtok_r(s, delim, &strtok_position);
    strtok_saved = next;
    return t;
}

char *__cdpor_strtok_r(char *s, const char *delim, char **save) {
    struct call c = {.a = s, .b = delim, .c = save};
    event(fp_strtok, &c, __cdpor_site);
    return strtok_r(s, delim, save);
}

char *__cdpor_getenv(const char *name) {
    cdpor_state_event(&cdpor_environ_state, R, __cdpor_site);
    return getenv(name);
}

/* The environment lives in the C library's allocator: a worker that changed it is forked
 * again (alloc.c). */
int __cdpor_setenv(const char *name, const char *value, int overwrite) {
    cdpor_state_event(&cdpor_environ_state, W, __cdpor_site);
    return setenv(name, value, overwrite);
}

int __cdpor_unsetenv(const char *name) {
    cdpor_state_event(&cdpor_environ_state, W, __cdpor_site);
    return unsetenv(name);
}

/* localtime and gmtime return one static struct tm, asctime and ctime one static text:
 * shared objects, found before any execution (cdpor_libc_init) so that their addresses
 * are known when a call is announced. */
static struct tm *tm_buffer;
static char *time_text;
/* glibc's localtime reads the time zone again at every call, and with TZ unset that
 * takes its allocator every time; localtime_r does not, and gives the same while TZ is
 * what it was when the server read it (cdpor_libc_init). */
static const char *tz_at_start;

#define TIME_TEXT 26

void cdpor_libc_init(void) {
    time_t zero = 0;
    tm_buffer = gmtime(&zero);
    time_text = asctime(tm_buffer);
    /* The time zone, read once here rather than by a call in some execution. */
    tzset();
    tz_at_start = getenv("TZ");
    generators_init();
}

/* What the C library writes in its static image when a time function runs: an in-place
 * reset puts it back (asctime's text is at most 26 bytes for years of four digits; the
 * image's page is put back whole). */
static void time_written(void) {
    cdpor_image_wrote(tm_buffer, sizeof *tm_buffer);
    cdpor_image_wrote(time_text, TIME_TEXT);
    cdpor_image_wrote(tzname, sizeof tzname);
    cdpor_image_wrote(&daylight, sizeof daylight);
    cdpor_image_wrote(&timezone, sizeof timezone);
}

void cdpor_libc_snapshot(void) {}

static void entropy_reset(void);

void cdpor_libc_reset(void) {
    strtok_saved = NULL;
    strtok_position = NULL;
    gen = gen_start;
    entropy_reset();
}

/* A broken-down time written from the time_t at b into a (the static buffer or the
 * caller's), or (m set) a text written from the struct tm at b into a. */
static void fp_time(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->m ? TIME_TEXT : sizeof(struct tm), W);
    set_arg(r, c->b, c->m ? sizeof(struct tm) : sizeof(time_t), R);
}

static void time_event(const void *to, const void *from, int text, uint32_t site) {
    struct call c = {.a = to, .b = from, .m = (size_t)text};
    if (to && from)
        event(fp_time, &c, site);
    time_written();
}

static int tz_unchanged(void) {
    const char *tz = getenv("TZ");
    return tz == tz_at_start || (tz && tz_at_start && !strcmp(tz, tz_at_start));
}

/* localtime into glibc's static buffer, without reading the zone again (glibc does
 * when the buffer given is its own). */
static struct tm *local_into_buffer(const time_t *t) {
    struct tm local;
    if (!localtime_r(t, &local))
        return NULL;
    *tm_buffer = local;
    return tm_buffer;
}

struct tm *__cdpor_localtime(const time_t *t) {
    time_event(tm_buffer, t, 0, __cdpor_site);
    return tz_unchanged() && t ? local_into_buffer(t) : localtime(t);
}

struct tm *__cdpor_gmtime(const time_t *t) {
    time_event(tm_buffer, t, 0, __cdpor_site);
    return gmtime(t);
}

struct tm *__cdpor_localtime_r(const time_t *t, struct tm *out) {
    time_event(out, t, 0, __cdpor_site);
    return localtime_r(t, out);
}

struct tm *__cdpor_gmtime_r(const time_t *t, struct tm *out) {
    time_event(out, t, 0, __cdpor_site);
    return gmtime_r(t, out);
}

char *__cdpor_asctime(const struct tm *tm) {
    time_event(time_text, tm, 1, __cdpor_site);
    return asctime(tm);
}

char *__cdpor_ctime(const time_t *t) {
    uint32_t site = __cdpor_site;
    time_event(tm_buffer, t, 0, site);
    time_event(time_text, tm_buffer, 1, site);
    if (!tz_unchanged() || !t)
        return ctime(t);
    return local_into_buffer(t) ? asctime(tm_buffer) : NULL;
}

/* ---- what cdpor cannot control ----
 * Time stands still at CDPOR_EPOCH (2024-01-01 00:00:00 UTC) and the process id is
 * CDPOR_PID, in every execution: a program that reads them behaves the same in each, as
 * the engine needs. Writes through the pointers they take are events. */
#define CDPOR_EPOCH 1704067200
#define CDPOR_PID 4242

/* A word of the clock's reading, stored as the runtime's own store: the same each
 * time (time stands still), so a loop that reads the clock again changes nothing (the
 * store is silent), and a timed wait there that timed out is not explored again. */
static void store_word(void *p, uint64_t value, uint32_t site) {
    _Static_assert(sizeof(time_t) == 8 && sizeof(long) == 8 && sizeof(suseconds_t) == 8,
                   "the clock's words are 8 bytes");
    cdpor_store((uint64_t)(uintptr_t)p, 8, value, site);
}

time_t __cdpor_time(time_t *t) {
    cdpor_clock_read();
    if (t)
        store_word(t, CDPOR_EPOCH, __cdpor_site);
    return CDPOR_EPOCH;
}

int __cdpor_gettimeofday(struct timeval *tv, void *tz) {
    (void)tz;
    cdpor_clock_read();
    if (tv) {
        store_word(&tv->tv_sec, CDPOR_EPOCH, __cdpor_site);
        store_word(&tv->tv_usec, 0, __cdpor_site);
    }
    return 0;
}

static void store_timespec(struct timespec *ts, uint32_t site) {
    store_word(&ts->tv_sec, CDPOR_EPOCH, site);
    store_word(&ts->tv_nsec, 0, site);
}

int __cdpor_clock_gettime(clockid_t clock, struct timespec *ts) {
    (void)clock;
    cdpor_clock_read();
    if (ts)
        store_timespec(ts, __cdpor_site);
    return 0;
}

int __cdpor_timespec_get(struct timespec *ts, int base) {
    if (base != TIME_UTC)
        return 0;
    cdpor_clock_read();
    store_timespec(ts, __cdpor_site);
    return base;
}

clock_t __cdpor_clock(void) {
    cdpor_clock_read();
    return 0;
}

/* The processor's cycle counter (`__rdtsc()`) stands still too. */
uint64_t __cdpor_rdtsc(void) {
    cdpor_clock_read();
    return (uint64_t)CDPOR_EPOCH * 1000000000u;
}

/* Entropy (getrandom, getentropy, /dev/urandom and /dev/random) is a fixed stream, the
 * same in every execution: a generator whose state all threads share, so the order in
 * which threads draw from it is explored. */
#define CDPOR_ENTROPY_START 0x9e3779b97f4a7c15u
uint64_t cdpor_entropy_state = CDPOR_ENTROPY_START;

static void entropy_reset(void) { cdpor_entropy_state = CDPOR_ENTROPY_START; }

static uint64_t entropy_next(void) {
    /* splitmix64 */
    uint64_t z = (cdpor_entropy_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void entropy_fill(void *buf, size_t n) {
    unsigned char *p = buf;
    while (n) {
        uint64_t v = entropy_next();
        size_t k = n < sizeof v ? n : sizeof v;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

static void fp_entropy(const void *ctx, cdpor_ranges *r) {
    const struct call *c = ctx;
    set(r, c->a, c->n, W);
    set_arg(r, &cdpor_entropy_state, sizeof cdpor_entropy_state, RW);
}

static void entropy_event(void *buf, size_t n, uint32_t site) {
    struct call c = {.a = buf, .n = n};
    event(fp_entropy, &c, site);
}

ssize_t __cdpor_getrandom(void *buf, size_t n, unsigned flags) {
    (void)flags;
    entropy_event(buf, n, __cdpor_site);
    entropy_fill(buf, n);
    return (ssize_t)n;
}

int __cdpor_getentropy(void *buf, size_t n) {
    if (n > 256) {
        errno = EIO;
        return -1;
    }
    entropy_event(buf, n, __cdpor_site);
    entropy_fill(buf, n);
    return 0;
}

/* Bytes a random device gives one open file: more than any test reads. */
#define ENTROPY_FILE (1u << 20)

static int random_device(const char *path) {
    return path && (!strcmp(path, "/dev/urandom") || !strcmp(path, "/dev/random"));
}

/* A random device, opened: a file in memory holding the stream's next bytes. */
static int open_random(uint32_t site) {
    entropy_event(NULL, 0, site);
    int fd = memfd_create("cdpor-entropy", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    unsigned char *bytes = mmap(NULL, ENTROPY_FILE, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (bytes == MAP_FAILED) {
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    entropy_fill(bytes, ENTROPY_FILE);
    ssize_t done = write(fd, bytes, ENTROPY_FILE);
    munmap(bytes, ENTROPY_FILE);
    if (done != (ssize_t)ENTROPY_FILE || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        errno = EIO;
        return -1;
    }
    return fd;
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int __cdpor_open(const char *path, int flags, ...) {
    outside("open", __cdpor_site);
    if (random_device(path))
        return open_random(__cdpor_site);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open(path, flags, mode);
}

int __cdpor_openat(int dir, const char *path, int flags, ...) {
    outside("openat", __cdpor_site);
    if (random_device(path))
        return open_random(__cdpor_site);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return openat(dir, path, flags, mode);
}

FILE *__cdpor_fopen(const char *path, const char *mode) {
    outside("fopen", __cdpor_site);
    if (!random_device(path))
        return fopen(path, mode);
    int fd = open_random(__cdpor_site);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    if (!f && fd >= 0)
        close(fd);
    return f;
}

pid_t __cdpor_getpid(void) { return CDPOR_PID; }

pid_t __cdpor_getppid(void) { return CDPOR_PID - 1; }

pid_t __cdpor_gettid(void) { return CDPOR_PID + (pid_t)cdpor_current_tid(); }

/* ---- attribute objects ----
 * glibc's functions fill them in; the call is a read or write of the whole object. */

static void attr_event(const void *p, size_t n, uint32_t mode, uint32_t site) {
    struct call c = {.a = p, .n = n, .ch = (int)mode};
    if (p)
        event(fp_rw_n, &c, site);
}

#define ATTR(ret, name, type, mode, params, args)                                            \
    ret __cdpor_##name params {                                                              \
        attr_event(attr, sizeof(type), mode, __cdpor_site);                                  \
        return name args;                                                                    \
    }

ATTR(int, pthread_attr_setdetachstate, pthread_attr_t, RW, (pthread_attr_t * attr, int s), (attr, s))
ATTR(int, pthread_attr_getdetachstate, pthread_attr_t, R, (const pthread_attr_t *attr, int *s), (attr, s))
ATTR(int, pthread_attr_setstacksize, pthread_attr_t, RW, (pthread_attr_t * attr, size_t s), (attr, s))
ATTR(int, pthread_attr_getstacksize, pthread_attr_t, R, (const pthread_attr_t *attr, size_t *s), (attr, s))
ATTR(int, pthread_mutexattr_init, pthread_mutexattr_t, W, (pthread_mutexattr_t * attr), (attr))
ATTR(int, pthread_mutexattr_destroy, pthread_mutexattr_t, W, (pthread_mutexattr_t * attr), (attr))
ATTR(int, pthread_mutexattr_settype, pthread_mutexattr_t, RW, (pthread_mutexattr_t * attr, int t), (attr, t))
ATTR(int, pthread_mutexattr_gettype, pthread_mutexattr_t, R, (const pthread_mutexattr_t *attr, int *t), (attr, t))
ATTR(int, pthread_rwlockattr_init, pthread_rwlockattr_t, W, (pthread_rwlockattr_t * attr), (attr))
ATTR(int, pthread_rwlockattr_destroy, pthread_rwlockattr_t, W, (pthread_rwlockattr_t * attr), (attr))
ATTR(int, pthread_rwlockattr_setpshared, pthread_rwlockattr_t, RW, (pthread_rwlockattr_t * attr, int s), (attr, s))
ATTR(int, pthread_rwlockattr_getpshared, pthread_rwlockattr_t, R, (const pthread_rwlockattr_t *attr, int *s), (attr, s))
ATTR(int, pthread_condattr_init, pthread_condattr_t, W, (pthread_condattr_t * attr), (attr))
ATTR(int, pthread_condattr_destroy, pthread_condattr_t, W, (pthread_condattr_t * attr), (attr))
ATTR(int, pthread_attr_setguardsize, pthread_attr_t, RW, (pthread_attr_t * attr, size_t s), (attr, s))
ATTR(int, pthread_attr_getguardsize, pthread_attr_t, R, (const pthread_attr_t *attr, size_t *s), (attr, s))
ATTR(int, pthread_attr_setscope, pthread_attr_t, RW, (pthread_attr_t * attr, int s), (attr, s))
ATTR(int, pthread_attr_getscope, pthread_attr_t, R, (const pthread_attr_t *attr, int *s), (attr, s))
ATTR(int, pthread_attr_setinheritsched, pthread_attr_t, RW, (pthread_attr_t * attr, int s), (attr, s))
ATTR(int, pthread_attr_getinheritsched, pthread_attr_t, R, (const pthread_attr_t *attr, int *s), (attr, s))
ATTR(int, pthread_attr_setschedpolicy, pthread_attr_t, RW, (pthread_attr_t * attr, int s), (attr, s))
ATTR(int, pthread_attr_getschedpolicy, pthread_attr_t, R, (const pthread_attr_t *attr, int *s), (attr, s))
ATTR(int, pthread_attr_setschedparam, pthread_attr_t, RW,
     (pthread_attr_t * attr, const struct sched_param *s), (attr, s))
ATTR(int, pthread_attr_getschedparam, pthread_attr_t, R,
     (const pthread_attr_t *attr, struct sched_param *s), (attr, s))
ATTR(int, pthread_mutexattr_setprotocol, pthread_mutexattr_t, RW, (pthread_mutexattr_t * attr, int p), (attr, p))
ATTR(int, pthread_mutexattr_getprotocol, pthread_mutexattr_t, R, (const pthread_mutexattr_t *attr, int *p), (attr, p))
ATTR(int, pthread_mutexattr_setpshared, pthread_mutexattr_t, RW, (pthread_mutexattr_t * attr, int p), (attr, p))
ATTR(int, pthread_mutexattr_getpshared, pthread_mutexattr_t, R, (const pthread_mutexattr_t *attr, int *p), (attr, p))
ATTR(int, pthread_mutexattr_getrobust, pthread_mutexattr_t, R, (const pthread_mutexattr_t *attr, int *r), (attr, r))
ATTR(int, pthread_condattr_setclock, pthread_condattr_t, RW, (pthread_condattr_t * attr, clockid_t c), (attr, c))
ATTR(int, pthread_condattr_getclock, pthread_condattr_t, R, (const pthread_condattr_t *attr, clockid_t *c), (attr, c))
ATTR(int, pthread_condattr_setpshared, pthread_condattr_t, RW, (pthread_condattr_t * attr, int p), (attr, p))
ATTR(int, pthread_condattr_getpshared, pthread_condattr_t, R, (const pthread_condattr_t *attr, int *p), (attr, p))
