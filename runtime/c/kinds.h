/* Visible operation kinds, shared with runtime/sched/src/event.rs (a Rust test checks
 * that the two agree), and the flags and modes the C side sets. */
#ifndef CDPOR_KINDS_H
#define CDPOR_KINDS_H

#define CDPOR_K_READ 1
#define CDPOR_K_WRITE 2
#define CDPOR_K_RMW 3
#define CDPOR_K_CMPXCHG 4
#define CDPOR_K_COPY 5
#define CDPOR_K_FENCE 6
#define CDPOR_K_LIB 7
#define CDPOR_K_ATOMIC 8
#define CDPOR_K_NONDET 9
#define CDPOR_K_LOCK 10
#define CDPOR_K_TRYLOCK 11
#define CDPOR_K_FREE 12
#define CDPOR_K_UNLOCK 13
#define CDPOR_K_MUTEXINIT 14
#define CDPOR_K_MUTEXDESTROY 15
#define CDPOR_K_CONDWAIT 16
#define CDPOR_K_CONDSIGNAL 17
#define CDPOR_K_CONDWAKE 18
#define CDPOR_K_CONDBROADCAST 19
#define CDPOR_K_CREATE 20
#define CDPOR_K_JOIN 21
#define CDPOR_K_THREADEXIT 22
#define CDPOR_K_DETACH 23
#define CDPOR_K_CONDINIT 24
#define CDPOR_K_CONDDESTROY 25
#define CDPOR_K_AWAIT 26
#define CDPOR_K_PROCESSEXIT 30
#define CDPOR_K_ASSERTFAIL 31
#define CDPOR_K_ABORT 32
#define CDPOR_K_CRASH 33
#define CDPOR_K_ASSUMEFAIL 34
#define CDPOR_K_SEMINIT 40
#define CDPOR_K_SEMWAIT 41
#define CDPOR_K_SEMTRYWAIT 42
#define CDPOR_K_SEMPOST 43
#define CDPOR_K_SEMGETVALUE 44
#define CDPOR_K_SEMDESTROY 45
#define CDPOR_K_ONCEBEGIN 46
#define CDPOR_K_ONCEEND 47
#define CDPOR_K_RWINIT 48
#define CDPOR_K_RDLOCK 49
#define CDPOR_K_TRYRDLOCK 50
#define CDPOR_K_WRLOCK 51
#define CDPOR_K_TRYWRLOCK 52
#define CDPOR_K_RWUNLOCK 53
#define CDPOR_K_RWDESTROY 54
#define CDPOR_K_BARRIERINIT 55
#define CDPOR_K_BARRIERWAIT 56
#define CDPOR_K_BARRIERPASS 57
#define CDPOR_K_BARRIERDESTROY 58

/* How a library call uses a range (runtime/sched/src/ops/memory.rs). */
#define CDPOR_MODE_READ 1
#define CDPOR_MODE_WRITE 2
#define CDPOR_MODE_READ_WRITE 3

#endif
