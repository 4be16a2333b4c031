# -p build/: response files in compile_commands.json entries, read as the compiler reads them:
# nvcc's --options-file / -optf and @file, relative to the entry's directory, nested, quoted
# (GCC's rules: quotes, backslash escapes); a missing one is a warning naming both files.
# (libclang expands an @file that exists by itself; the gcc.cpp case guards that it stays so.)
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src "inc dir" "inc 2" "quoted inc" build/CMakeFiles/t.dir
cat >"inc dir/first.h" <<'SRC'
#pragma once
#define FIRST_BYTES 64
SRC
cat >"inc 2/second.h" <<'SRC'
#pragma once
#define SECOND_BYTES 128
SRC
cat >"quoted inc/third.h" <<'SRC'
#pragma once
#define THIRD_BYTES 256
SRC
# each parses only with every flag its response files hold
leak_needing() { # FILE HEADER... : a GM001 leak at line 8 (after the includes and the guard)
  {
    echo '#include <cuda_runtime.h>'
    for h in "$2" "$3"; do echo "#include \"$h\""; done
    echo '#if !defined(FROM_RSP) || FROM_RSP != 7'
    echo '#error "FROM_RSP=7 comes from a response file"'
    echo '#endif'
    echo 'int setup(int fail) {'
    echo '  float *a = nullptr; cudaMalloc(&a, FROM_RSP);'
    echo '  if (fail) return -1;'
    echo '  cudaFree(a); return 0;'
    echo '}'
  } >"$1"
}
leak_needing src/nv.cu first.h second.h
leak_needing src/gcc.cpp third.h second.h
leak_needing src/optf.cu first.h second.h
# their entries hold what they need; the response file they name is missing
leak_needing src/missing.cu second.h second.h
leak_needing src/missing_at.cpp second.h second.h

# nvcc options file as CMake writes it (-I"dir", -isystem=dir), naming another by -optf
escaped_work=$(printf '%s' "$WORK" | sed 's/[ \\]/\\&/g')
printf -- '-I"%s/inc dir" -isystem=%s/inc\\ 2\n-optf CMakeFiles/t.dir/defs.rsp\n' "$WORK" "$escaped_work" \
  >build/CMakeFiles/t.dir/includes_CUDA.rsp
printf -- "--define-macro 'FROM_RSP=7'\n" >build/CMakeFiles/t.dir/defs.rsp
# clang/GCC style: single quotes, a backslash-escaped space, nested @file relative to build/
printf -- "'-I%s/quoted inc' @CMakeFiles/t.dir/more.rsp\n" "$WORK" >build/CMakeFiles/t.dir/includes_CXX.rsp
printf -- '-I%s/inc\\ 2 "-DFROM_RSP=7"\n' "$escaped_work" >build/CMakeFiles/t.dir/more.rsp
printf -- '--options-file=CMakeFiles/t.dir/includes_CUDA.rsp\n' >build/CMakeFiles/t.dir/outer.rsp
cat >build/compile_commands.json <<JSON
[
  {"directory": "$WORK/build",
   "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler --options-file CMakeFiles/t.dir/includes_CUDA.rsp --generate-code=arch=compute_90,code=[compute_90,sm_90] -x cu -c $WORK/src/nv.cu -o nv.o",
   "file": "$WORK/src/nv.cu"},
  {"directory": "$WORK/build",
   "arguments": ["/usr/bin/c++", "@CMakeFiles/t.dir/includes_CXX.rsp", "-o", "gcc.o", "-c", "$WORK/src/gcc.cpp"],
   "file": "$WORK/src/gcc.cpp"},
  {"directory": "$WORK/build",
   "command": "/usr/local/cuda/bin/nvcc -optf CMakeFiles/t.dir/outer.rsp -c $WORK/src/optf.cu -o optf.o",
   "file": "$WORK/src/optf.cu"},
  {"directory": "$WORK/build",
   "command": "/usr/local/cuda/bin/nvcc --options-file CMakeFiles/t.dir/gone.rsp -DFROM_RSP=7 \"-I$WORK/inc 2\" -c $WORK/src/missing.cu",
   "file": "$WORK/src/missing.cu"},
  {"directory": "$WORK/build",
   "command": "/usr/bin/c++ @CMakeFiles/t.dir/gone_too.rsp -DFROM_RSP=7 \"-I$WORK/inc 2\" -c $WORK/src/missing_at.cpp",
   "file": "$WORK/src/missing_at.cpp"}
]
JSON

for f in nv.cu gcc.cpp optf.cu; do
  run -p build "src/$f"
  expect_rc 1 "$f: its response files' flags"
  [ ! -s "$WORK/err" ] || fail "$f: parse errors with the response files read: $(cat "$WORK/err")"
  expect_out "^src/$f:8:23: warning: 'a' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'setup' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" \
    "$f: the leak found"
done

run -p build src/missing.cu
expect_rc 1 "a missing options file: the rest of the entry is still read"
expect_err "^gmemlint: warning: src/missing.cu: cannot read response file $WORK/build/CMakeFiles/t.dir/gone.rsp, named by its entry in compile_commands.json: No such file or directory; parsing without the flags it holds$" \
  "the missing options file named"
expect_out "^src/missing.cu:8:23: warning: .*\[GM001 unpaired-allocation\]$" "the entry's own flags read"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "only the warning expected: $(cat "$WORK/err")"
run -p build src/missing_at.cpp
expect_err "^gmemlint: warning: src/missing_at.cpp: cannot read response file $WORK/build/CMakeFiles/t.dir/gone_too.rsp, named by its entry in compile_commands.json: No such file or directory; parsing without the flags it holds$" \
  "the missing @file named"
expect_out "^src/missing_at.cpp:8:23: warning: .*\[GM001 unpaired-allocation\]$" "its entry's own flags read"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "only the warning expected: $(cat "$WORK/err")"
finish
