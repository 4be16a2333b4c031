#!/usr/bin/env bash
# Generated code, two files: 8000 globals, each allocated in a function of its own (init0 ..
# init7999) and freed nowhere, all called by setup, which also allocates a global that the second
# file frees. For each global freed nowhere, GM001 looks for a sibling set up with it and freed
# somewhere: in the function that allocates it, then under each of that function's callers. Each
# look scanned every global's allocations, and each caller every call of the program: N^2 string
# compares, 2.3 s of the program stage at 8000. Now the allocations into globals and the calls
# are sorted once, by function and by caller or callee: 0.04-0.06 s. Every finding is checked:
# the sibling allocated first in a function is named (k0's: h3, not h2, the first member), a
# caller that allocates nothing freed is passed over for the next (early calls init0 before setup
# does), and a global whose only caller allocates nothing freed (z, under early) is left alone.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
count=8000
{
  echo '#include <cuda_runtime.h>'
  echo 'float *h = nullptr, *h2 = nullptr, *h3 = nullptr, *k0 = nullptr, *z = nullptr;'
  echo 'void both() { cudaMalloc(&h3, 64); cudaMalloc(&k0, 64); cudaMalloc(&h2, 64); }'
  echo 'void lone() { cudaMalloc(&z, 64); }'
  for ((i = 0; i < count; i++)); do
    echo "float *g$i = nullptr;"
    echo "void init$i() { cudaMalloc(&g$i, 64); }"
  done
  echo 'void early() {'
  echo '  lone();'
  echo '  init0();'
  echo '}'
  echo 'void setup() {'
  echo '  cudaMalloc(&h, 64);'
  for ((i = 0; i < count; i++)); do echo "  init$i();"; done
  echo '}'
} >a.cu
cat >b.cu <<'SRC'
#include <cuda_runtime.h>
extern float *h, *h2, *h3;
void shutdown() {
  cudaFree(h3);
  cudaFree(h);
  cudaFree(h2);
}
SRC
{
  echo "a.cu:3:36: warning: 'k0' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'h3', allocated with it in 'both', is freed in 'shutdown'; free it there with cudaFree [GM001 unpaired-allocation]"
  echo "b.cu:4:3: note: 'h3' is freed here, in 'shutdown'"
  for ((i = 0; i < count; i++)); do
    echo "a.cu:$((6 + 2 * i)):$((15 + ${#i})): warning: 'g$i' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'h', allocated with it under 'setup', is freed in 'shutdown'; free it there with cudaFree [GM001 unpaired-allocation]"
    echo "a.cu:$((2 * count + 11 + i)):3: note: 'setup' calls 'init$i' here, which allocates 'g$i'"
    echo "b.cu:5:3: note: 'h' is freed here, in 'shutdown'"
  done
} >expected
run_capped 60 --no-cache -j 1 --time-report a.cu b.cu
expect_rc 1 "$count globals freed nowhere"
grep -E ': (warning|note):' "$WORK/out" >reported
diff -q expected reported >/dev/null ||
  fail "each global freed nowhere, with its sibling's notes: $(diff expected reported | head -c 900)"
expect_stage_under "program join" 0.5
finish
