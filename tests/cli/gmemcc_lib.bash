# Helpers for the gmemcc tests (sourced after testlib.bash): gmemcc sits next to gmemlint in the
# build tree; a fake compiler records the arguments it was run with, one per line.
GMEMCC=$(dirname "$GMEMLINT")/gmemcc
[ -x "$GMEMCC" ] || { echo "FAIL: no gmemcc next to $GMEMLINT" >&2; exit 1; }
HDR=$ROOT/include/gmemlint/gmem_forced.h
RTLIB=$(realpath -m "$(dirname "$GMEMLINT")/runtime/libgmemrt.a")
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
unset GMEMCC_CC GMEMCC_LINT GMEMCC_VERBOSE GMEMCC_RUNTIME_DIR GMEMCC_INCLUDE_DIR

# fake_compiler PATH: writes a compiler that logs its argv to $WORK/argv, prints to both streams
# and exits with $FAKE_RC (0 unless set).
fake_compiler() {
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<EOF
#!/bin/sh
: >"$WORK/argv"
for a in "\$@"; do printf '%s\n' "\$a" >>"$WORK/argv"; done
echo "compiler stdout"
echo "compiler stderr" >&2
exit \${FAKE_RC:-0}
EOF
  chmod +x "$1"
}

# gmemcc_run ARGS...: runs gmemcc, capturing stdout, stderr and the exit status like run().
gmemcc_run() {
  rc=0
  rm -f "$WORK/argv"
  "$GMEMCC" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}

# expect_argv WHAT ARGS...: the fake compiler was run with exactly ARGS (after argv[0]).
expect_argv() {
  local what=$1
  shift
  if [ ! -f "$WORK/argv" ]; then
    fail "$what: the compiler did not run (stderr: $(head -c 600 "$WORK/err"))"
    return
  fi
  printf '%s\n' "$@" >"$WORK/argv.expected"
  [ $# -gt 0 ] || : >"$WORK/argv.expected"
  diff -u "$WORK/argv.expected" "$WORK/argv" >"$WORK/argv.diff" ||
    fail "$what: compiler arguments differ:
$(cat "$WORK/argv.diff")"
}

# The arguments gmemcc adds to a link (libgmemrt.a first, then its dependencies).
link_flags() { "$GMEMCC" "$@" --gmem-link-flags; }

have_nvcc() { [ -x "$NVCC" ]; }

# compile_prefix COMPILER: the words gmemcc puts in front of a compile's own arguments (the
# toolkit's cuda.h, the forced header, the directory of <gmemlint/gmemrt.h>), one per line.
compile_prefix() {
  gmemcc_run "$1" -c probe.c
  head -n -2 "$WORK/argv"
}
