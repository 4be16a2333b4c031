#!/usr/bin/env bash
# Generated code, two files: one function calls 12000 functions declared only (ext0 .. ext11999),
# then helpers of the second file: one that allocates into its out-parameter, one that frees, one
# that only reads; 64 more functions each free a buffer through a helper of their own and again. Pass two looked each callee up among the other file's summaries already
# converted (the declared-only ones among them, found nowhere) by scanning them: N^2 string
# compares, 1.5 s of the flow stage at 12000 against 0.02 s for the file alone. Now that list is
# indexed by a hash of the USR: 0.02 s. Each finding rests on a lookup made after the 12000 (the
# leak of what make hands out, each double free after a settle), and clean() passes its buffer
# to look, which only reads it: a lookup that returns another entry's summary fails here too.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
count=12000
twins=64
{
  echo '#include <cuda_runtime.h>'
  echo 'void settle(float *b);'
  echo 'void look(float *b);'
  echo 'void make(float **out, int n);'
  for ((i = 0; i < count; i++)); do echo "int ext$i(int);"; done
  echo 'int many(int n) {'
  echo '  float *p = nullptr, *q = nullptr;'
  echo '  cudaMalloc(&p, n);'
  echo '  int s = 0;'
  for ((i = 0; i < count; i++)); do echo "  s += ext$i(s);"; done
  echo '  make(&q, n);'
  echo '  settle(p);'
  echo '  s += ext0(s);'
  echo '  cudaFree(p);'
  echo '  return s;'
  echo '}'
  echo 'void clean(int n) {'
  echo '  float *w = nullptr;'
  echo '  cudaMalloc(&w, n);'
  echo '  look(w);'
  echo '  cudaFree(w);'
  echo '}'
  for ((i = 0; i < twins; i++)); do
    echo "void settle$i(float *b);"
    echo "void twice$i(int n) { float *w = nullptr; cudaMalloc(&w, n); settle$i(w); cudaFree(w); }"
  done
} >many.cu
cat >helpers.cu <<'SRC'
#include <cuda_runtime.h>
void settle(float *b) { cudaFree(b); }
void look(float *b) { cudaMemset(b, 0, 4); }
void make(float **out, int n) { cudaMalloc(out, n); }
SRC
for ((i = 0; i < twins; i++)); do echo "void settle$i(float *b) { cudaFree(b); }"; done >>helpers.cu
made=$((2 * count + 9)) # the call to make
cat >expected <<EOF
many.cu:$made:3: warning: 'q' (device memory from make) is not freed on every path: a return leaves 'many' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
many.cu:$((made + 4)):3: note: this return leaves without freeing 'q'
many.cu:$((made + 3)):3: warning: 'p' (device memory from cudaMalloc) is freed twice: settle already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]
many.cu:$((made + 1)):3: note: first freed here
many.cu:$((count + 7)):3: note: allocated here with cudaMalloc
EOF
for ((i = 0; i < twins; i++)); do
  line=$((made + 13 + 2 * i))
  col=$((60 + ${#i})) # settle$i
  echo "many.cu:$line:$((col + ${#i} + 11)): warning: 'w' (device memory from cudaMalloc) is freed twice: settle$i already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]"
  echo "many.cu:$line:$col: note: first freed here"
  echo "many.cu:$line:$((col - 19)): note: allocated here with cudaMalloc"
done >>expected
run_capped 60 --no-cache -j 1 --time-report many.cu helpers.cu
expect_rc 1 "$count calls to functions declared only"
grep -E ': (warning|note):' "$WORK/out" >reported
diff -q expected reported >/dev/null ||
  fail "the leak from make and the double frees after settle, with their notes: $(diff expected reported | head -c 900)"
expect_stage_under "flow" 0.3
finish
