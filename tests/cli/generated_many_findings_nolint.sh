#!/usr/bin/env bash
# Generated code: 16000 functions that each leak, with NOLINT comments of every form among them.
# Each finding's NOLINTBEGIN/NOLINTEND check rescanned every earlier line of the file: N^2 line
# reads, 5 s of the unit stage at 16000 findings. Now the file's NOLINT lines are found once and
# each finding is a binary search among them: 0.1 s. Every finding left and every note is checked
# against the list the generator knows, so a lookup that suppresses one finding too many or too
# few fails as surely as a slow one.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
count=16000
region_end=1000 # f0 .. f999 lie in a NOLINTBEGIN(GM001) region
same_line=2000  # f2000 carries NOLINT(GM001); f2001 a NOLINT for another rule only
leak() { # function name, line: the warning and its note as gmemlint words them
  local col=$((${#1} + 36))
  echo "many.cu:$2:$col: warning: 'p' (device memory from cudaMalloc) is not freed on every path through '$1'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]"
  echo "many.cu:$2:$((col + 19)): note: '$1' ends here without freeing 'p'"
}
{
  echo '#include <cuda_runtime.h>'
  echo '// NOLINTBEGIN(GM001)'
  for ((i = 0; i < count; i++)); do
    [ $i -eq $region_end ] && echo '// NOLINTEND(GM001)'
    line="void f$i(int n) { float *p = nullptr; cudaMalloc(&p, n); }"
    [ $i -eq $same_line ] && line+=' // NOLINT(GM001)'
    [ $i -eq $((same_line + 1)) ] && line+=' // NOLINT(GM002)'
    echo "$line"
  done
  echo '// NOLINTNEXTLINE(GM001)'
  echo 'void last(int n) { float *p = nullptr; cudaMalloc(&p, n); }'
} >many.cu
for ((i = region_end; i < count; i++)); do
  [ $i -ne $same_line ] && leak "f$i" $((i + 4))
done >expected
run_capped 60 --no-cache -j 1 --time-report many.cu
expect_rc 1 "$count findings"
grep -E ': (warning|note):' "$WORK/out" >reported
diff -q expected reported >/dev/null ||
  fail "the findings outside NOLINT, each with its note: $(diff expected reported | head -c 600)"
expect_stage_under "unit summary" 1.0
finish
