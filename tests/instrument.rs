//! Unit tests of the instrumentation pass (`src/instrument.rs`), through
//! `cdpor::program::instrument_ir`: small C programs in, instrumented LLVM IR and the site
//! table out. The IR is checked as text, one instruction per line.

use cdpor::instrument::{Rejection, Site};
use cdpor::program::{instrument_ir, BuildError};
use cdpor_sched::event::{FLAG_ATOMIC, FLAG_VALUE};

/// Instruments `src`, which must be accepted.
fn instrument(src: &str) -> (String, Vec<Site>) {
    match instrument_ir(src) {
        Ok(r) => r,
        Err(e) => panic!("instrumentation failed: {e}\n--- source ---\n{src}"),
    }
}

/// Instruments `src`, which must be rejected.
fn reject(src: &str) -> BuildError {
    match instrument_ir(src) {
        Ok((ir, _)) => panic!("expected a rejection, got IR:\n{ir}"),
        Err(e) => e,
    }
}

/// The instructions of the function `name` (between `define ... @name(` and `}`), without
/// debug records.
fn body<'a>(ir: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("@{name}(");
    let mut lines = ir.lines();
    lines
        .find(|l| l.starts_with("define ") && l.contains(&head))
        .unwrap_or_else(|| panic!("no definition of {name} in:\n{ir}"));
    lines
        .take_while(|l| *l != "}")
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("#dbg_"))
        .collect()
}

/// Splits `a, f(b, c), d` at its top-level commas.
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The arguments of a call to `@callee` on this line, if it is one.
fn call_args(line: &str, callee: &str) -> Option<Vec<String>> {
    let pat = format!("@{callee}(");
    let at = line.find(&pat)?;
    if !line.contains("call ") {
        return None;
    }
    let rest = &line[at + pat.len()..];
    let mut depth = 1;
    let end = rest.char_indices().find_map(|(i, c)| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    Some(split_args(&rest[..end]))
}

/// Every call to `hook` in `lines`, as (index of the line, arguments).
fn calls(lines: &[&str], hook: &str) -> Vec<(usize, Vec<String>)> {
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| call_args(l, hook).map(|a| (i, a)))
        .collect()
}

/// The integer of an `i32 N` / `i64 N` argument.
fn int_arg(arg: &str) -> u64 {
    let n = arg
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("not a typed constant: {arg}"));
    n.parse()
        .unwrap_or_else(|_| panic!("not an integer constant: {arg}"))
}

/// The site id of a hook call: its `i32` argument before the flags, or its last `i32`
/// argument for hooks without flags.
fn site_arg(hook: &str, args: &[String]) -> usize {
    let i = match hook {
        "__cdpor_load" => 2,
        "__cdpor_store" => 3,
        _ => args.len() - 1,
    };
    int_arg(&args[i]) as usize
}

/// The 1-based line of `src` that contains `needle` (which must occur once).
fn line_of(src: &str, needle: &str) -> u32 {
    let hits: Vec<usize> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "`{needle}` must occur on exactly one line");
    hits[0] as u32
}

const HOOKS: &[&str] = &[
    "__cdpor_load",
    "__cdpor_store",
    "__cdpor_rmw",
    "__cdpor_cmpxchg",
    "__cdpor_fence",
    "__cdpor_memcpy",
    "__cdpor_memset",
];

/// Number of hook calls in the whole module.
fn hook_count(ir: &str) -> usize {
    ir.lines()
        .filter(|l| HOOKS.iter().any(|h| call_args(l, h).is_some()))
        .count()
}

#[test]
fn global_loads_and_stores_are_hooked_with_their_size() {
    let src = r#"
int i; char c; long l; int *p; short s;
void writer(void) {
    i = 7;
    c = 'a';
    l = 9;
    p = &i;
    s = 3;
}
long reader(void) {
    return i + c + l + (long)p + s;
}
int main(void) { writer(); return (int)reader(); }
"#;
    let (ir, sites) = instrument(src);

    let w = body(&ir, "writer");
    let stores = calls(&w, "__cdpor_store");
    let got: Vec<(String, u64, String, u64)> = stores
        .iter()
        .map(|(_, a)| (a[0].clone(), int_arg(&a[1]), a[2].clone(), int_arg(&a[4])))
        .collect();
    let value = FLAG_VALUE as u64;
    assert_eq!(
        got,
        vec![
            ("ptr @i".into(), 4, "i64 7".into(), value),
            ("ptr @c".into(), 1, "i64 97".into(), value),
            ("ptr @l".into(), 8, "i64 9".into(), value),
            (
                "ptr @p".into(),
                8,
                "i64 ptrtoint (ptr @i to i64)".into(),
                value
            ),
            ("ptr @s".into(), 2, "i64 3".into(), value),
        ]
    );
    // Each hook comes right before the store it announces.
    for (i, a) in &stores {
        let next = w[i + 1];
        assert!(
            next.starts_with("store ") && next.contains(&format!("{},", a[0])),
            "store hook not followed by its store: {} / {next}",
            w[*i]
        );
    }
    assert_eq!(calls(&w, "__cdpor_load"), vec![]);

    let r = body(&ir, "reader");
    let loads: Vec<(String, u64, u64)> = calls(&r, "__cdpor_load")
        .iter()
        .map(|(_, a)| (a[0].clone(), int_arg(&a[1]), int_arg(&a[3])))
        .collect();
    assert_eq!(
        loads,
        vec![
            ("ptr @i".into(), 4, 0),
            ("ptr @c".into(), 1, 0),
            ("ptr @l".into(), 8, 0),
            ("ptr @p".into(), 8, 0),
            ("ptr @s".into(), 2, 0),
        ]
    );
    for (i, a) in calls(&r, "__cdpor_load") {
        assert!(
            r[i + 1].contains("= load ") && r[i + 1].contains(&format!("{},", a[0])),
            "load hook not followed by its load: {}",
            r[i + 1]
        );
    }
    assert_eq!(calls(&r, "__cdpor_store"), vec![]);

    // Ten hooks, ten sites after the reserved site 0, in order.
    assert_eq!(hook_count(&ir), 10);
    assert_eq!(sites.len(), 11);
    assert_eq!(sites[0], Site::default());
    let ops: Vec<&str> = sites[1..].iter().map(|s| s.op.as_str()).collect();
    assert_eq!(ops, [vec!["store"; 5], vec!["load"; 5]].concat());
    let vars: Vec<Option<&str>> = sites[1..].iter().map(|s| s.variable.as_deref()).collect();
    let names = [Some("i"), Some("c"), Some("l"), Some("p"), Some("s")];
    assert_eq!(vars, [names, names].concat());
}

#[test]
fn hook_site_ids_index_the_site_table() {
    let src = r#"
int x;
int y[4];
void f(int k) {
    x = 1;
    y[k] = x;
}
int main(void) { f(2); return y[2]; }
"#;
    let (ir, sites) = instrument(src);
    let mut seen = vec![false; sites.len()];
    // Sites name functions as the source does: `main`, not its new name.
    let mut check = |func: &str, hook: &str, op: &str, line: u32| {
        let lines = body(&ir, func);
        let source_name = if func == "__cdpor_user_main" {
            "main"
        } else {
            func
        };
        for (_, a) in calls(&lines, hook) {
            let s = site_arg(hook, &a);
            assert!(!seen[s], "site {s} used twice");
            seen[s] = true;
            assert_eq!(sites[s].op, op);
            assert_eq!(sites[s].function, source_name);
            if line != 0 {
                assert_eq!(sites[s].line, line, "{:?}", sites[s]);
            }
        }
    };
    check("f", "__cdpor_store", "store", 0);
    check("f", "__cdpor_load", "load", line_of(src, "y[k] = x;"));
    check("__cdpor_user_main", "__cdpor_load", "load", 8);
    assert!(
        seen[1..].iter().all(|&s| s),
        "every site belongs to a hook: {seen:?}"
    );
    assert_eq!(sites.len(), 5);
    // f: x = 1 (line 5, column 7), y[k] = x (line 6: the load of x, then the store).
    let f_sites: Vec<(&str, u32, u32, Option<&str>)> = sites[1..4]
        .iter()
        .map(|s| (s.op.as_str(), s.line, s.column, s.variable.as_deref()))
        .collect();
    assert_eq!(
        f_sites,
        vec![
            ("store", 5, 7, Some("x")),
            ("load", 6, 12, Some("x")),
            ("store", 6, 10, Some("y")),
        ]
    );
    assert!(sites[1].file.ends_with("t.c"), "{:?}", sites[1].file);
    assert_eq!(sites[4].variable.as_deref(), Some("y"));
}

#[test]
fn locals_that_do_not_escape_are_not_hooked() {
    let src = r#"
int g;
int sum(int n) {
    int total = 0;
    int arr[4] = {1, 2, 3, 4};
    struct { int a, b; } pair = {1, 2};
    for (int i = 0; i < n; i++) {
        total += arr[i & 3] + pair.a;
        pair.b = total;
    }
    return total + pair.b;
}
int main(void) { return sum(5); }
"#;
    let (ir, sites) = instrument(src);
    let f = body(&ir, "sum");
    for h in HOOKS {
        assert_eq!(
            calls(&f, h),
            vec![],
            "{h} in a function without shared memory"
        );
    }
    assert_eq!(hook_count(&ir), 0);
    assert_eq!(sites.len(), 1, "only the reserved site 0: {sites:?}");
}

#[test]
fn locals_whose_address_escapes_are_hooked() {
    let src = r#"
#include <pthread.h>
int *gp;
void *worker(void *arg) { *(int *)arg = 5; return 0; }
int via_thread(void) {
    int shared = 1;
    pthread_t t;
    pthread_create(&t, 0, worker, &shared);
    pthread_join(t, 0);
    return shared;
}
int via_global(void) {
    int published = 2;
    gp = &published;
    published = 3;
    return published;
}
int private_only(void) {
    int mine = 4;
    mine = mine + 1;
    return mine;
}
int main(void) { return via_thread() + via_global() + private_only(); }
"#;
    let (ir, sites) = instrument(src);

    // `shared` lives in an alloca whose address goes to pthread_create: its initial
    // store and the final load are hooked (4 bytes). `t` only receives the thread's id
    // from pthread_create (a store the runtime makes as an event of its own): the load
    // of it is not hooked.
    let f = body(&ir, "via_thread");
    let allocas: Vec<&str> = f
        .iter()
        .filter(|l| l.contains(" = alloca i32"))
        .copied()
        .collect();
    assert_eq!(allocas.len(), 1, "{f:#?}");
    let shared = allocas[0].split(" = ").next().unwrap().to_string();
    let stores = calls(&f, "__cdpor_store");
    assert_eq!(stores.len(), 1, "{f:#?}");
    assert_eq!(stores[0].1[0], format!("ptr {shared}"));
    assert_eq!(stores[0].1[1], "i64 4");
    assert_eq!(stores[0].1[2], "i64 1");
    // Reports name the local after its source variable.
    let site = &sites[site_arg("__cdpor_store", &stores[0].1)];
    assert_eq!(
        (site.variable.as_deref(), site.line, site.function.as_str()),
        (Some("shared"), 6, "via_thread")
    );
    let loads: Vec<(String, String)> = calls(&f, "__cdpor_load")
        .into_iter()
        .map(|(_, a)| (a[0].clone(), a[1].clone()))
        .collect();
    assert_eq!(
        loads,
        vec![(format!("ptr {shared}"), "i64 4".into())],
        "{f:#?}"
    );

    // The worker's store through its argument may hit shared memory.
    let w = body(&ir, "worker");
    let ws = calls(&w, "__cdpor_store");
    assert_eq!(ws.len(), 1);
    assert_eq!(
        (ws[0].1[1].as_str(), ws[0].1[2].as_str()),
        ("i64 4", "i64 5")
    );

    // `published` escapes through a global: its stores and load are hooked, and so is
    // the store of its address into `gp`.
    let g = body(&ir, "via_global");
    let gstores: Vec<(String, String)> = calls(&g, "__cdpor_store")
        .into_iter()
        .map(|(_, a)| (a[0].clone(), a[2].clone()))
        .collect();
    assert_eq!(gstores.len(), 3, "{g:#?}");
    assert_eq!(gstores[1].0, "ptr @gp");
    assert_eq!(gstores[0].1, "i64 2");
    assert_eq!(gstores[2].1, "i64 3");
    assert_eq!(gstores[0].0, gstores[2].0);
    assert_ne!(gstores[0].0, "ptr @gp");
    assert_eq!(calls(&g, "__cdpor_load").len(), 1);

    // A local that never escapes is promoted to a register: no alloca, no hooks.
    let p = body(&ir, "private_only");
    assert!(!p.iter().any(|l| l.contains("alloca")), "{p:#?}");
    for h in HOOKS {
        assert_eq!(calls(&p, h), vec![]);
    }
}

#[test]
fn const_globals_are_not_hooked() {
    let src = r#"
const int table[4] = {10, 20, 30, 40};
int mutable_table[4] = {10, 20, 30, 40};
static const char *const names[2] = {"a", "b"};
int from_const(int k) { return table[k & 3]; }
const char *name(int k) { return names[k & 1]; }
int from_mutable(int k) { return mutable_table[k & 3]; }
int main(int argc, char **argv) { return from_const(argc) + from_mutable(argc) + name(argc)[0]; }
"#;
    let (ir, sites) = instrument(src);
    assert_eq!(calls(&body(&ir, "from_const"), "__cdpor_load"), vec![]);
    assert_eq!(calls(&body(&ir, "name"), "__cdpor_load"), vec![]);
    assert!(
        body(&ir, "from_const")
            .iter()
            .any(|l| l.contains("= load i32")),
        "the const load itself stays"
    );
    let m = calls(&body(&ir, "from_mutable"), "__cdpor_load");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].1[1], "i64 4");
    let s = site_arg("__cdpor_load", &m[0].1);
    assert_eq!(sites[s].variable.as_deref(), Some("mutable_table"));
    // The load of name(argc)[0] goes through a pointer of unknown origin: hooked.
    assert_eq!(hook_count(&ir), 2);
}

#[test]
fn atomics_are_hooked_with_the_atomic_flag() {
    let src = r#"
#include <stdatomic.h>
int x;
long w;
_Atomic int ax;
int loads(void) {
    int a = __atomic_load_n(&x, __ATOMIC_SEQ_CST);
    int b = x;
    int c = ax;
    return a + b + c;
}
void stores(int v) {
    __atomic_store_n(&x, v, __ATOMIC_RELEASE);
    ax = 4;
    x = 5;
}
int rmw(void) { return __atomic_fetch_add(&x, 3, __ATOMIC_SEQ_CST); }
int cas(int e) { return __atomic_compare_exchange_n(&w, &(long){7}, 9L, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) + e; }
int cas_int(int e) { return __atomic_compare_exchange_n(&x, &e, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
void fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
int main(void) { stores(1); fence(); return loads() + rmw() + cas(0) + cas_int(0); }
"#;
    let (ir, sites) = instrument(src);
    let atomic = FLAG_ATOMIC as u64;
    let value = FLAG_VALUE as u64;

    let l = body(&ir, "loads");
    let got: Vec<(String, u64, u64)> = calls(&l, "__cdpor_load")
        .iter()
        .map(|(_, a)| (a[0].clone(), int_arg(&a[1]), int_arg(&a[3])))
        .collect();
    assert_eq!(
        got,
        vec![
            ("ptr @x".into(), 4, atomic),
            ("ptr @x".into(), 4, 0),
            ("ptr @ax".into(), 4, atomic),
        ]
    );
    let load_ops: Vec<&str> = calls(&l, "__cdpor_load")
        .iter()
        .map(|(_, a)| sites[site_arg("__cdpor_load", a)].op.as_str())
        .collect();
    assert_eq!(load_ops, ["atomic-load", "load", "atomic-load"]);
    for (i, _) in calls(&l, "__cdpor_load").iter().step_by(2) {
        assert!(l[i + 1].contains("load atomic i32"), "{}", l[i + 1]);
    }

    let s = body(&ir, "stores");
    let got: Vec<(String, String, u64)> = calls(&s, "__cdpor_store")
        .iter()
        .map(|(_, a)| (a[0].clone(), a[2].clone(), int_arg(&a[4])))
        .collect();
    assert_eq!(got[0].0, "ptr @x");
    assert_eq!(got[0].2, atomic | value);
    assert_eq!(got[1], ("ptr @ax".into(), "i64 4".into(), atomic | value));
    assert_eq!(got[2], ("ptr @x".into(), "i64 5".into(), value));
    assert_eq!(got.len(), 3);
    let store_ops: Vec<&str> = calls(&s, "__cdpor_store")
        .iter()
        .map(|(_, a)| sites[site_arg("__cdpor_store", a)].op.as_str())
        .collect();
    assert_eq!(store_ops, ["atomic-store", "atomic-store", "store"]);

    let r = body(&ir, "rmw");
    let rc = calls(&r, "__cdpor_rmw");
    assert_eq!(rc.len(), 1);
    assert_eq!(&rc[0].1[..2], ["ptr @x", "i64 4"]);
    assert!(r[rc[0].0 + 1].contains("atomicrmw add ptr @x, i32 3"));
    assert_eq!(sites[site_arg("__cdpor_rmw", &rc[0].1)].op, "atomicrmw");
    assert_eq!(calls(&r, "__cdpor_load"), vec![]);
    assert_eq!(calls(&r, "__cdpor_store"), vec![]);

    let c = body(&ir, "cas");
    let cc = calls(&c, "__cdpor_cmpxchg");
    assert_eq!(cc.len(), 1, "{c:#?}");
    assert_eq!(&cc[0].1[..2], ["ptr @w", "i64 8"]);
    assert!(
        c[cc[0].0 + 1].contains("cmpxchg ptr @w"),
        "{}",
        c[cc[0].0 + 1]
    );
    let cs = &sites[site_arg("__cdpor_cmpxchg", &cc[0].1)];
    assert_eq!(
        (cs.op.as_str(), cs.variable.as_deref()),
        ("cmpxchg", Some("w"))
    );

    let ci = body(&ir, "cas_int");
    let cc = calls(&ci, "__cdpor_cmpxchg");
    assert_eq!(cc.len(), 1, "{ci:#?}");
    assert_eq!(&cc[0].1[..2], ["ptr @x", "i64 4"]);

    let f = body(&ir, "fence");
    let fc = calls(&f, "__cdpor_fence");
    assert_eq!(fc.len(), 1);
    assert!(
        f[fc[0].0 + 1].starts_with("fence seq_cst,"),
        "{}",
        f[fc[0].0 + 1]
    );
    assert_eq!(sites[site_arg("__cdpor_fence", &fc[0].1)].op, "fence");
    assert_eq!(
        sites[site_arg("__cdpor_fence", &fc[0].1)].line,
        line_of(src, "__atomic_thread_fence")
    );
}

#[test]
fn memcpy_and_memset_on_globals_are_hooked() {
    let src = r#"
#include <string.h>
struct S { int a[8]; } s1, s2;
char buf[100];
void copy(void) { s1 = s2; }
void set(void) { memset(&s1, 0, sizeof s1); }
void copy_n(int n) { memcpy(buf, &s2, n); }
void move(void) { memmove(buf + 1, buf, 10); }
int local_copy(void) {
    struct S a = {{1}}, b;
    b = a;
    return b.a[0];
}
int main(void) { copy(); set(); copy_n(4); move(); return local_copy(); }
"#;
    let (ir, sites) = instrument(src);

    let c = body(&ir, "copy");
    let mc = calls(&c, "__cdpor_memcpy");
    assert_eq!(mc.len(), 1);
    assert_eq!(&mc[0].1[..3], ["ptr @s1", "ptr @s2", "i64 32"]);
    assert!(c[mc[0].0 + 1].contains("@llvm.memcpy"));
    let site = &sites[site_arg("__cdpor_memcpy", &mc[0].1)];
    assert_eq!(
        (site.op.as_str(), site.variable.as_deref(), site.line),
        ("memcpy", Some("s1"), 5)
    );

    let s = body(&ir, "set");
    let ms = calls(&s, "__cdpor_memset");
    assert_eq!(ms.len(), 1);
    assert_eq!(&ms[0].1[..2], ["ptr @s1", "i64 32"]);
    assert!(s[ms[0].0 + 1].contains("@llvm.memset"));
    assert_eq!(sites[site_arg("__cdpor_memset", &ms[0].1)].op, "memset");

    // A length known only at run time is passed through as an i64 value.
    let n = body(&ir, "copy_n");
    let mc = calls(&n, "__cdpor_memcpy");
    assert_eq!(mc.len(), 1);
    assert_eq!(&mc[0].1[..2], ["ptr @buf", "ptr @s2"]);
    assert!(mc[0].1[2].starts_with("i64 %"), "{:?}", mc[0].1);

    let m = body(&ir, "move");
    let mm = calls(&m, "__cdpor_memcpy");
    assert_eq!(mm.len(), 1, "memmove is reported as a copy");
    assert_eq!(mm[0].1[1], "ptr @buf");
    assert_eq!(mm[0].1[2], "i64 10");
    assert!(mm[0].1[0].contains("@buf"), "{:?}", mm[0].1);

    let l = body(&ir, "local_copy");
    assert_eq!(calls(&l, "__cdpor_memcpy"), vec![]);
    assert_eq!(calls(&l, "__cdpor_memset"), vec![]);
}

/// Each call to `@__cdpor_<name>` must come right after `store i32 S, ptr @__cdpor_site`
/// with `sites[S].op == op`; returns the sites.
fn redirected_sites<'a>(ir: &str, sites: &'a [Site], name: &str, op: &str) -> Vec<&'a Site> {
    let new = format!("__cdpor_{name}");
    let lines: Vec<&str> = ir
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("#dbg_"))
        .collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("declare") && call_args(l, &new).is_some() {
            let prev = lines[i - 1];
            let s = prev
                .strip_prefix("store i32 ")
                .and_then(|r| r.split(',').next())
                .filter(|_| prev.contains("ptr @__cdpor_site"))
                .unwrap_or_else(|| panic!("call to {new} not preceded by its site: {prev}"));
            let s: usize = s.parse().unwrap();
            assert_eq!(sites[s].op, op, "site {s} of {new}");
            out.push(&sites[s]);
        }
    }
    assert!(
        !ir.contains(&format!("@{name}(")),
        "@{name} is still called or declared"
    );
    out
}

#[test]
fn library_calls_are_redirected_after_storing_their_site() {
    let src = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return arg;
}
int main(void) {
    pthread_t t;
    pthread_mutex_init(&m2, 0);
    if (pthread_mutex_trylock(&m2) == 0)
        pthread_mutex_unlock(&m2);
    int *p = malloc(sizeof *p);
    pthread_create(&t, 0, worker, p);
    pthread_join(t, 0);
    free(p);
    assert(p != 0);
    if (!p)
        abort();
    exit(0);
}
"#;
    let (ir, sites) = instrument(src);
    let line = |n: &str| line_of(src, n);
    let one = |name: &str, op: &str, function: &str, at: u32| {
        let s = redirected_sites(&ir, &sites, name, op);
        assert_eq!(s.len(), 1, "{name}: {s:?}");
        assert_eq!(
            (s[0].function.as_str(), s[0].line),
            (function, at),
            "{name}"
        );
        assert!(
            ir.lines()
                .any(|l| l.starts_with("declare") && l.contains(&format!("@__cdpor_{name}("))),
            "no declaration of __cdpor_{name}"
        );
    };
    one("pthread_mutex_lock", "pthread_mutex_lock", "worker", 8);
    one(
        "pthread_mutex_init",
        "pthread_mutex_init",
        "main",
        line("pthread_mutex_init"),
    );
    one(
        "pthread_mutex_trylock",
        "pthread_mutex_trylock",
        "main",
        line("pthread_mutex_trylock"),
    );
    one("malloc", "malloc", "main", line("malloc"));
    one(
        "pthread_create",
        "pthread_create",
        "main",
        line("pthread_create"),
    );
    one("pthread_join", "pthread_join", "main", line("pthread_join"));
    one("free", "free", "main", line("free(p)"));
    one("abort", "abort", "main", line("abort()"));
    one("exit", "exit", "main", line("exit(0)"));
    // assert() calls __assert_fail, which becomes __cdpor_assert_fail.
    let a = redirected_sites(&ir, &sites, "assert_fail", "__assert_fail");
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].line, line("assert(p"));
    assert!(!ir.contains("@__assert_fail("));
    // unlock is called twice, once in each function.
    let u = redirected_sites(&ir, &sites, "pthread_mutex_unlock", "pthread_mutex_unlock");
    let mut at: Vec<(&str, u32)> = u.iter().map(|s| (s.function.as_str(), s.line)).collect();
    at.sort();
    assert_eq!(
        at,
        vec![("main", line("pthread_mutex_unlock(&m2)")), ("worker", 9)]
    );
}

#[test]
fn main_becomes_cdpor_user_main() {
    let src = r#"
int x;
int helper(void) { return x; }
int main(int argc, char **argv) { x = argc; return helper() + (argv != 0); }
"#;
    let (ir, sites) = instrument(src);
    assert!(
        ir.lines().any(|l| l.starts_with("define")
            && l.contains("i32 @__cdpor_user_main(i32 noundef %")
            && l.contains(", ptr noundef %")),
        "{ir}"
    );
    assert!(!ir.contains("@main("));
    let m = body(&ir, "__cdpor_user_main");
    let st = calls(&m, "__cdpor_store");
    assert_eq!(st.len(), 1);
    assert_eq!(st[0].1[0], "ptr @x");
    // The site table keeps the source's name for reports.
    assert_eq!(sites[site_arg("__cdpor_store", &st[0].1)].function, "main");
    assert!(ir.contains("@__cdpor_site = external global i32"));
}

#[test]
fn a_program_without_main_is_rejected() {
    let e = reject("int x;\nint f(void) { return x; }\n");
    assert!(
        matches!(e, BuildError::Rejected(Rejection::NoMain)),
        "{e:?}"
    );
    assert!(e.is_compile_error());
    assert_eq!(e.to_string(), "the program has no `main` function");
    // A declaration of main is not a definition.
    let e = reject("int main(void);\nint f(void) { return main(); }\n");
    assert!(
        matches!(e, BuildError::Rejected(Rejection::NoMain)),
        "{e:?}"
    );
}

#[test]
fn named_semaphores_are_rejected_with_their_call_site() {
    let src = r#"#include <fcntl.h>
#include <semaphore.h>
sem_t s;
int main(void) {
    sem_init(&s, 0, 0);

    sem_t *named = sem_open("/jobs", O_CREAT, 0600, 0);
    sem_destroy(&s);
    return named != 0;
}
"#;
    let e = reject(src);
    let BuildError::Rejected(Rejection::Unsupported { function, at, .. }) = &e else {
        panic!("expected Unsupported, got {e:?}");
    };
    assert_eq!(function, "sem_open");
    assert!(at.ends_with("t.c:7"), "{at}");
    let text = e.to_string();
    assert!(text.contains("`sem_open`"), "{text}");
    assert!(text.contains("t.c:7"), "{text}");
    assert!(text.contains("named semaphores"), "{text}");
    assert!(e.is_compile_error());
}

#[test]
fn condition_variables_are_redirected() {
    let src = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c;
int main(void) {
    pthread_cond_init(&c, 0);
    pthread_mutex_lock(&m);
    pthread_cond_wait(&c, &m);
    pthread_cond_signal(&c);
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    pthread_cond_destroy(&c);
    return 0;
}
"#;
    let (ir, sites) =
        cdpor::program::instrument_ir(src).expect("condition variables are supported");
    for f in ["init", "wait", "signal", "broadcast", "destroy"] {
        assert!(
            ir.contains(&format!("@__cdpor_pthread_cond_{f}(")),
            "pthread_cond_{f} not redirected:\n{ir}"
        );
        assert!(
            !ir.contains(&format!("@pthread_cond_{f}(")),
            "pthread_cond_{f} left in place"
        );
        assert!(
            sites.iter().any(|s| s.op == format!("pthread_cond_{f}")),
            "no site for pthread_cond_{f}"
        );
    }
    let wait = sites
        .iter()
        .find(|s| s.op == "pthread_cond_wait")
        .expect("a wait site");
    assert_eq!(wait.line, 7);
}

#[test]
fn other_unsupported_functions_are_rejected_by_name() {
    for (call, name) in [
        ("sem_open(\"/s\", 0);", "sem_open"),
        (
            "pthread_key_t k; pthread_key_create(&k, 0); pthread_mutex_consistent(0);",
            "pthread_mutex_consistent",
        ),
        (
            "extern int on_exit(void (*)(int, void *), void *); on_exit(0, 0);",
            "on_exit",
        ),
        ("fork();", "fork"),
    ] {
        let src = format!(
            "#include <pthread.h>\n#include <semaphore.h>\n#include <unistd.h>\nint main(void) {{\n    {call}\n    return 0;\n}}\n"
        );
        let e = reject(&src);
        let BuildError::Rejected(Rejection::Unsupported { function, at, .. }) = &e else {
            panic!("{name}: expected Unsupported, got {e:?}");
        };
        assert_eq!(function, name);
        assert!(at.ends_with(":5"), "{name}: {at}");
        assert!(e.to_string().contains(&format!("`{name}`")));
    }
}

#[test]
fn thread_local_variables_become_offsets_in_each_threads_block() {
    let (ir, _) = instrument(
        "_Thread_local char flag;\n__thread long counter = 7;\nint main(void) { counter += flag; return (int)counter; }\n",
    );
    assert!(
        !ir.lines()
            .any(|l| l.contains("call") && l.contains("llvm.threadlocal")),
        "{ir}"
    );
    assert!(
        !ir.contains("thread_local"),
        "the templates become plain globals: {ir}"
    );
    // Each use asks for the current thread's block (9 bytes): `counter` first, at 0,
    // then `flag` at 8.
    assert!(
        ir.contains("call ptr @__cdpor_tls(ptr @__cdpor_tls_table, i64 2, i64 9)"),
        "{ir}"
    );
    assert!(
        ir.contains(
            "{ ptr @counter, i64 0, i64 8 }, { ptr, i64, i64 } { ptr @flag, i64 8, i64 1 }"
        ),
        "{ir}"
    );
    assert!(ir.contains("%flag = getelementptr i8, ptr %tls"), "{ir}");
    // Declared but never used: no block.
    let (ir, _) = instrument("__thread int x;\nint main(void) { return 0; }\n");
    assert!(!ir.contains("__cdpor_tls("), "{ir}");
}

#[test]
fn syntax_errors_carry_clangs_diagnostic() {
    let e = reject("int main(void) {\n    return 0\n}\n");
    let BuildError::Compile(diag) = &e else {
        panic!("expected Compile, got {e:?}");
    };
    assert!(diag.contains("t.c:2:13: error: expected ';'"), "{diag}");
    assert!(e.is_compile_error());
    assert!(e.to_string().starts_with("the program does not compile:\n"));
    let e = reject("int main(void) { return undeclared_name; }\n");
    assert!(
        matches!(&e, BuildError::Compile(d) if d.contains("undeclared_name")),
        "{e:?}"
    );
}

#[test]
fn the_programs_definitions_are_its_own() {
    // A program that names its functions and globals as the C library does: they become
    // local to the program, so that the runtime's calls of `write` or `memcpy` reach the
    // C library, while the program's own calls reach its definitions.
    let src = r#"#include <stddef.h>
int time;
static int calls;
void write(void *p) { calls += p != 0; }
void *memcpy(void *d, const void *s, size_t n) { (void)s; (void)n; return d; }
__attribute__((weak)) int listen(int fd) { return fd; }
int run(void) { write(&time); return listen(calls); }
int main(void) { return run(); }
"#;
    let (ir, _) = instrument(src);
    for def in [
        "define internal void @write(",
        "define internal ptr @memcpy(",
        "define internal i32 @listen(",
        "define internal i32 @run(",
        "define dso_local i32 @__cdpor_user_main(",
    ] {
        assert!(ir.contains(def), "no `{def}` in:\n{ir}");
    }
    assert!(ir.contains("@time = internal global i32 0"), "{ir}");
    // The program's call of its `write` is not redirected to the runtime's model.
    let run = body(&ir, "run");
    assert_eq!(calls(&run, "write").len(), 1, "{run:#?}");
    assert!(calls(&run, "__cdpor_write").is_empty(), "{run:#?}");
}

#[test]
fn an_own_allocator_beside_the_models_is_refused() {
    let e = reject(
        "#include <stddef.h>\n#include <string.h>\nvoid *malloc(size_t n) { static char a[64]; (void)n; return a; }\nint main(void) { return strdup(\"x\") != 0; }\n",
    );
    let BuildError::Rejected(Rejection::MixedAllocators {
        defined,
        called,
        at,
    }) = &e
    else {
        panic!("expected MixedAllocators, got {e:?}");
    };
    assert_eq!((defined.as_str(), called.as_str()), ("malloc", "strdup"));
    assert!(at.ends_with("t.c:4"), "{at}");
    assert!(e.is_compile_error());
    // Alone, the program's allocator is the program's business.
    let (ir, _) = instrument(
        "#include <stddef.h>\nvoid *malloc(size_t n) { static char a[64]; (void)n; return a; }\nvoid free(void *p) { (void)p; }\nint main(void) { void *p = malloc(4); free(p); return 0; }\n",
    );
    let m = body(&ir, "__cdpor_user_main");
    assert_eq!(calls(&m, "malloc").len(), 1, "{m:#?}");
    assert!(calls(&m, "__cdpor_malloc").is_empty(), "{m:#?}");
}

/// The constant bits `__cdpor_loop` gets in `f`'s only loop (its flags are the back-edge
/// bit or'ed with them).
fn loop_bits(ir: &str, f: &str) -> u32 {
    let lines = body(ir, f);
    let hooks = calls(&lines, "__cdpor_loop");
    assert_eq!(hooks.len(), 1, "one loop in {f}:\n{}", lines.join("\n"));
    let flags = hooks[0].1[1].split_whitespace().nth(1).unwrap().to_string();
    let def = format!("{flags} = or i32 ");
    lines
        .iter()
        .find_map(|l| l.trim().strip_prefix(&def))
        .map_or(0, |rest| {
            let bits = rest.split(", ").nth(1).unwrap_or_else(|| panic!("{rest}"));
            bits.parse().unwrap_or_else(|_| panic!("{rest}"))
        })
}

#[test]
fn a_loop_whose_values_only_decide_at_its_head_is_memoryless() {
    use cdpor_sched::ops::awaits::{LOOP_MAY_WAIT, LOOP_MEMORYLESS, LOOP_PEELED};
    let (ir, _) = instrument(
        "int x, y, z[2];\n\
         void peeled(void) { int a = x; while (a != 0) a = x; }\n\
         void fresh(void) { int a = -1; while (a != 2) a = x + y; }\n\
         void counter(void) { int n = 0; while (x != 1) n++; y = n; }\n\
         void feeds(void) { int a = x; while (a != 0) a = z[a & 1]; }\n\
         void cast(void) { long a = x; while (a != 0) a = (long)(char)x; }\n\
         int main(void) { peeled(); fresh(); counter(); feeds(); cast(); return 0; }\n",
    );
    let memoryless = LOOP_MAY_WAIT | LOOP_MEMORYLESS;
    assert_eq!(loop_bits(&ir, "peeled"), memoryless | LOOP_PEELED);
    assert_eq!(loop_bits(&ir, "fresh"), memoryless);
    // A counter feeds its own next value; an index feeds the body's load.
    assert_eq!(loop_bits(&ir, "counter") & LOOP_MEMORYLESS, 0);
    assert_eq!(loop_bits(&ir, "feeds") & LOOP_MEMORYLESS, 0);
    // Values on entry and on the way round from the same bytes, but not the same way.
    assert_eq!(loop_bits(&ir, "cast") & LOOP_PEELED, 0);
}
