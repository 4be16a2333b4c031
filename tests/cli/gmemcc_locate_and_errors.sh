# Where gmemcc finds the runtime (overrides, an installed tree, the build tree) and what it says
# when something is missing: gmemcc's own errors exit 2 and name the path looked for; a compiler
# that cannot be run exits 127 (not found) or 126, as a shell would.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
FNVCC=$WORK/bin/nvcc
fake_compiler "$FNVCC"
mapfile -t NV_PRE < <(compile_prefix "$FNVCC") # cuda.h, the forced header, <gmemlint/...>
mkdir -p "$WORK/empty"
BUILD=$(dirname "$GMEMLINT")

# a missing runtime library fails a link, with the path it looked for...
GMEMCC_RUNTIME_DIR=$WORK/empty gmemcc_run "$FNVCC" main.o -o app
expect_rc 2 "link without the runtime library"
expect_err "^gmemcc: error: runtime library not found: $WORK/empty/libgmemrt.a \(from GMEMCC_RUNTIME_DIR\)$" \
  "missing runtime library message"
[ ! -f "$WORK/argv" ] || fail "the compiler ran without the runtime library"
# ...but not a compile, which does not need it
GMEMCC_RUNTIME_DIR=$WORK/empty gmemcc_run "$FNVCC" -c main.cu
expect_rc 0 "compile without the runtime library"
expect_argv "compile without the runtime library" "${NV_PRE[@]}" -c main.cu
GMEMCC_RUNTIME_DIR=$WORK/empty gmemcc_run "$FNVCC" --gmem-link-flags
expect_rc 2 "--gmem-link-flags without the runtime library"

# a missing header fails a compile from source, not a link
GMEMCC_INCLUDE_DIR=$WORK/empty gmemcc_run "$FNVCC" -c main.cu
expect_rc 2 "compile without the header"
expect_err "^gmemcc: error: forced-include header not found: $WORK/empty/gmem_forced.h \(from GMEMCC_INCLUDE_DIR\)$" \
  "missing header message"
GMEMCC_INCLUDE_DIR=$WORK/empty gmemcc_run "$FNVCC" main.o -o app
expect_rc 0 "link without the header"

# overrides that exist are used
mkdir -p "$WORK/rt" "$WORK/inc"
cp "$RTLIB" "$WORK/rt/"
cp "$ROOT"/include/gmemlint/*.h "$WORK/inc/"
GMEMCC_RUNTIME_DIR=$WORK/rt GMEMCC_INCLUDE_DIR=$WORK/inc gmemcc_run "$FNVCC" main.cu -o app
expect_rc 0 "overrides"
[ "$(sed -n 4p "$WORK/argv")" = "$WORK/inc/gmem_forced.h" ] || fail "GMEMCC_INCLUDE_DIR not used: $(head -3 "$WORK/argv")"
[ "$(sed -n 8p "$WORK/argv")" = "$WORK/rt/libgmemrt.a" ] || fail "GMEMCC_RUNTIME_DIR not used: $(cat "$WORK/argv")"

# the compiler cannot be run
gmemcc_run no-such-compiler-xyz -c main.cu
expect_rc 127 "unknown compiler"
expect_err "^gmemcc: error: cannot run 'no-such-compiler-xyz': No such file or directory$" "unknown compiler message"
gmemcc_run "$WORK/bin/missing/nvcc" -c main.cu
expect_rc 127 "missing compiler path"
printf 'not a program\n' >"$WORK/bin/notexec"
gmemcc_run "$WORK/bin/notexec" -c main.cu
expect_rc 126 "compiler not executable"
expect_err "^gmemcc: error: cannot run '$WORK/bin/notexec': Permission denied$" "not executable message"
GMEMCC_CC=$WORK/bin/absent gmemcc_run -c main.cu
expect_rc 127 "GMEMCC_CC names no program"

# an installed tree (cmake --install): gmemcc prefers <prefix>/lib and <prefix>/include over the
# build tree, and finds the gmemlint installed next to it
rc=0
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 0 "cmake --install"
P=$WORK/prefix
for f in bin/gmemcc bin/gmemlint lib/libgmemrt.a include/gmemlint/gmem_forced.h include/gmemlint/gmemrt.h; do
  [ -e "$P/$f" ] || fail "cmake --install did not install $f"
done
if [ -x "$P/bin/gmemcc" ]; then
  GMEMCC_VERBOSE=1 "$P/bin/gmemcc" "$FNVCC" -c main.cu >"$WORK/out" 2>"$WORK/err" || true
  expect_argv "installed: compile" -include "${NV_PRE[1]}" -include "$P/include/gmemlint/gmem_forced.h" \
    -isystem "$P/include" -c main.cu
  "$P/bin/gmemcc" "$FNVCC" main.o -o app >"$WORK/out" 2>"$WORK/err" || true
  [ "$(sed -n 4p "$WORK/argv")" = "$P/lib/libgmemrt.a" ] || fail "installed: link uses $(sed -n 4p "$WORK/argv")"
  (cd "$WORK" && write_leak leak.cu && "$P/bin/gmemcc" "$FNVCC" --gmem-lint -c leak.cu >out 2>err) ||
    fail "installed: --gmem-lint compile failed"
  grep -q '"GM001"' "$WORK/leak.o.gmemlint.json" 2>/dev/null || fail "installed: gmemlint next to gmemcc not run"
  # an installed header without the library (a source tree around a build directory) is not an
  # installed tree: the build tree's runtime is used
  mv "$P/lib/libgmemrt.a" "$P/lib/libgmemrt.a.away"
  "$P/bin/gmemcc" "$FNVCC" main.o -o app >"$WORK/out" 2>"$WORK/err" || true
  [ "$(sed -n 4p "$WORK/argv")" = "$RTLIB" ] || fail "no installed library: link uses $(sed -n 4p "$WORK/argv")"
  # an installed library without its header: the error names the installed header
  mv "$P/lib/libgmemrt.a.away" "$P/lib/libgmemrt.a"
  rm "$P/include/gmemlint/gmem_forced.h"
  rc=0
  "$P/bin/gmemcc" "$FNVCC" -c main.cu >"$WORK/out" 2>"$WORK/err" || rc=$?
  expect_rc 2 "installed tree without its header"
  expect_err "forced-include header not found: $P/include/gmemlint/gmem_forced.h \(from the installed tree\)" \
    "installed header message"
fi
finish
