/* Process entry and fatal-signal handling. The user's main is renamed to
 * __cdpor_user_main by the instrumentation; this main hands the process to the fork
 * server. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt.h"

int main(int argc, char **argv, char **envp) { return cdpor_rt_main(argc, argv, envp); }

static void on_fatal(int sig, siginfo_t *info, void *ctx) {
    ucontext_t *uc = ctx;
    cdpor_crash(sig, (uint64_t)(uintptr_t)info->si_addr, (uint64_t)uc->uc_mcontext.gregs[REG_RIP]);
}

/* Fatal signals run on an alternate stack so that a fiber's stack overflow is reported. */
void cdpor_install_signals(void *altstack, size_t size) {
    stack_t ss = {.ss_sp = altstack, .ss_size = size, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* The fork server discards the program's output during exploration; giving stdio a
 * static buffer now spares every execution the allocation. */
void cdpor_quiet_stdio(int devnull) {
    static char outbuf[BUFSIZ], errbuf[BUFSIZ];
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
}

void cdpor_flush_stdio(void) {
    fflush(stdout);
    fflush(stderr);
}
