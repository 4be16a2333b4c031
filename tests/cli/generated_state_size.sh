#!/usr/bin/env bash
# Generated code (issue 30): one function that holds thousands of allocations at once. The flow
# engine passed over every object of its state at each statement, and at each error return
# scanned every leak reported so far: `checked 6000` (each allocation tested, a return on failure)
# needed about a minute of CPU here, and `allocations 20000` 8 s. A statement now touches what it
# names, and the work that still grows with the state (copies at branches, comparisons where
# paths meet, exit checks) counts in the function's step budget. The CPU limits are generous (the
# new code needs about a second, its sanitizer build a few): they catch a return of the quadratic
# passes, not a slow machine. Where the budget cuts a function short, the paths it drops report
# nothing: no leak is claimed for an allocation whose free the engine never reached.
source "$(dirname "$0")/testlib.bash"

limited() { # CPU seconds, then gmemlint's arguments: output to $WORK/out and $WORK/err
  local seconds=$1
  shift
  rc=0
  (
    ulimit -t "$seconds"
    exec "$GMEMLINT" --no-cache -j 1 "$@"
  ) >"$WORK/out" 2>"$WORK/err" || rc=$?
}

# 20000 allocations and their frees but the last: one finding at the end, the function not cut short
big="$WORK/allocations.cu"
bash "$ROOT/bench/generated_code.sh" allocations 20000 | grep -vx '  cudaFree(p19999);' >"$big"
limited 20 "$big"
expect_rc 1 "allocations 20000, the last one leaks"
[ "$(count_out ' warning: ')" -eq 1 ] || fail "one finding in 20000 allocations: $(head -c 600 "$WORK/out")"
expect_out "^$big:40002:3: warning: 'p19999' \(device memory from cudaMalloc\) is not freed on every path through 'many'; call cudaFree when it is no longer needed \[GM001 unpaired-allocation\]$" \
  "the leak of the last allocation"
expect_out "^$big:60002:1: note: 'many' ends here without freeing 'p19999'$" "its note at the end"
[ "$(count_out ' note: ')" -eq 1 ] || fail "no cut-short notice: $(grep ' note: ' "$WORK/out" | head -3)"

# each allocation tested, a return on failure: each error return leaks the allocations before it,
# until the state's growth spends the step budget; the normal path's frees are never reached
checked="$WORK/checked.cu"
bash "$ROOT/bench/generated_code.sh" checked 6000 >"$checked"
limited 20 "$checked"
expect_rc 1 "checked 6000"
expect_out "^$checked:2:5: note: analysis of 'checked' was cut short \(too many steps\); findings in it may be incomplete$" \
  "cut short by the state's size"
expect_out "^$checked:4:7: warning: 'p0' \(device memory from cudaMalloc\) is not freed on an error path: a return after a failed call leaves 'checked' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" \
  "the first error path's leak"
expect_out "^$checked:8:5: note: this return after a failed call leaves without freeing 'p0'$" "its note"
warnings=$(count_out ' warning: ')
error_paths=$(count_out " warning: 'p[0-9]+' \(device memory from cudaMalloc\) is not freed on an error path: a return after a failed call leaves 'checked' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$")
[ "$warnings" -gt 1000 ] && [ "$warnings" -lt 5999 ] ||
  fail "error-path leaks up to the cut, not all 5999: $warnings"
[ "$warnings" -eq "$error_paths" ] || fail "only error-path leaks: $warnings findings, $error_paths of them on error paths"
[ "$(count_out ' note: ')" -eq $((warnings + 1)) ] || fail "a note per finding and the notice"

# a branch after each allocation: the state grows and is copied and compared at each one; cut
# short before the frees, and nothing reported about the allocations the dropped paths held
guarded() { # N: the shape, to stdout
  echo '#include <cuda_runtime.h>'
  echo 'void guarded(int n) {'
  for ((i = 0; i < $1; i++)); do
    printf '  float *p%d;\n  cudaMalloc(&p%d, 4);\n  if (n > %d)\n    cudaMemset(p%d, 0, 4);\n' "$i" "$i" "$i" "$i"
  done
  for ((i = 0; i < $1; i++)); do printf '  cudaFree(p%d);\n' "$i"; done
  echo '}'
}
guarded 3000 >"$WORK/guarded.cu"
limited 20 "$WORK/guarded.cu"
expect_rc 0 "guarded 3000: a notice alone"
[ "$(cat "$WORK/out")" = "$WORK/guarded.cu:2:6: note: analysis of 'guarded' was cut short (too many steps); findings in it may be incomplete" ] ||
  fail "guarded 3000: the notice and nothing else: $(head -c 600 "$WORK/out")"
# its clean twin: small enough for the budget, followed to the end, nothing to report
guarded 200 >"$WORK/guarded_small.cu"
limited 20 "$WORK/guarded_small.cu"
expect_rc 0 "guarded 200"
[ ! -s "$WORK/out" ] || fail "guarded 200: no finding, no notice: $(head -c 600 "$WORK/out")"
finish
