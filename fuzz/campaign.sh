#!/usr/bin/env bash
# A fuzzing campaign over every target (or those named), on the stable toolchain.
#
#   fuzz/campaign.sh                      # 10,000,000 executions per target
#   RUNS=100000 fuzz/campaign.sh event    # one target, fewer executions
#   SECONDS_EACH=20 fuzz/campaign.sh      # a time budget per target instead (.ci/run)
#   JOBS=2 fuzz/campaign.sh               # targets side by side
#   WORKERS=2 fuzz/campaign.sh cup        # two processes on each target
#   PROFILE=release fuzz/campaign.sh      # the quicker build (CI's short runs)
#
# Each target starts from its committed seeds (fuzz/seeds/TARGET) and keeps the
# corpus it grows in fuzz/work/TARGET (not committed). A crash, a timeout (one
# input over 10 s; 60 s for cup), memory over 2 GB or a failed assertion (nondeterminism,
# eval and explain disagreeing, an error in a regular event) stops the target,
# leaves the input in fuzz/artifacts/TARGET/ and makes the script exit 1.
# At the end each target's executions and corpus size are printed, and each
# run is added to the ledger (fuzz/ledger.tsv, committed; LEDGER=… elsewhere):
# when, at which commit, which target, how many executions, how long, how it
# ended (libFuzzer's exit status: 0 done, 72 interrupted by Ctrl-C or SIGINT,
# anything else a finding). A campaign can be run in parts, each resuming from
# the corpus the last grew; the totals over the ledger are printed last. The
# script exits 1 on a finding only: an interrupted part is a part. WORKERS
# processes of one target share its corpus (libFuzzer reloads what the others
# add), each with its own log (work/TARGET.log, work/TARGET.2.log, …) and its
# own line in the ledger, each with RUNS (or SECONDS_EACH) of its own.
set -uo pipefail
cd "$(dirname "$0")"

all=(edition expression read event desk simulate cup)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
RUNS="${RUNS:-10000000}"
WORKERS="${WORKERS:-1}"
JOBS="${JOBS:-$WORKERS}"
LEDGER="${LEDGER:-ledger.tsv}"
commit="$(git describe --always --dirty 2>/dev/null || echo unknown)"
[ -s "$LEDGER" ] || printf 'finished\tcommit\ttarget\texecutions\tseconds\texit\n' >"$LEDGER"

# Long runs are worth the cross-crate optimisation's longer build (Cargo.toml).
bin_dir="$(PROFILE="${PROFILE:-campaign}" ./build.sh "${targets[@]}" | tail -1)" || exit 3

# Largest input per target: whole rules files for the edition (the largest
# 2015 file with the edition's header), small otherwise.
max_len() {
  case "$1" in
    edition) echo 81920 ;;
    cup | simulate) echo 4096 ;;
    *) echo 8192 ;;
  esac
}

# Time allowed for one input: a cup input plays up to 40 steps of a 72-team
# event, each run twice, which a loaded machine can stretch past 10 s.
time_limit() {
  case "$1" in
    cup) echo 60 ;;
    *) echo 10 ;;
  esac
}

one() {
  local t="$1" worker="$2"
  local log="work/$t.log"
  [ "$worker" -gt 1 ] && log="work/$t.$worker.log"
  mkdir -p "work/$t" "artifacts/$t"
  local started=$SECONDS
  local budget=(-runs="$RUNS")
  [ -n "${SECONDS_EACH:-}" ] && budget=(-max_total_time="$SECONDS_EACH")
  "$bin_dir/$t" "work/$t" "seeds/$t" "${budget[@]}" \
    -max_len="$(max_len "$t")" -timeout="$(time_limit "$t")" -rss_limit_mb=2048 \
    -artifact_prefix="artifacts/$t/" -print_final_stats=1 \
    >"$log" 2>&1
  local rc=$?
  local execs
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  printf '%-10s exit %s, %s executions, corpus %s inputs\n' \
    "$t" "$rc" "${execs:-?}" "$(find "work/$t" -type f | wc -l)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$commit" "$t" \
    "${execs:-0}" "$((SECONDS - started))" "$rc" >>"$LEDGER"
  # Interrupted (72) is a part of a campaign, not a finding.
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 72 ]; then
    tail -40 "$log"
    return 1
  fi
}

failed=0
running=0
for t in "${targets[@]}"; do
  for worker in $(seq "$WORKERS"); do
    one "$t" "$worker" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
      wait -n || failed=1
      running=$((running - 1))
    fi
  done
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
echo "ledger ($LEDGER), every run so far: target, runs, executions, hours, runs that stopped on a finding"
awk -F'\t' 'NR > 1 { n[$3]++; e[$3] += $4; s[$3] += $5; f[$3] += ($6 != 0 && $6 != 72) }
  END { for (t in n) printf "  %-10s %4d %12d %8.1f %3d\n", t, n[t], e[t], s[t] / 3600, f[t] }' \
  "$LEDGER" | sort
exit "$failed"
