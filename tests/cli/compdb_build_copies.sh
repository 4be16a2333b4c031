# A header the build copies into its build tree (configure_file, file(COPY), an install step into
# build/include) and the sources include from there: a finding in the copy is reported at its
# source, the one file of the source tree with its name and bytes; a copy the build changed, or
# one whose name and bytes two sources share, stays where it is.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p proj/include proj/src proj/other proj/build/include
cat >proj/include/stage.h <<'SRC'
#pragma once
#include <cuda_runtime.h>
inline int stage_buffer(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  if (n > 64)
    return -2;
  cudaFree(d);
  return 0;
}
SRC
cp proj/include/stage.h proj/build/include/stage.h
printf '#include "stage.h"\nint run_a(int n) { return stage_buffer(n); }\n' >proj/src/a.cu
printf '[{"directory": "%s", "arguments": ["nvcc", "-I%s", "-c", "%s"], "file": "%s"}]\n' \
  "$WORK/proj/build" "$WORK/proj/build/include" "$WORK/proj/src/a.cu" "$WORK/proj/src/a.cu" \
  >proj/build/compile_commands.json
at() { grep -E ': warning: ' "$WORK/out" | cut -d: -f1-3; }

run --no-cache -p proj/build
expect_rc 1 "a leak in the copied header"
[ "$(at)" = "$WORK/proj/include/stage.h:5:7" ] || fail "the copy's finding at its source: $(cat "$WORK/out")"
expect_out "^$WORK/proj/include/stage.h:8:5: note: this return leaves without freeing 'd'$" "its note at the source too"
expect_no_out "proj/build/include" "nothing at the copy"

# the build changed its copy: not the source's bytes, so it stays
printf '// generated\n' | cat - proj/include/stage.h >proj/build/include/stage.h
run --no-cache -p proj/build
[ "$(at)" = "$WORK/proj/build/include/stage.h:6:7" ] || fail "a changed copy stays: $(cat "$WORK/out")"

# two sources with the copy's name and bytes: which one was copied is not known
cp proj/include/stage.h proj/build/include/stage.h
cp proj/include/stage.h proj/other/stage.h
run --no-cache -p proj/build
[ "$(at)" = "$WORK/proj/build/include/stage.h:5:7" ] || fail "two candidate sources: the copy stays: $(cat "$WORK/out")"
finish
