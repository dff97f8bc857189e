/* Fibers: every user thread runs on its own stack inside one OS thread, so that the
 * process can fork() at any point and a context switch costs a few nanoseconds (glibc's
 * swapcontext makes a syscall to save the signal mask). */
#include "rt.h"

#if !defined(__x86_64__)
#error "cdpor's fibers are written for x86_64"
#endif

/* Saves the callee-saved registers, MXCSR and the x87 control word on the current stack,
 * stores the stack pointer in *save_sp and resumes the fiber whose stack pointer is to_sp. */
__asm__(".text\n"
        ".globl cdpor_fiber_switch\n"
        ".type cdpor_fiber_switch,@function\n"
        "cdpor_fiber_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size cdpor_fiber_switch, .-cdpor_fiber_switch\n");

/* A new fiber's first frame "returns" here with its entry function in rbx, and the stack
 * aligned as at a function's entry. The entry never returns. */
__asm__(".text\n"
        ".type cdpor_fiber_start,@function\n"
        "cdpor_fiber_start:\n"
        "  subq $8, %rsp\n"
        "  call *%rbx\n"
        "  ud2\n"
        ".size cdpor_fiber_start, .-cdpor_fiber_start\n");

void cdpor_fiber_start(void);

/* Lays out a first frame that cdpor_fiber_switch "returns" into cdpor_fiber_start from. */
void *cdpor_fiber_init(void *stack_top, void (*entry)(void)) {
    uint64_t *sp = (uint64_t *)((uintptr_t)stack_top & ~(uintptr_t)15);
    *--sp = 0; /* fake return address: ends backtraces */
    *--sp = (uint64_t)(uintptr_t)cdpor_fiber_start;
    *--sp = 0;                            /* rbp */
    *--sp = (uint64_t)(uintptr_t)entry;   /* rbx */
    for (int i = 0; i < 4; i++)
        *--sp = 0; /* r12 r13 r14 r15 */
    *--sp = 0x1f80ULL | (0x037fULL << 32); /* default MXCSR, x87 control word */
    return sp;
}
