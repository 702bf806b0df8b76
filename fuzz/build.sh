#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation on the
# stable toolchain (cargo-fuzz would ask for nightly only for its sanitizer
# flags). Debug assertions and overflow checks stay on (see Cargo.toml). Not
# --locked: fuzz/Cargo.lock follows bfr's dependencies as they change.
# RUSTFLAGS reach only the targets, not build scripts, because the target is
# named explicitly. The binaries land in fuzz/target/<host>/release/.
set -euo pipefail
cd "$(dirname "$0")"
export RUSTFLAGS="${RUSTFLAGS:-} -Cpasses=sancov-module \
 -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
 -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares \
 --cfg fuzzing"
host="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --target "$host" --bins "$@"
echo "target/$host/release"
