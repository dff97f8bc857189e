//! Builds the runtime archive (`runtime/`, a staticlib that cargo does not build for
//! `cargo test`) with a nested cargo in its own target directory, so that the cdpor
//! binary can embed it and needs nothing beside it.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let target_dir = out.join("runtime-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args([
        "build",
        "--quiet",
        "-p",
        "cdpor-rt",
        "--manifest-path",
        "runtime/Cargo.toml",
    ]);
    cmd.arg("--target-dir").arg(&target_dir);
    if release {
        cmd.arg("--release");
    }
    // The archive is linked into every checked program: only what the runtime's entry
    // points reach (LTO over the standard library too), without debug information
    // (reports name the program's code, never the runtime's), so that writing and
    // linking it costs little.
    cmd.env("CARGO_PROFILE_RELEASE_LTO", "fat")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .env("CARGO_PROFILE_DEV_DEBUG", "0");
    // The outer build's settings are for the cdpor binary, not for the runtime.
    for var in [
        "CARGO_TARGET_DIR",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd.status().expect("cannot run cargo to build the runtime");
    assert!(status.success(), "building the runtime (runtime/) failed");
    let lib = target_dir
        .join(if release { "release" } else { "debug" })
        .join("libcdpor_rt.a");
    // The standard library's own debug information survives LTO: strip it, where a
    // `strip` is at hand (the archive works either way).
    let stripped = out.join("libcdpor_rt.a");
    let strip = Command::new("strip")
        .arg("--strip-debug")
        .arg(&lib)
        .arg("-o")
        .arg(&stripped)
        .status();
    let lib = if strip.is_ok_and(|s| s.success()) {
        stripped
    } else {
        lib
    };
    println!("cargo:rustc-env=CDPOR_RUNTIME_LIB={}", lib.display());
    for path in [
        "runtime/Cargo.toml",
        "runtime/build.rs",
        "runtime/src",
        "runtime/c",
        "runtime/sched/src",
        "runtime/sched/Cargo.toml",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
}
