#!/usr/bin/env bash
# Runs the fuzz targets one after the other (one process, no -jobs/-workers):
#   fuzz/run.sh SECONDS [TARGET...]      (default: every target)
# FUZZ_FEATURES (e.g. fast-inflate) builds them with those features of
# this crate (fuzz/Cargo.toml), in a target directory of their own.
# Each stops after SECONDS or $FUZZ_RUNS executions (default 10 million),
# whichever comes first, on fuzz/corpus/<target> (seeded by seeds.sh from
# ../shared/corpus when present), and prints one summary line. Exits
# non-zero when a target fails; the failing input is in fuzz/artifacts/.
#
# Needs a nightly toolchain, not cargo-fuzz: the targets are built with the
# flags `cargo fuzz build -s none --debug-assertions` would pass, coverage
# limited to gamefmt's own code (below); installing cargo-fuzz took over 4
# minutes here, longer than all smoke runs together.
# No sanitizer: the crate forbids unsafe code, and the 2-3x speed buys more
# executions than ASan would find in its dependencies.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:?usage: run.sh SECONDS [TARGET...]}"
shift
runs="${FUZZ_RUNS:-10000000}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
fi

# Longest input per target: enough for real structures, small enough to
# keep executions fast (the seeds are cut to match).
max_len() {
  case "$1" in
    ubjson | huffman | snapshot | netmsg | slippi_live) echo 4096 ;;
    # teehistorian: every message is decoded six ways and compared, so
    # an input costs in proportion to its length; 16 KiB holds a header
    # and thousands of messages.
    slippi | teehistorian) echo 16384 ;;
    *) echo 65536 ;;
  esac
}

triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
# Coverage instrumentation for gamefmt and the targets only, not their
# dependencies: with miniz_oxide and adler2 instrumented too, the map and
# datafile targets spent over 80% of their time in comparison hooks inside
# the inflater (2.3k exec/s; 23.6k exec/s without). The fuzzer steers by
# gamefmt's own branches, which is what it is here to test. Per-package
# flags need nightly's -Zprofile-rustflags.
sancov='["-Cpasses=sancov-module",
  "-Cllvm-args=-sanitizer-coverage-level=4",
  "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
  "-Cllvm-args=-sanitizer-coverage-pc-table",
  "-Cllvm-args=-sanitizer-coverage-trace-compares",
  "-Cllvm-args=-sanitizer-coverage-stack-depth",
  "-Cllvm-args=-simplifycfg-branch-fold-threshold=0"]'
sancov="${sancov//$'\n'/}"
./seeds.sh
features="${FUZZ_FEATURES:-}"
run="run${features:+-${features//,/-}}"
RUSTFLAGS="--cfg fuzzing -Cdebug-assertions -Ccodegen-units=1" \
  cargo +nightly -Zprofile-rustflags build --quiet --release \
  --target "$triple" --bins --target-dir "target/$run" --features "$features" \
  --config "profile.release.package.gamefmt.rustflags=$sancov" \
  --config "profile.release.package.gamefmt-fuzz.rustflags=$sancov"
# Keep freed memory in the process: the targets allocate their buffers
# afresh for every input (so that a failure never depends on an earlier
# input), and glibc would otherwise map and unmap them each time (page
# faults were a quarter of the demo target's time).
export MALLOC_MMAP_THRESHOLD_=$((1 << 30)) MALLOC_TRIM_THRESHOLD_=$((1 << 30))
failed=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="$(mktemp)"
  start=$(date +%s)
  if "target/$run/$triple/release/$t" "corpus/$t" -runs="$runs" \
      -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=10 \
      -rss_limit_mb=2048 -artifact_prefix="artifacts/$t/" \
      -print_final_stats=1 >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
    failed=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  echo "fuzz $t: $result, ${execs:-?} execs in $(($(date +%s) - start))s, $last"
  if [ "$result" = FAILED ]; then
    grep -E "panicked at|^ *(left|right):|ERROR|Test unit written" "$log" | cut -c1-300 | head -n 8 || true
  fi
  rm -f "$log"
done
exit "$failed"
