/* Process entry and fatal-signal handling. The user's main is renamed to
 * __cdpor_user_main by the instrumentation; this main hands the process to the fork
 * server. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt.h"

int main(int argc, char **argv, char **envp) { return cdpor_rt_main(argc, argv, envp); }

extern char cdpor_probe_begin[], cdpor_probe_end[], cdpor_probe_fault[];

/* A library call's footprint computed by the runtime itself (when the call executes):
 * a fault there is reported to the runtime instead of crashing it. */
static jmp_buf footprint_env;
static volatile sig_atomic_t computing_footprint;

void cdpor_main_reset(void) {
    computing_footprint = 0;
    memset(&footprint_env, 0, sizeof footprint_env);
}

int cdpor_protected_footprint(cdpor_footprint fp, const void *ctx, cdpor_ranges *out) {
    int saved = errno;
    if (_setjmp(footprint_env)) {
        computing_footprint = 0;
        errno = saved;
        return -1;
    }
    computing_footprint = 1;
    fp(ctx, out);
    computing_footprint = 0;
    errno = saved;
    return 0;
}

/* One execution: body(arg) runs it, and its end (on whichever fiber) comes back here
 * through cdpor_exec_leave, leaving the fibers' frames behind. */
void cdpor_exec_run(jmp_buf *env, void (*body)(void *), void *arg) {
    if (!_setjmp(*env))
        body(arg);
}

_Noreturn void cdpor_exec_leave(jmp_buf *env) { _longjmp(*env, 1); }

/* A fault just below the accessible part of a thread's stack is the stack growing (in a
 * worker that resets in place): the access runs again. A fault in a probe resumes at the
 * probe's fault exit; any other is the program's crash (or the runtime's), which
 * cdpor_crash turns into an operation of the crashing thread without returning here. */
static void on_fatal(int sig, siginfo_t *info, void *ctx) {
    ucontext_t *uc = ctx;
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    if (sig == SIGSEGV && cdpor_grow_stack((uint64_t)(uintptr_t)info->si_addr))
        return;
    if (pc >= (uintptr_t)cdpor_probe_begin && pc < (uintptr_t)cdpor_probe_end) {
        uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)cdpor_probe_fault;
        return;
    }
    if (computing_footprint)
        _longjmp(footprint_env, 1);
    cdpor_crash(sig, (uint64_t)(uintptr_t)info->si_addr, (uint64_t)pc);
}

/* cdpor's signal that an execution ran too long (cdpor_hung). */
static void on_hang(int sig) {
    (void)sig;
    cdpor_hung();
}

/* Fatal signals run on an alternate stack so that a fiber's stack overflow is reported.
 * The handler stays installed and unblocked (SA_NODEFER): a crashed thread leaves it for
 * good, and another thread may crash later in the same execution. */
void cdpor_install_signals(void *altstack, size_t size) {
    stack_t ss = {.ss_sp = altstack, .ss_size = size, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    struct sigaction hang;
    memset(&hang, 0, sizeof hang);
    hang.sa_handler = on_hang;
    hang.sa_flags = SA_ONSTACK;
    sigemptyset(&hang.sa_mask);
    sigaction(SIGUSR2, &hang, NULL);
}

/* The fork server discards the program's output during exploration, and reads its
 * input from /dev/null; giving stdio static buffers now spares every execution the
 * allocation (and an in-place worker the C library's allocator). */
void cdpor_quiet_stdio(int devnull) {
    static char inbuf[BUFSIZ], outbuf[BUFSIZ], errbuf[BUFSIZ];
    dup2(devnull, STDIN_FILENO);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    setvbuf(stdin, inbuf, _IOFBF, sizeof inbuf);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
}

void cdpor_flush_stdio(void) {
    fflush(stdout);
    fflush(stderr);
}
