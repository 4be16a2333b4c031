#!/usr/bin/env bash
# A compile database whose compiler is an MPI wrapper (mpicxx): the wrapper adds MPI's include
# directories itself, so gmemlint asks it (`--showme:compile`, Open MPI; `-compile_info`, MPICH),
# by name on PATH, never at the path the database gives. Fake wrappers here stand in for both.
source "$(dirname "$0")/testlib.bash"

mkdir -p "$WORK/openmpi/bin" "$WORK/openmpi/include" "$WORK/mpich/bin" "$WORK/mpich/include" \
  "$WORK/src"
for impl in openmpi mpich; do
  cat >"$WORK/$impl/include/mpi.h" <<'H'
typedef int MPI_Comm;
#define MPI_COMM_WORLD 0
int MPI_Comm_rank(MPI_Comm comm, int *rank);
H
done
cat >"$WORK/openmpi/bin/mpicxx" <<SH
#!/bin/sh
[ "\$1" = "--showme:compile" ] && { echo "-I$WORK/openmpi/include -pthread"; exit 0; }
exit 1
SH
cat >"$WORK/mpich/bin/mpicxx" <<SH
#!/bin/sh
[ "\$1" = "-compile_info" ] && { echo "g++ -I$WORK/mpich/include -L/nowhere -lmpi"; exit 0; }
exit 1
SH
chmod +x "$WORK/openmpi/bin/mpicxx" "$WORK/mpich/bin/mpicxx"
cat >"$WORK/src/rank.cpp" <<'SRC'
#include <mpi.h>
#include <cuda_runtime.h>
int per_rank(int n) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float) * (rank + 1));
  return rank;
}
SRC
cat >"$WORK/src/compile_commands.json" <<EOF2
[{"directory": "$WORK/src", "file": "$WORK/src/rank.cpp",
  "arguments": ["/nonexistent/bin/mpicxx", "-I/usr/local/cuda/include", "-c", "rank.cpp", "-o", "rank.o"]}]
EOF2

leak="rank.cpp:7:3: warning: 'd' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'per_rank' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]"
for impl in openmpi mpich; do
  PATH="$WORK/$impl/bin:$PATH" run -p "$WORK/src" "$WORK/src/rank.cpp"
  expect_rc 1 "$impl wrapper: the leak, and no parse error"
  expect_out "$leak" "$impl wrapper: the leak is reported"
  ! grep -qE "parse error|mpi.h' file not found" "$WORK/err" ||
    fail "$impl wrapper: mpi.h not found through the wrapper: $(head -c 400 "$WORK/err")"
done

# No wrapper on PATH: mpi.h stays missing, said as a parse error (exit 3), nothing is run from
# the database's path.
mkdir -p "$WORK/none"
PATH="$WORK/none" run -p "$WORK/src" "$WORK/src/rank.cpp"
expect_rc 3 "no wrapper on PATH: a parse error"
expect_err "'mpi.h' file not found" "no wrapper on PATH: the missing header is named"
finish
