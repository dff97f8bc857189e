/* The runtime's C side talks to its Rust side (runtime/src) through these functions. */
#ifndef CDPOR_RT_H
#define CDPOR_RT_H

#include <stddef.h>
#include <stdint.h>

#define CDPOR_MAX_THREADS 512 /* runtime/sched/src/event.rs: MAX_THREADS */

/* Set by instrumented code right before each call to a redirected function. */
extern uint32_t __cdpor_site;

/* The ranges of user memory a C library call touches: up to two, each read, written or
 * both (modes as in kinds.h). */
typedef struct cdpor_ranges {
    uint64_t addr, len, arg, arg_len;
    uint32_t mode, arg_mode;
} cdpor_ranges;

/* Computes a call's ranges from the current contents of memory (a string's length),
 * without side effects on memory (errno is restored around it). */
typedef void (*cdpor_footprint)(const void *ctx, cdpor_ranges *out);

/* Rust side. */
int cdpor_rt_main(int argc, char **argv, char **envp);
void cdpor_access(uint32_t kind, uint64_t addr, uint64_t len, uint64_t value, uint32_t site,
                  uint32_t flags);
void cdpor_store(uint64_t addr, uint32_t len, uint64_t value, uint32_t site);
void cdpor_lib(cdpor_footprint fp, const void *ctx, uint32_t site);
/* Stops the run: the call at `site` asks for what cdpor does not model (`what`). */
_Noreturn void cdpor_refuse(const char *what, uint32_t site);
void cdpor_loop(uint32_t loop, uint32_t flags, const uint64_t *vals, uint32_t n, uint32_t site);
/* The current thread read the clock (progress for its loops). */
void cdpor_clock_read(void);
/* A frame of `bytes` is about to be allocated (src/instrument/frames.rs). */
void cdpor_frame(uint64_t bytes, uint32_t site);

/* libc.c, for alloc.c: the read of strdup's source. */
void cdpor_read_string(const char *s, size_t max, uint32_t site);
/* libc.c: an event on an object of the runtime's that stands for hidden library state. */
void cdpor_state_event(uint64_t *object, uint32_t mode, uint32_t site);
/* tls.c, called by the runtime when a thread exits: its thread-specific data's
 * destructors. */
void cdpor_key_destructors(uint32_t site);
/* tls.c, called by the runtime when a thread takes the number of a joined one. */
void cdpor_thread_reset(uint32_t t);
/* The current thread's block of `size` bytes of thread-local variables, made accessible
 * (runtime/sched/src/layout.rs). */
void *cdpor_tls_block(uint64_t size);
/* The result of the current thread's last join: the joined thread's value. */
uint64_t cdpor_joined_value(void);
/* libc.c, called by the fork server before any execution. */
void cdpor_libc_init(void);
uint64_t cdpor_create(void *(*start)(void *), void *arg, uint32_t site);
int cdpor_join(uint64_t handle, void **retval, uint32_t site);
int cdpor_detach(uint64_t handle, uint32_t site);
_Noreturn void cdpor_thread_exit(void *retval, uint32_t site);
int cdpor_sync(uint32_t kind, void *object, uint32_t site);
int cdpor_sync_value(uint32_t kind, void *object, uint64_t value, uint32_t site);
int cdpor_spin(uint32_t kind, void *object, uint32_t site);
int cdpor_cond_wait(void *cond, void *mutex, uint32_t site);
int cdpor_barrier_wait(void *barrier, uint32_t site, int used);
int cdpor_cond_timedwait(void *cond, void *mutex, uint32_t site);
_Noreturn void cdpor_process_exit(int code, uint32_t site);
_Noreturn void cdpor_assert_fail(const char *expr, const char *file, unsigned line,
                                 uint32_t site);
_Noreturn void cdpor_abort(uint32_t site);
_Noreturn void cdpor_reach_error(uint32_t site);
void cdpor_assume(int cond, uint32_t site);
uint64_t cdpor_nondet(uint32_t bits, uint32_t is_signed, uint32_t site, uint32_t flags,
                      const int64_t *cuts, uint32_t n_cuts);
void cdpor_nondet_used(uint32_t site, uint32_t any);
void cdpor_atomic_begin(uint32_t site);
void cdpor_atomic_end(uint32_t site);
uint64_t cdpor_self(void);
uint32_t cdpor_current_tid(void);
void *cdpor_heap_alloc(uint64_t size, uint64_t align, uint32_t site);
int cdpor_heap_free(void *p, uint32_t site);
uint64_t cdpor_heap_size(const void *p);
_Noreturn void cdpor_crash(int sig, uint64_t addr, uint64_t pc);
_Noreturn void cdpor_hung(void);
/* A fault at addr that is a thread's stack growing (runtime/src/layout.rs): 1 if the
 * access can run again. */
int cdpor_grow_stack(uint64_t addr);
/* The current execution changes what no in-place reset puts back (a file, the kernel's
 * state, state cdpor does not see): `what` and `site` say which call (worker.rs). */
void cdpor_irreversible(const char *what, uint32_t site);
/* A call of the C library's allocator (alloc.c): an in-place worker cannot reset after it. */
void cdpor_library_alloc(void);
/* The bytes [p, p+n) of the static image are written by the C library on the program's
 * behalf: an in-place reset puts them back (runtime/src/image.rs). */
void cdpor_image_wrote(const void *p, size_t n);

/* In-place reset, each file its own part (reset.c calls them). */
void cdpor_main_reset(void);
void cdpor_shims_reset(uint32_t threads);
void cdpor_tls_reset(uint32_t threads);
void cdpor_libc_snapshot(void);
void cdpor_libc_reset(void);

/* C side, called from Rust. */
void cdpor_fiber_switch(void **save_sp, void *to_sp);
void *cdpor_fiber_init(void *stack_top, void (*entry)(void));
void cdpor_install_signals(void *altstack, size_t size);
void cdpor_quiet_stdio(int devnull);
void cdpor_flush_stdio(void);
int __cdpor_user_main(int argc, char **argv, char **envp);
int cdpor_protected_footprint(cdpor_footprint fp, const void *ctx, cdpor_ranges *out);

#endif
