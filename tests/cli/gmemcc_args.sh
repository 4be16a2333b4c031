# gmemcc adds the forced header only where a source is compiled and the runtime only where a
# program or shared library is linked; everything else reaches the compiler exactly as given.
# A fake compiler records its arguments, so each step's command line is checked word for word.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
FNVCC=$WORK/bin/nvcc # named nvcc: gmemcc reads nvcc's options
FCC=$WORK/bin/fakecc # any other name: GCC/clang's options
fake_compiler "$FNVCC"
fake_compiler "$FCC"
read -r -a NV_LINK <<<"$(link_flags "$FNVCC")"
read -r -a CC_LINK <<<"$(link_flags "$FCC")"
[ "${NV_LINK[0]:-}" = "$RTLIB" ] || fail "--gmem-link-flags starts with $RTLIB: ${NV_LINK[*]}"
for dep in libjansson libunwind libdw; do
  [[ " ${NV_LINK[*]} " == *"/$dep."* ]] || fail "--gmem-link-flags names $dep: ${NV_LINK[*]}"
done

# a compile gets the toolkit's cuda.h by its path (a project's cuda.h on the -I path cannot
# stand in for it), then the forced header, then <gmemlint/gmemrt.h>'s directory searched last
mapfile -t NV_PRE < <(compile_prefix "$FNVCC")
CUDAINC=$(dirname "${NV_PRE[1]:-/}")
[ -f "$CUDAINC/cuda_runtime_api.h" ] || fail "-include names the toolkit's cuda.h: ${NV_PRE[*]}"
[ "${NV_PRE[*]}" = "-include $CUDAINC/cuda.h -include $HDR -isystem $ROOT/include" ] ||
  fail "nvcc compile prefix: ${NV_PRE[*]}"
mapfile -t CC_PRE < <(compile_prefix "$FCC")
[ "${CC_PRE[*]}" = "-include $CUDAINC/cuda.h -include $HDR -idirafter $CUDAINC -idirafter $ROOT/include" ] ||
  fail "cc compile prefix: ${CC_PRE[*]}"
# another compiler takes the toolkit that an -I names
mkdir -p "$WORK/cuda99/include"
touch "$WORK/cuda99/include/cuda.h" "$WORK/cuda99/include/cuda_runtime_api.h"
gmemcc_run "$FCC" -I"$WORK/cuda99/include" -c x.c
expect_argv "cc with a toolkit on -I" -include "$WORK/cuda99/include/cuda.h" -include "$HDR" \
  -idirafter "$WORK/cuda99/include" -idirafter "$ROOT/include" -I"$WORK/cuda99/include" -c x.c

# nvcc: compile, link, both in one step
gmemcc_run "$FNVCC" -O2 -c app.cu -o app.o
expect_rc 0 "nvcc -c"
expect_argv "nvcc -c" "${NV_PRE[@]}" -O2 -c app.cu -o app.o
gmemcc_run "$FNVCC" app.o util.o -o app -lm
expect_argv "nvcc link" app.o util.o -o app -lm "${NV_LINK[@]}"
gmemcc_run "$FNVCC" -cudart shared app.cu -o app
expect_argv "nvcc compile and link" "${NV_PRE[@]}" -cudart shared app.cu -o app "${NV_LINK[@]}"
gmemcc_run "$FNVCC" --shared -Xcompiler -fPIC app.cu -o libapp.so
expect_argv "nvcc shared library" "${NV_PRE[@]}" --shared -Xcompiler -fPIC app.cu -o libapp.so \
  "${NV_LINK[@]}"

# nvcc: steps that neither compile host code nor link a program pass through unchanged
for step in "-E app.cu" "-M app.cu" "-MM app.cu" "--preprocess app.cu" "-ptx app.cu" \
  "-cubin -arch sm_80 app.cu" "-fatbin app.cu" "--version" "-V" "--help" \
  "-dlink a.o b.o -o dlink.o" "-lib a.o b.o -o libab.a" "-clean app.cu"; do
  read -r -a words <<<"$step"
  gmemcc_run "$FNVCC" "${words[@]}"
  expect_argv "nvcc $step" "${words[@]}"
done
# compile-only steps, dependency files, and -lib from sources: the header, no runtime
for step in "-dc app.cu -o app.o" "--device-c app.cu" "-dw app.cu" "-MD -MF app.d -c app.cu" \
  "-MMD -x cu -c app.txt" "-lib a.cu b.cu -o libab.a"; do
  read -r -a words <<<"$step"
  gmemcc_run "$FNVCC" "${words[@]}"
  expect_argv "nvcc $step" "${NV_PRE[@]}" "${words[@]}"
done
# nvcc's --compile takes no value: --compile=app.cu is an unknown option, not a source
gmemcc_run "$FNVCC" --compile=app.cu
expect_argv "nvcc --compile=app.cu" --compile=app.cu

# option values are not inputs: -lineinfo is not -l, -odir's value is not a source
gmemcc_run "$FNVCC" -lineinfo -odir obj -Xcompiler -Wall -ccbin g++ main.o -o app
expect_argv "nvcc option values" -lineinfo -odir obj -Xcompiler -Wall -ccbin g++ main.o -o app \
  "${NV_LINK[@]}"
gmemcc_run "$FNVCC" -objtemp -c -o out.o app.cu
expect_argv "-objtemp is not -o" "${NV_PRE[@]}" -objtemp -c -o out.o app.cu

# quoting survives: spaces, quotes, an empty argument, shell metacharacters
gmemcc_run "$FNVCC" -c "my dir/a b.cu" -o "out dir/a b.o" -DMSG="it's \"x\"" "" '$(false);|*'
expect_argv "quoting" "${NV_PRE[@]}" -c "my dir/a b.cu" -o "out dir/a b.o" -DMSG="it's \"x\"" "" \
  '$(false);|*'

# GCC/clang: -x cuda, -S, -fsyntax-only compile; -E, -M, -r do not link; CUDA headers last
gmemcc_run "$FCC" -x cuda --cuda-gpu-arch=sm_80 -c app.cu -o app.o
expect_argv "clang -x cuda -c" "${CC_PRE[@]}" -x cuda \
  --cuda-gpu-arch=sm_80 -c app.cu -o app.o
for step in "-E app.cu" "-M app.c" "-MM app.c" "--version" "-dumpversion" "-r a.o b.o -o ab.o" \
  "-x c++-header app.h" "--cuda-device-only -S app.cu"; do
  read -r -a words <<<"$step"
  gmemcc_run "$FCC" "${words[@]}"
  expect_argv "cc $step" "${words[@]}"
done
gmemcc_run "$FCC" -S app.c
expect_argv "cc -S" "${CC_PRE[@]}" -S app.c
gmemcc_run "$FCC" -x c -c - -o stdin.o
expect_argv "cc stdin source" "${CC_PRE[@]}" -x c -c - -o stdin.o
# a link: the user's cudart is named again after libgmemrt.a, which calls into it
gmemcc_run "$FCC" main.o -o app -L/usr/local/cuda/lib64 -lcudart_static -ldl
expect_argv "cc link" main.o -o app -L/usr/local/cuda/lib64 -lcudart_static -ldl "$RTLIB" \
  -lcudart_static "${CC_LINK[@]:1}"
gmemcc_run "$FCC" -shared -o libx.so x.o
expect_argv "cc -shared" -shared -o libx.so x.o "${CC_LINK[@]}"
# objects in a response file (as CMake writes them) still make it a link
printf 'main.o "my lib.a"\n' >"$WORK/objects.rsp"
gmemcc_run "$FCC" "@$WORK/objects.rsp" -o app
expect_argv "cc @objects" "@$WORK/objects.rsp" -o app "${CC_LINK[@]}"
printf -- '-Iinclude -DX=1\n' >"$WORK/flags.rsp"
gmemcc_run "$FCC" "@$WORK/flags.rsp" -v
expect_argv "cc @flags -v (no input)" "@$WORK/flags.rsp" -v
printf -- '-c\n' >"$WORK/c.rsp"
gmemcc_run "$FNVCC" --options-file "$WORK/c.rsp" app.cu
expect_argv "nvcc --options-file -c" "${NV_PRE[@]}" --options-file "$WORK/c.rsp" app.cu

# the compiler's output and exit status are its own
FAKE_RC=3 gmemcc_run "$FNVCC" -c app.cu
expect_rc 3 "the compiler's exit status"
expect_out "^compiler stdout$" "the compiler's stdout"
expect_err "^compiler stderr$" "the compiler's stderr"
[ "$(wc -l <"$WORK/out")" -eq 1 ] || fail "gmemcc wrote to stdout: $(cat "$WORK/out")"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "gmemcc wrote to stderr: $(cat "$WORK/err")"

# which compiler: named by path, by name on PATH, $GMEMCC_CC, else nvcc from PATH
PATH="$WORK/bin:$PATH" gmemcc_run fakecc -c x.c
expect_argv "compiler named on PATH" "${CC_PRE[@]}" -c x.c
PATH="$WORK/bin:$PATH" gmemcc_run -c x.cu
expect_argv "nvcc from PATH by default" "${NV_PRE[@]}" -c x.cu
PATH="$WORK/bin:$PATH" gmemcc_run x.o -o x
expect_argv "first argument an object: default compiler" x.o -o x "${NV_LINK[@]}"
GMEMCC_CC=$FCC gmemcc_run -c x.cu
expect_argv "GMEMCC_CC" "${CC_PRE[@]}" -c x.cu

# GMEMCC_VERBOSE prints the command, quoted for a shell
GMEMCC_VERBOSE=1 gmemcc_run "$FNVCC" -c "a b.cu"
expect_err "^gmemcc: $FNVCC ${NV_PRE[*]} -c 'a b.cu'$" "GMEMCC_VERBOSE"

# gmemcc's own options never reach the compiler
gmemcc_run --gmem-help
expect_rc 0 "--gmem-help"
expect_out "^usage: gmemcc \[--gmem-options\] \[compiler\]" "--gmem-help usage line"
expect_out "GMEMCC_RUNTIME_DIR" "--gmem-help documents the environment"
[ ! -f "$WORK/argv" ] || fail "--gmem-help ran the compiler"
gmemcc_run --gmem-link-flags "$FNVCC" -lcudart
expect_rc 0 "--gmem-link-flags before the compiler"
expect_out "^$RTLIB " "--gmem-link-flags before the compiler"
[ ! -f "$WORK/argv" ] || fail "--gmem-link-flags ran the compiler"
gmemcc_run "$FNVCC" -c x.cu --gmem-bogus
expect_rc 2 "unknown --gmem- option"
expect_err "^gmemcc: error: unknown option '--gmem-bogus'" "unknown --gmem- option message"
finish
