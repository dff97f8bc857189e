//! What cdpor knows about the external functions a program calls: the ones the runtime
//! replaces (pthreads, the allocator, and the C library functions that touch program
//! memory or hidden shared state: `runtime/c/`), the ones it refuses, and the ones known
//! to reach no program memory through their pointer arguments. Any other external
//! function called with a pointer to memory another thread may see gets a warning: its
//! accesses are not events.

/// Functions the runtime replaces: a call to `f` becomes a call to `__cdpor_<suffix>`.
pub const REDIRECTS: &[(&str, &str)] = &[
    // threads
    ("pthread_create", "pthread_create"),
    ("pthread_join", "pthread_join"),
    ("pthread_exit", "pthread_exit"),
    // what pthread_cleanup_push and _pop expand to
    ("__pthread_register_cancel", "pthread_register_cancel"),
    ("__pthread_unregister_cancel", "pthread_unregister_cancel"),
    ("__pthread_unwind_next", "pthread_unwind_next"),
    ("pthread_self", "pthread_self"),
    ("pthread_equal", "pthread_equal"),
    ("pthread_detach", "pthread_detach"),
    ("pthread_attr_init", "pthread_attr_init"),
    ("pthread_attr_destroy", "pthread_attr_destroy"),
    ("pthread_attr_setdetachstate", "pthread_attr_setdetachstate"),
    ("pthread_attr_getdetachstate", "pthread_attr_getdetachstate"),
    ("pthread_attr_setstacksize", "pthread_attr_setstacksize"),
    ("pthread_attr_getstacksize", "pthread_attr_getstacksize"),
    ("pthread_mutexattr_init", "pthread_mutexattr_init"),
    ("pthread_mutexattr_destroy", "pthread_mutexattr_destroy"),
    ("pthread_mutexattr_settype", "pthread_mutexattr_settype"),
    ("pthread_mutexattr_gettype", "pthread_mutexattr_gettype"),
    ("pthread_condattr_init", "pthread_condattr_init"),
    ("pthread_condattr_destroy", "pthread_condattr_destroy"),
    // attributes that change nothing cdpor models (one process, no priorities, time
    // not modelled; a robust mutex would, and is refused)
    ("pthread_attr_setguardsize", "pthread_attr_setguardsize"),
    ("pthread_attr_getguardsize", "pthread_attr_getguardsize"),
    ("pthread_attr_setscope", "pthread_attr_setscope"),
    ("pthread_attr_getscope", "pthread_attr_getscope"),
    (
        "pthread_attr_setinheritsched",
        "pthread_attr_setinheritsched",
    ),
    (
        "pthread_attr_getinheritsched",
        "pthread_attr_getinheritsched",
    ),
    ("pthread_attr_setschedpolicy", "pthread_attr_setschedpolicy"),
    ("pthread_attr_getschedpolicy", "pthread_attr_getschedpolicy"),
    ("pthread_attr_setschedparam", "pthread_attr_setschedparam"),
    ("pthread_attr_getschedparam", "pthread_attr_getschedparam"),
    (
        "pthread_mutexattr_setprotocol",
        "pthread_mutexattr_setprotocol",
    ),
    (
        "pthread_mutexattr_getprotocol",
        "pthread_mutexattr_getprotocol",
    ),
    (
        "pthread_mutexattr_setpshared",
        "pthread_mutexattr_setpshared",
    ),
    (
        "pthread_mutexattr_getpshared",
        "pthread_mutexattr_getpshared",
    ),
    ("pthread_mutexattr_getrobust", "pthread_mutexattr_getrobust"),
    ("pthread_condattr_setclock", "pthread_condattr_setclock"),
    ("pthread_condattr_getclock", "pthread_condattr_getclock"),
    ("pthread_condattr_setpshared", "pthread_condattr_setpshared"),
    ("pthread_condattr_getpshared", "pthread_condattr_getpshared"),
    ("pthread_mutex_init", "pthread_mutex_init"),
    ("pthread_mutex_destroy", "pthread_mutex_destroy"),
    ("pthread_mutex_lock", "pthread_mutex_lock"),
    ("pthread_mutex_trylock", "pthread_mutex_trylock"),
    ("pthread_mutex_unlock", "pthread_mutex_unlock"),
    ("pthread_mutex_timedlock", "pthread_mutex_timedlock"),
    ("pthread_mutex_clocklock", "pthread_mutex_clocklock"),
    ("pthread_cond_init", "pthread_cond_init"),
    ("pthread_cond_destroy", "pthread_cond_destroy"),
    ("pthread_cond_wait", "pthread_cond_wait"),
    ("pthread_cond_timedwait", "pthread_cond_timedwait"),
    ("pthread_cond_clockwait", "pthread_cond_clockwait"),
    ("pthread_cond_signal", "pthread_cond_signal"),
    ("pthread_cond_broadcast", "pthread_cond_broadcast"),
    // the end of the program
    ("exit", "exit"),
    ("_exit", "exit_now"),
    ("_Exit", "exit_now"),
    ("quick_exit", "quick_exit"),
    ("atexit", "atexit"),
    ("at_quick_exit", "at_quick_exit"),
    ("abort", "abort"),
    ("__assert_fail", "assert_fail"),
    // the allocator
    ("malloc", "malloc"),
    ("calloc", "calloc"),
    ("realloc", "realloc"),
    ("free", "free"),
    ("aligned_alloc", "aligned_alloc"),
    ("memalign", "memalign"),
    ("posix_memalign", "posix_memalign"),
    ("strdup", "strdup"),
    ("strndup", "strndup"),
    // <string.h>
    ("strlen", "strlen"),
    ("strnlen", "strnlen"),
    ("strcpy", "strcpy"),
    ("stpcpy", "stpcpy"),
    ("strncpy", "strncpy"),
    ("strcat", "strcat"),
    ("strncat", "strncat"),
    ("strcmp", "strcmp"),
    ("strncmp", "strncmp"),
    ("strchr", "strchr"),
    ("strrchr", "strrchr"),
    ("strstr", "strstr"),
    ("memcmp", "memcmp"),
    ("memchr", "memchr"),
    ("memcpy", "lib_memcpy"),
    ("memmove", "lib_memmove"),
    ("memset", "lib_memset"),
    // stdio
    ("printf", "printf"),
    ("vprintf", "vprintf"),
    ("fprintf", "fprintf"),
    ("vfprintf", "vfprintf"),
    ("dprintf", "dprintf"),
    ("vdprintf", "vdprintf"),
    ("sprintf", "sprintf"),
    ("vsprintf", "vsprintf"),
    ("snprintf", "snprintf"),
    ("vsnprintf", "vsnprintf"),
    ("puts", "puts"),
    ("fputs", "fputs"),
    ("fwrite", "fwrite"),
    ("fread", "fread"),
    ("fgets", "fgets"),
    ("read", "read"),
    ("write", "write"),
    // numbers from strings
    ("atoi", "atoi"),
    ("atol", "atol"),
    ("atoll", "atoll"),
    ("atof", "atof"),
    ("strtol", "strtol"),
    ("strtoul", "strtoul"),
    ("strtoll", "strtoll"),
    ("strtoull", "strtoull"),
    ("strtod", "strtod"),
    ("strtof", "strtof"),
    ("strtold", "strtold"),
    ("qsort", "qsort"),
    // hidden state
    ("rand", "rand"),
    ("srand", "srand"),
    ("random", "random"),
    ("srandom", "srandom"),
    ("rand_r", "rand_r"),
    ("drand48", "drand48"),
    ("lrand48", "lrand48"),
    ("mrand48", "mrand48"),
    ("srand48", "srand48"),
    ("strtok", "strtok"),
    ("strtok_r", "strtok_r"),
    ("getenv", "getenv"),
    ("localtime", "localtime"),
    ("gmtime", "gmtime"),
    ("localtime_r", "localtime_r"),
    ("gmtime_r", "gmtime_r"),
    ("asctime", "asctime"),
    ("ctime", "ctime"),
    ("setenv", "setenv"),
    ("unsetenv", "unsetenv"),
    // what cdpor cannot control: fixed values
    ("time", "time"),
    ("gettimeofday", "gettimeofday"),
    ("clock_gettime", "clock_gettime"),
    ("timespec_get", "timespec_get"),
    ("clock", "clock"),
    ("getpid", "getpid"),
    ("getppid", "getppid"),
    ("gettid", "gettid"),
    ("getrandom", "getrandom"),
    ("getentropy", "getentropy"),
    ("llvm.x86.rdtsc", "rdtsc"),
    ("llvm.readcyclecounter", "rdtsc"),
    ("open", "open"),
    ("open64", "open"),
    ("openat", "openat"),
    ("openat64", "openat"),
    ("fopen", "fopen"),
    ("fopen64", "fopen"),
    ("sleep", "sleep"),
    ("usleep", "usleep"),
    ("nanosleep", "nanosleep"),
    ("sched_yield", "sched_yield"),
    // spin locks
    ("pthread_spin_init", "pthread_spin_init"),
    ("pthread_spin_destroy", "pthread_spin_destroy"),
    ("pthread_spin_lock", "pthread_spin_lock"),
    ("pthread_spin_trylock", "pthread_spin_trylock"),
    ("pthread_spin_unlock", "pthread_spin_unlock"),
    // once
    ("pthread_once", "pthread_once"),
    ("call_once", "call_once"),
    // read-write locks
    ("pthread_rwlock_init", "pthread_rwlock_init"),
    ("pthread_rwlock_destroy", "pthread_rwlock_destroy"),
    ("pthread_rwlock_rdlock", "pthread_rwlock_rdlock"),
    ("pthread_rwlock_tryrdlock", "pthread_rwlock_tryrdlock"),
    ("pthread_rwlock_timedrdlock", "pthread_rwlock_timedrdlock"),
    ("pthread_rwlock_clockrdlock", "pthread_rwlock_clockrdlock"),
    ("pthread_rwlock_wrlock", "pthread_rwlock_wrlock"),
    ("pthread_rwlock_trywrlock", "pthread_rwlock_trywrlock"),
    ("pthread_rwlock_timedwrlock", "pthread_rwlock_timedwrlock"),
    ("pthread_rwlock_clockwrlock", "pthread_rwlock_clockwrlock"),
    ("pthread_rwlock_unlock", "pthread_rwlock_unlock"),
    ("pthread_rwlockattr_init", "pthread_rwlockattr_init"),
    ("pthread_rwlockattr_destroy", "pthread_rwlockattr_destroy"),
    (
        "pthread_rwlockattr_setpshared",
        "pthread_rwlockattr_setpshared",
    ),
    (
        "pthread_rwlockattr_getpshared",
        "pthread_rwlockattr_getpshared",
    ),
    // semaphores
    ("sem_init", "sem_init"),
    ("sem_destroy", "sem_destroy"),
    ("sem_wait", "sem_wait"),
    ("sem_trywait", "sem_trywait"),
    ("sem_post", "sem_post"),
    ("sem_getvalue", "sem_getvalue"),
    ("sem_timedwait", "sem_timedwait"),
    ("sem_clockwait", "sem_clockwait"),
    // barriers
    ("pthread_barrier_init", "pthread_barrier_init"),
    ("pthread_barrier_destroy", "pthread_barrier_destroy"),
    ("pthread_barrier_wait", "pthread_barrier_wait"),
    ("pthread_barrierattr_init", "pthread_barrierattr_init"),
    ("pthread_barrierattr_destroy", "pthread_barrierattr_destroy"),
    (
        "pthread_barrierattr_setpshared",
        "pthread_barrierattr_setpshared",
    ),
    (
        "pthread_barrierattr_getpshared",
        "pthread_barrierattr_getpshared",
    ),
    (
        "pthread_rwlockattr_setkind_np",
        "pthread_rwlockattr_setkind_np",
    ),
    (
        "pthread_rwlockattr_getkind_np",
        "pthread_rwlockattr_getkind_np",
    ),
    // thread-specific data
    ("pthread_key_create", "pthread_key_create"),
    ("pthread_key_delete", "pthread_key_delete"),
    ("pthread_getspecific", "pthread_getspecific"),
    ("pthread_setspecific", "pthread_setspecific"),
    // C11 <threads.h>
    ("thrd_create", "thrd_create"),
    ("thrd_join", "thrd_join"),
    ("thrd_exit", "thrd_exit"),
    ("thrd_current", "thrd_current"),
    ("thrd_equal", "thrd_equal"),
    ("thrd_detach", "thrd_detach"),
    ("thrd_yield", "thrd_yield"),
    ("thrd_sleep", "thrd_sleep"),
    ("mtx_init", "mtx_init"),
    ("mtx_lock", "mtx_lock"),
    ("mtx_trylock", "mtx_trylock"),
    ("mtx_timedlock", "mtx_timedlock"),
    ("mtx_unlock", "mtx_unlock"),
    ("mtx_destroy", "mtx_destroy"),
    ("cnd_init", "cnd_init"),
    ("cnd_signal", "cnd_signal"),
    ("cnd_broadcast", "cnd_broadcast"),
    ("cnd_wait", "cnd_wait"),
    ("cnd_timedwait", "cnd_timedwait"),
    ("cnd_destroy", "cnd_destroy"),
    ("tss_create", "tss_create"),
    ("tss_get", "tss_get"),
    ("tss_set", "tss_set"),
    ("tss_delete", "tss_delete"),
];

/// The runtime's functions (by their names in `REDIRECTS`) that allocate or free blocks
/// of its deterministic heap.
pub const MODEL_HEAP: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "free",
    "aligned_alloc",
    "memalign",
    "posix_memalign",
    "strdup",
    "strndup",
];

/// Does a call of the library's `name` allocate or free a block of the model's heap?
pub fn allocates_or_frees(name: &str) -> bool {
    redirect(name).is_some_and(|to| MODEL_HEAP.contains(&to))
}

/// The name a C library function has in the program's source: glibc's headers rename
/// some (`sscanf` is `__isoc99_sscanf` in the object code).
pub fn source_name(name: &str) -> &str {
    ["__isoc99_", "__isoc23_"]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

/// The replacement of `name`, if the runtime has one.
pub fn redirect(name: &str) -> Option<&'static str> {
    let name = source_name(name);
    REDIRECTS
        .iter()
        .find(|(from, _)| *from == name)
        .map(|(_, to)| *to)
}

/// Why a function the program calls cannot be modelled yet, if it cannot.
pub fn unsupported(name: &str) -> Option<&'static str> {
    const PROCESS: &[&str] = &[
        "fork",
        "vfork",
        "clone",
        "system",
        "popen",
        "execv",
        "execve",
        "execvp",
        "execl",
        "execlp",
        "execle",
        "wait",
        "waitpid",
        "signal",
        "sigaction",
        "raise",
        "kill",
        "alarm",
        "setitimer",
        "pause",
        "on_exit",
    ];
    if name.starts_with("pthread_cond") {
        Some("this condition-variable function is not supported yet")
    } else if name.starts_with("pthread_rwlockattr_") {
        Some("only the default (reader-preferring) kind of read-write lock is modelled")
    } else if name.starts_with("pthread_barrierattr_") {
        Some("only process-private barriers with default attributes are modelled")
    } else if name.starts_with("pthread_") {
        Some("this pthread function is not supported yet")
    } else if name.starts_with("sem_") {
        Some("named semaphores are not supported yet")
    } else if ["thrd_", "mtx_", "cnd_", "tss_"]
        .iter()
        .any(|p| name.starts_with(p))
    {
        Some("this C11 threads function is not supported")
    } else if name.starts_with("__VERIFIER_") && !super::verifier::handles(name) {
        Some("this function of the SV-COMP verifier API is not supported")
    } else if PROCESS.contains(&name) {
        Some("processes, signals and exit handlers are outside what cdpor models")
    } else {
        None
    }
}

/// External functions that reach no program memory through their pointer arguments
/// beyond what is constant (file names, mode strings, messages) or the library's own
/// objects (`FILE`s), or that reach it only through the program's own instrumented code
/// (`bsearch`'s comparator reads the elements): calls to them need no warning.
pub fn harmless(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "fclose",
        "fflush",
        "fputc",
        "putc",
        "putchar",
        "fgetc",
        "getc",
        "getchar",
        "perror",
        "remove",
        "unlink",
        "close",
        "fileno",
        "setvbuf",
        "setbuf",
        "__errno_location",
        "strerror",
        "isatty",
        "bsearch",
        // a jump buffer is only ever the program's business
        "setjmp",
        "_setjmp",
        "__sigsetjmp",
        "sigsetjmp",
        "longjmp",
        "_longjmp",
        "siglongjmp",
    ];
    NAMES.contains(&name) || name.starts_with("llvm.")
}

/// External functions that change nothing an in-place reset does not put back: no state
/// of their own, none of the kernel's, no memory but through their result (or reads of
/// their arguments); or only the standard streams' state, which the reset puts back (a
/// stream other than those comes from a function that is no such one, `fopen`); or the C
/// library's allocator, which the runtime watches as they run (`runtime/c/alloc.c`).
pub fn restorable(name: &str) -> bool {
    const NAMES: &[&str] = &[
        // <stdlib.h>, <ctype.h> and what glibc's macros for them call
        "abs",
        "labs",
        "llabs",
        "div",
        "ldiv",
        "lldiv",
        "isalpha",
        "isdigit",
        "isalnum",
        "isspace",
        "isupper",
        "islower",
        "isxdigit",
        "ispunct",
        "isprint",
        "iscntrl",
        "isgraph",
        "isblank",
        "isascii",
        "toupper",
        "tolower",
        "__ctype_b_loc",
        "__ctype_tolower_loc",
        "__ctype_toupper_loc",
        "__errno_location",
        "strerror",
        // reads only
        "strspn",
        "strcspn",
        "strpbrk",
        "strcasecmp",
        "strncasecmp",
        "strcoll",
        "strchrnul",
        "rawmemchr",
        "memrchr",
        "strcasestr",
        "index",
        "rindex",
        "bcmp",
        "wcslen",
        "bsearch",
        // the standard streams
        "putchar",
        "fputc",
        "putc",
        "putchar_unlocked",
        "fputc_unlocked",
        "putc_unlocked",
        "getchar",
        "fgetc",
        "getc",
        "getchar_unlocked",
        "getc_unlocked",
        "ungetc",
        "fflush",
        "perror",
        "fileno",
        "isatty",
        "feof",
        "ferror",
        "clearerr",
        // the floating-point environment: each fiber's own, and put back by a reset
        "fegetround",
        "fesetround",
        "feclearexcept",
        "fetestexcept",
        "feraiseexcept",
        "fesetenv",
        "feupdateenv",
        "fesetexceptflag",
        // a jump buffer is the program's memory
        "setjmp",
        "_setjmp",
        "__sigsetjmp",
        "sigsetjmp",
        "longjmp",
        "_longjmp",
        "siglongjmp",
        // ids that stay as they are
        "getuid",
        "geteuid",
        "getgid",
        "getegid",
        "__stack_chk_fail",
    ];
    const MATH: &[&str] = &[
        "sqrt",
        "cbrt",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "asinh",
        "acosh",
        "atanh",
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "logb",
        "pow",
        "fabs",
        "floor",
        "ceil",
        "fmod",
        "round",
        "lround",
        "llround",
        "trunc",
        "rint",
        "lrint",
        "llrint",
        "nearbyint",
        "hypot",
        "fmin",
        "fmax",
        "fdim",
        "fma",
        "copysign",
        "erf",
        "erfc",
        "tgamma",
        "ldexp",
        "scalbn",
        "scalbln",
        "ilogb",
        "nextafter",
        "nexttoward",
        "remainder",
        "nan",
    ];
    NAMES.contains(&name)
        || name.starts_with("llvm.")
        || [
            "__fpclassify",
            "__isinf",
            "__isnan",
            "__signbit",
            "__finite",
            "__issignaling",
        ]
        .iter()
        .any(|p| name.starts_with(p))
        || MATH.iter().any(|m| {
            name.strip_prefix(m)
                .is_some_and(|r| r.is_empty() || r == "f" || r == "l")
        })
}

/// Functions of the C library with hidden state that all threads share, which cdpor does
/// not model: most return static storage that the next call overwrites (POSIX lists
/// them as not thread-safe). A call gets a warning whatever its arguments: the order of
/// two threads' calls is not explored.
pub fn hidden_state(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "l64a",
        "a64l",
        "getpwuid",
        "getpwnam",
        "getpwent",
        "setpwent",
        "endpwent",
        "getgrgid",
        "getgrnam",
        "getgrent",
        "setgrent",
        "endgrent",
        "getlogin",
        "ttyname",
        "ptsname",
        "inet_ntoa",
        "gethostbyname",
        "gethostbyaddr",
        "gethostent",
        "getservbyname",
        "getservbyport",
        "getprotobyname",
        "getprotobynumber",
        "getnetbyname",
        "readdir",
        "localeconv",
        "nl_langinfo",
        "setlocale",
        "strsignal",
        "ecvt",
        "fcvt",
        "getdate",
        "hcreate",
        "hsearch",
        "hdestroy",
        "getopt",
        "tmpnam",
        "ctermid",
        "crypt",
        "lgamma",
        "lgammaf",
        "lgammal",
        "mblen",
        "mbtowc",
        "wctomb",
        "wcrtomb",
        "mbrtowc",
        "getutxent",
        "getutxid",
        "getutxline",
        "pututxline",
    ];
    NAMES.contains(&source_name(name))
}

/// Does the runtime's `name` only write or read its pointer argument `arg` during the
/// call, on the caller's behalf (a `pthread_t` filled in, an attribute object), keeping
/// no copy of the pointer? Then passing a local there does not let it escape.
pub fn keeps_private(name: &str, arg: u32) -> bool {
    match name {
        "pthread_create" | "time" | "gettimeofday" | "timespec_get" => arg == 0,
        "pthread_join" | "clock_gettime" => arg == 1,
        _ => {
            arg == 0
                && (name.starts_with("pthread_attr_")
                    || name.starts_with("pthread_mutexattr_")
                    || name.starts_with("pthread_condattr_"))
        }
    }
}
