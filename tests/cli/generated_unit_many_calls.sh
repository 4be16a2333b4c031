#!/usr/bin/env bash
# Generated code: one function of 6000 lambdas, each called where it is made beside a call to a
# function declared only (ext0 .. ext5999), that also sets up two globals; a loop that calls a
# function of a second file; a call to that file's releasing helper. The unit summary looked up
# each call's callee among the file's functions, among the callees already listed and among the
# caller's edges by scanning them: N^2 string compares, 2.3 s of the unit stage at 6000 (3.9 s
# at 8000). Now the functions are a sorted index, and the callees and edges are sorted once per
# file and per caller: 0.04 s. Each finding rests on one of those lookups (GM010 across files on
# the loop calls, the double free of pass two on the called list, the global freed nowhere on
# the edge to init_b), so a lookup that loses a callee fails here as surely as a slow one.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
count=6000
{
  echo '#include <cuda_runtime.h>'
  echo 'void grow();'
  echo 'void settle(float *b);'
  echo 'float *g_a = nullptr, *g_b = nullptr;'
  echo 'void init_b() { cudaMalloc(&g_b, 64); }'
  echo 'void shutdown() { cudaFree(g_a); }'
  for ((i = 0; i < count; i++)); do echo "int ext$i(int);"; done
  echo 'int many(int n) {'
  echo '  float *p = nullptr, *q = nullptr;'
  echo '  cudaMalloc(&p, n);'
  echo '  cudaMalloc(&q, n);'
  echo '  int s = 0;'
  echo '  cudaMalloc(&g_a, n);'
  echo '  init_b();'
  for ((i = 0; i < count; i++)); do echo "  auto l$i = [&] { return s + $i; }; s += l$i() + ext$i(s);"; done
  echo '  init_b();'
  echo '  auto release = [&] { cudaFree(p); };'
  echo '  release();'
  echo '  return s;'
  echo '}'
  echo 'void steps(int n) {'
  echo '  for (int k = 0; k < n; k++)'
  echo '    grow();'
  echo '}'
  echo 'void twice(int n) {'
  echo '  float *w = nullptr;'
  echo '  cudaMalloc(&w, n);'
  echo '  settle(w);'
  echo '  cudaFree(w);'
  echo '}'
} >many.cu
cat >grow.cu <<'SRC'
#include <cuda_runtime.h>
void grow() {
  float *t = nullptr;
  cudaMalloc(&t, 256);
  cudaFree(t);
}
void settle(float *b) { cudaFree(b); }
SRC
end=$((2 * count + 17)) # the return of many
cat >expected <<EOF
many.cu:5:17: warning: 'g_b' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'g_a', allocated with it under 'many', is freed in 'shutdown'; free it there with cudaFree [GM001 unpaired-allocation]
many.cu:$((count + 13)):3: note: 'many' calls 'init_b' here, which allocates 'g_b'
many.cu:6:19: note: 'g_a' is freed here, in 'shutdown'
many.cu:$((count + 10)):3: warning: 'q' (device memory from cudaMalloc) is not freed on every path: a return leaves 'many' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
many.cu:$end:3: note: this return leaves without freeing 'q'
many.cu:$((end + 10)):3: warning: 'w' (device memory from cudaMalloc) is freed twice: settle already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]
many.cu:$((end + 9)):3: note: first freed here
many.cu:$((end + 8)):3: note: allocated here with cudaMalloc
grow.cu:4:3: warning: cudaMalloc in 'grow' runs on every call, and 'grow' is called in a loop in many.cu; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool [GM010 allocation-in-loop]
many.cu:$((end + 4)):5: note: 'grow' is called in a loop here, in 'steps'
many.cu:$((end + 3)):3: note: the loop
EOF
run_capped 60 --no-cache -j 1 --time-report many.cu grow.cu
expect_rc 1 "$count lambdas and calls"
grep -E ': (warning|note):' "$WORK/out" >reported
diff -q expected reported >/dev/null ||
  fail "the leak and the cross-file loop allocation, with their notes: $(diff expected reported | head -c 900)"
expect_stage_under "unit summary" 0.5
finish
