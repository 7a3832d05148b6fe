#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for SECONDS (default 60), one after
# another, one process each, at low priority. Prints executions, exec/s, coverage (cov) and
# features (ft) per target; exits 1 if any target crashed, leaving its input in the folder named.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET ...]     (targets: frames envelope keyexchange ...)
# Env:   FUZZ_NICE (default 15), FUZZ_SANITIZERS (default fuzzer,address when ASan is available).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
seconds="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(frames envelope keyexchange linkopen control config dbus)
source scripts/install-deps.sh
nice_level="${FUZZ_NICE:-15}"

# libFuzzer and ASan ship with the Swift toolchain (clang's compiler-rt); Debian's libclang-rt
# packages belong to Debian's clang and are not what swiftc links.
rt="$(dirname "$(command -v swift)")/../lib/swift/clang/lib/linux"
arch="$(uname -m)"
[ -f "$rt/libclang_rt.fuzzer-$arch.a" ] || {
  echo "fuzz: the toolchain has no libFuzzer runtime ($rt/libclang_rt.fuzzer-$arch.a)" >&2
  exit 69
}
sanitizers="${FUZZ_SANITIZERS:-fuzzer}"
if [ -z "${FUZZ_SANITIZERS:-}" ] && [ -f "$rt/libclang_rt.asan-$arch.a" ]; then sanitizers="fuzzer,address"; fi

echo "== build Fuzz/ (release, -sanitize=$sanitizers)"
nice -n "$nice_level" swift build -c release --package-path Fuzz \
  -Xswiftc -sanitize="$sanitizers" -Xswiftc -parse-as-library -Xswiftc -warnings-as-errors
bin="$(swift build -c release --package-path Fuzz --show-bin-path)"
work="$root/Fuzz/.build/fuzz-runs"
mkdir -p "$work"

failed=0
rows=()
for target in "${targets[@]}"; do
  dir="$work/$target"
  crashes="$dir/crashes"
  mkdir -p "$dir/corpus" "$crashes"
  rm -f "$dir"/fuzz-*.log
  echo "== fuzz-$target for ${seconds}s (new inputs in $dir/corpus, seeds in Fuzz/Corpus/$target)"
  start=$(date +%s)
  set +e
  (cd "$dir" && nice -n "$nice_level" "$bin/fuzz-$target" -workers=1 -jobs=1 -max_total_time="$seconds" \
    -print_final_stats=1 -timeout=25 -artifact_prefix="$crashes/" "$dir/corpus" "$root/Fuzz/Corpus/$target" \
    >"$dir/driver.log" 2>&1)
  status=$?
  set -e
  elapsed=$(( $(date +%s) - start ))
  log="$dir/fuzz-0.log"
  [ -f "$log" ] || log="$dir/driver.log"
  last="$(grep -E '^#[0-9]+' "$log" | tail -1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  found="$(find "$crashes" -type f | wc -l)"
  if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
    failed=1
    echo "fuzz-$target FAILED (exit $status): inputs in $crashes/, log $log" >&2
    grep -E 'fuzz check failed|Fatal error|ERROR: |SUMMARY' "$log" | head -5 >&2 || true
  fi
  rows+=("$(printf '%-12s %8s %12s %8s %6s %7s %8s' "$target" "$elapsed" "${execs:-?}" "${rate:-?}" \
    "${cov:-?}" "${ft:-?}" "$found")")
done

echo
printf '%-12s %8s %12s %8s %6s %7s %8s\n' target seconds executions exec/s cov ft crashes
printf '%s\n' "${rows[@]}"
exit "$failed"
