#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation on the
# stable toolchain (cargo-fuzz would ask for nightly only for its sanitizer
# flags). Debug assertions and overflow checks stay on (see Cargo.toml). Not
# --locked: fuzz/Cargo.lock follows bfr's dependencies as they change.
# RUSTFLAGS reach only the targets, not build scripts, because the target is
# named explicitly. PROFILE picks the Cargo profile: `release` (the default)
# or `campaign` (optimised across crates, for long runs). The binaries land in
# fuzz/target/<host>/PROFILE/, whose path is the last line printed. Only the
# targets named are built (`fuzz/build.sh cup simulate`); none named, all.
#
# Two builds. The targets that read text trace every comparison, so that
# libFuzzer learns the words and numbers the code compares its input with. The
# structured targets, whose input is a plan made with `arbitrary` (the code never
# compares the bytes as read), do not: the hooks were half of their time (`cup`:
# 300 inputs in 5.2 s without, 11.0 s with). They are built apart, in
# target/structured/, and linked beside the others.
set -euo pipefail
cd "$(dirname "$0")"
coverage="-Cpasses=sancov-module \
 -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
 -Cllvm-args=-sanitizer-coverage-pc-table \
 --cfg fuzzing"
compares="-Cllvm-args=-sanitizer-coverage-trace-compares"
# The targets named (all when none is), in their two builds.
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(edition expression read event desk cup simulate)
text=()
structured=()
for t in "${wanted[@]}"; do
  case "$t" in
    edition | expression | read | event | desk) text+=("$t") ;;
    cup | simulate) structured+=("$t") ;;
    *) echo "build.sh: no fuzz target \`$t\`" >&2 && exit 2 ;;
  esac
done
host="$(rustc -vV | sed -n 's/^host: //p')"
profile="${PROFILE:-release}"
bins() { for t in "$@"; do printf -- '--bin %s ' "$t"; done; }
if [ ${#text[@]} -gt 0 ]; then
  # shellcheck disable=SC2046 # one word per flag
  RUSTFLAGS="${RUSTFLAGS:-} $coverage $compares" \
    cargo build --profile "$profile" --target "$host" $(bins "${text[@]}")
fi
if [ ${#structured[@]} -gt 0 ]; then
  # shellcheck disable=SC2046
  RUSTFLAGS="${RUSTFLAGS:-} $coverage" CARGO_TARGET_DIR=target/structured \
    cargo build --profile "$profile" --target "$host" $(bins "${structured[@]}")
  mkdir -p "target/$host/$profile"
  # A link, not a copy: a campaign running the old binary keeps it.
  for t in "${structured[@]}"; do
    ln -f "target/structured/$host/$profile/$t" "target/$host/$profile/$t"
  done
fi
echo "target/$host/$profile"
