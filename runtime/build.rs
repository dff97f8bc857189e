fn main() {
    let files = [
        "c/fiber.c",
        "c/probe.c",
        "c/shims.c",
        "c/alloc.c",
        "c/libc.c",
        "c/main.c",
        "c/tls.c",
        "c/c11.c",
        "c/reset.c",
    ];
    let mut build = cc::Build::new();
    build
        .files(files)
        .flag("-Wall")
        .flag("-Wextra")
        .flag("-Werror")
        .opt_level(2)
        .flag("-fno-stack-protector");
    build.compile("cdpor_rt_c");
    for f in files.iter().chain(&["c/rt.h", "c/kinds.h"]) {
        println!("cargo:rerun-if-changed={f}");
    }
}
