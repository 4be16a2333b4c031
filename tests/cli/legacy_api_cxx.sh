# The legacy layer in host C++ (a .cpp that includes <cuda_runtime.h> and calls APIs removed since
# CUDA 11): parsed again with gmemlint's declarations of them, after the runtime API's own, with
# the same legacy-api notice as a CUDA file; a .cpp that does not need the layer, or fails on
# something else, never sees it.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >old.cpp <<'SRC'
#include <cuda_runtime.h>
#include <stdio.h>
int copy_in(const float *h, int n) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
    return -3;
  printf("%d kHz\n", prop.clockRate);
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  if (cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
    return -2;
  cudaThreadSynchronize();
  cudaFree(d);
  return 0;
}
SRC
# the same without the removed APIs
sed -e 's/prop.clockRate/prop.major/' -e 's/cudaThreadSynchronize/cudaDeviceSynchronize/' old.cpp >new.cpp
# an error of its own, about no API of the layer
cat >other.cpp <<'SRC'
#include <cuda_runtime.h>
int other(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  cudaThreadSynchronise(d);
  return 0;
}
SRC
NOTICE="old.cpp: uses APIs removed from the CUDA toolkit (cudaDeviceProp::clockRate, cudaThreadSynchronize); parsed with gmemlint's declarations of the CUDA 11 API"
GM001="warning: 'd' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'copy_in' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]"

run --no-cache old.cpp
expect_rc 1 "old.cpp: the leak is found"
printf '%s\n' "old.cpp:7:27: note: $NOTICE" "old.cpp:9:7: $GM001" \
  "old.cpp:12:5: note: this return after a failed call leaves without freeing 'd'" >want
grep "^old.cpp:" "$WORK/out" >got
diff want got >/dev/null || fail "old.cpp: the reported lines differ: $(diff want got)"
[ -s "$WORK/err" ] && fail "old.cpp: stderr not empty: $(head -c 600 "$WORK/err")"

run --no-cache new.cpp
expect_rc 1 "new.cpp: the leak is found"
printf '%s\n' "new.cpp:9:7: $GM001" \
  "new.cpp:12:5: note: this return after a failed call leaves without freeing 'd'" >want
grep "^new.cpp:" "$WORK/out" >got
diff want got >/dev/null || fail "new.cpp: the reported lines differ: $(diff want got)"
[ -s "$WORK/err" ] && fail "new.cpp: stderr not empty: $(head -c 600 "$WORK/err")"

run --no-cache other.cpp
expect_rc 3 "other.cpp: a parse error"
expect_no_out "uses APIs removed" "other.cpp is not parsed with the legacy layer"
expect_err "^other.cpp:6:3: note: clang: use of undeclared identifier 'cudaThreadSynchronise'" \
  "other.cpp: its own error, reported"
finish
