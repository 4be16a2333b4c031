# -p build/: each entry's flags read in every spelling nvcc accepts (long options with = or a
# separate value, short forms), -Xcompiler lists, -x cu / -x cuda / -x c++, and the values of
# flags such as -ccbin, -o, -Xptxas skipped, never read as flags. Each case's file parses only
# when its flags are read (and no other), so each fails alone if its reading is undone.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src build d_inc d_inc_eq d_sys d_sys_eq d_short d_host d_hostsys d_path
for d in d_inc d_inc_eq d_sys d_sys_eq d_short d_host d_hostsys d_path; do
  printf '#pragma once\n#define HEADER_%s 1\n' "$d" >"$d/$d.h"
done
printf '#pragma once\n#define PRE_INCLUDED 1\n' >build/pre.h
printf '#pragma once\n#define FOUND_ON_PATH 1\n' >d_path/on_path.h

entries=()
# case NAME EXT 'FLAGS' 'GUARD': src/NAME.EXT holds GUARD (lines that fail to parse without
# FLAGS) and a GM001 leak at line 3; its entry is an nvcc command with FLAGS.
case_() {
  local name=$1 ext=$2 flags=$3 guard=$4
  {
    echo '#include <cuda_runtime.h>'
    echo 'int setup(int fail) {'
    echo '  float *a = nullptr; cudaMalloc(&a, 64);'
    echo '  if (fail) return -1;'
    echo '  cudaFree(a); return 0;'
    echo '}'
    printf '%s\n' "$guard"
  } >"src/$name.$ext"
  entries+=("{\"directory\": \"$WORK/build\", \"file\": \"$WORK/src/$name.$ext\", \"command\": \"/usr/local/cuda/bin/nvcc $flags -c $WORK/src/$name.$ext -o $name.o\"}")
}
needs_header() { printf '#include "%s.h"\n#ifndef HEADER_%s\n#error no %s\n#endif' "$1" "$1" "$1"; }
needs_macro() { printf '#if !defined(%s) || %s != %s\n#error "%s=%s"\n#endif' "$1" "$1" "$2" "$1" "$2"; }
not_defined() { printf '#ifdef %s\n#error "%s"\n#endif' "$1" "${2:-$1 read as a flag}"; }
cxx20='#if __cplusplus < 202002L
#error "C++20 expected"
#endif
template <class T> concept Small = sizeof(T) < 8;'

case_ include_path cu "--include-path ../d_inc" "$(needs_header d_inc)"
case_ include_path_eq cu "--include-path=$WORK/d_inc_eq" "$(needs_header d_inc_eq)"
case_ system_include cu "--system-include ../d_sys" "$(needs_header d_sys)"
case_ system_include_eq cu "--system-include=../d_sys_eq" "$(needs_header d_sys_eq)"
case_ isystem_eq cu "-isystem=../d_sys" "$(needs_header d_sys)"
case_ short_forms cu "-I ../d_short -D SHORT=3 -isystem ../d_sys -include pre.h" \
  "$(needs_header d_short; echo; needs_header d_sys; echo; needs_macro SHORT 3; echo; needs_macro PRE_INCLUDED 1)"
case_ define_macro cu "--define-macro LONG=4" "$(needs_macro LONG 4)"
case_ define_macro_eq cu "--define-macro=LONG_EQ=5" "$(needs_macro LONG_EQ 5)"
case_ undefine_macro cu "-DGONE=1 --undefine-macro GONE -DGONE_EQ --undefine-macro=GONE_EQ" \
  "$(not_defined GONE; echo; not_defined GONE_EQ)"
case_ pre_include cu "--pre-include pre.h" "$(needs_macro PRE_INCLUDED 1)"
case_ pre_include_eq cu "--pre-include=$WORK/build/pre.h" "$(needs_macro PRE_INCLUDED 1)"
case_ pre_include_on_path cu "-I../d_path --pre-include on_path.h" "$(needs_macro FOUND_ON_PATH 1)"
case_ std cu "--std c++20" "$cxx20"
case_ std_eq cu "--std=c++20" "$cxx20"
case_ std_short cu "-std c++20" "$cxx20"
case_ xcompiler cu "-Xcompiler -DHOST_A=6,-I../d_host -Xcompiler=-isystem,../d_hostsys" \
  "$(needs_macro HOST_A 6; echo; needs_header d_host; echo; needs_header d_hostsys)"
case_ compiler_options cu "--compiler-options '-DHOST_B=7 -std=c++20' --compiler-options=-UNOT_HERE" \
  "$(needs_macro HOST_B 7; echo; echo "$cxx20")"
case_ skipped_values cu "-ccbin -DCCBIN_VALUE --compiler-bindir -DBINDIR_VALUE -o -DOUT_VALUE -Xptxas -DPTXAS_VALUE -Xlinker -DLINKER_VALUE --default-stream -DSTREAM_VALUE -rdc -DRDC_VALUE -gencode -DGENCODE_VALUE --generate-code -DGENERATE_VALUE -MF -DMF_VALUE -arch -DARCH_VALUE" \
  "$(for v in CCBIN BINDIR OUT PTXAS LINKER STREAM RDC GENCODE GENERATE MF ARCH; do not_defined "${v}_VALUE"; echo; done)"
# a compiler's own builtin headers named in an entry (GCC's, by CMAKE_CUDA_STANDARD_INCLUDE_DIRECTORIES):
# dropped, as clangd does; GCC's <stddef.h> there would replace clang's
gcc_dir="$WORK/gcc/lib/gcc/x86_64-linux-gnu/12/include"
mkdir -p "$gcc_dir" "$WORK/gcc/lib/gcc/x86_64-linux-gnu/12/include-fixed"
printf '#error "GCC'"'"'s own stddef.h"\n' >"$gcc_dir/stddef.h"
cp "$gcc_dir/stddef.h" "$WORK/gcc/lib/gcc/x86_64-linux-gnu/12/include-fixed/limits.h"
case_ gcc_builtin_dir cu "-isystem=$gcc_dir -isystem $WORK/gcc/lib/gcc/x86_64-linux-gnu/12/include-fixed/ -I$gcc_dir" \
  "#include <stddef.h>
#include <limits.h>"
# the language: nvcc's -x cu and clang's -x cuda make a .cpp CUDA; -x c++ makes a .cu C++
cuda_only='__global__ void kernel(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
void launch(float *x) { kernel<<<1, 32>>>(x); }'
case_ x_cu cpp "-x cu" "$cuda_only"
case_ x_cuda cpp "-x cuda" "$cuda_only"
case_ x_cu_eq cpp "--x=cu" "$cuda_only"
case_ x_cu_other_extension kern "-x cu" "$cuda_only"
case_ x_cxx cu "-x c++" "$(not_defined __CUDA__ 'parsed as CUDA')"

{
  echo '['
  for ((i = 0; i < ${#entries[@]}; i++)); do
    [ "$i" -eq 0 ] || echo ','
    echo "${entries[$i]}"
  done
  echo ']'
} >build/compile_commands.json

for f in src/*; do
  run -p build "$f"
  expect_rc 1 "$f"
  [ ! -s "$WORK/err" ] || fail "$f: parse errors: $(head -c 600 "$WORK/err")"
  expect_out "^$f:3:23: warning: 'a' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'setup' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" \
    "$f: the leak found"
done
finish
