#!/usr/bin/env bash
# Writes a generated CUDA source of one extreme shape to stdout, to time the analyzer on code
# that tools emit rather than people write (issue 30: each shape once took minutes):
#   functions N   N small functions, each allocating and freeing its own buffer (GM010's callers)
#   allocations N one function with N allocations and their frees (the flow state's size)
#   loops N       N nested loops around one allocation
#   checked N     one function with N allocations, each tested with a return on failure, and
#                 their frees (each branch copies the state; each error path leaks those before)
#   pairs N       N correlated `if (x[i]) cudaMalloc` ... `if (x[i]) cudaFree` pairs in one
#                 function (the branch decisions the engine must keep or give up honestly)
# Usage: bench/generated_code.sh SHAPE N > gen.cu && time build/gmemlint gen.cu
# With --time SHAPE N [GMEMLINT]: writes the file to a temporary folder and prints the seconds.
set -euo pipefail

usage() {
  echo "usage: $0 [--time] functions|allocations|checked|loops|pairs N [GMEMLINT]" >&2
  exit 2
}

generate() {
  local shape=$1 n=$2
  echo '#include <cuda_runtime.h>'
  case $shape in
  functions)
    for ((i = 0; i < n; i++)); do
      printf 'void step%d(void) {\n  float *p;\n  cudaMalloc(&p, 4);\n  cudaFree(p);\n}\n' "$i"
    done
    ;;
  allocations)
    echo 'void many(void) {'
    for ((i = 0; i < n; i++)); do printf '  float *p%d;\n  cudaMalloc(&p%d, 4);\n' "$i" "$i"; done
    for ((i = 0; i < n; i++)); do printf '  cudaFree(p%d);\n' "$i"; done
    echo '}'
    ;;
  checked)
    echo 'int checked(void) {'
    for ((i = 0; i < n; i++)); do
      printf '  float *p%d;\n  if (cudaMalloc(&p%d, 4) != cudaSuccess)\n    return 1;\n' "$i" "$i"
    done
    for ((i = 0; i < n; i++)); do printf '  cudaFree(p%d);\n' "$i"; done
    echo '  return 0;'
    echo '}'
    ;;
  loops)
    echo 'void nested(int n) {'
    for ((i = 0; i < n; i++)); do printf 'for (int i%d = 0; i%d < n; i%d++)\n' "$i" "$i" "$i"; done
    echo '  { float *p; cudaMalloc(&p, 4); cudaFree(p); }'
    echo '}'
    ;;
  pairs)
    echo 'void pairs(const int *x) {'
    for ((i = 0; i < n; i++)); do printf '  float *p%d;\n  if (x[%d])\n    cudaMalloc(&p%d, 4);\n' "$i" "$i" "$i"; done
    for ((i = 0; i < n; i++)); do printf '  if (x[%d])\n    cudaFree(p%d);\n' "$i" "$i"; done
    echo '}'
    ;;
  *) usage ;;
  esac
}

if [[ ${1:-} == --time ]]; then
  shift
  [[ $# -ge 2 ]] || usage
  gmemlint=${3:-build/gmemlint}
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  generate "$1" "$2" >"$dir/$1_$2.cu"
  start=$(date +%s.%N)
  "$gmemlint" --no-cache -j1 "$dir/$1_$2.cu" >"$dir/out.txt" 2>&1 || true
  end=$(date +%s.%N)
  printf '%s %s: %.2f s, %s finding lines\n' "$1" "$2" "$(echo "$end - $start" | bc)" \
    "$(grep -c ': warning:' "$dir/out.txt" || true)"
  exit 0
fi
[[ $# -eq 2 ]] || usage
generate "$1" "$2"
