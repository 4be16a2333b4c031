# gmemrun without a CUDA driver: exit 3 and "no CUDA driver" with the loader's reason, and the
# program is not run (nothing could attach to it). Three ways: the driver named by GMEMRUN_DRIVER
# missing, the toolkit's stub found as libcuda.so.1 (Docker images that put lib64/stubs on the
# library path), and, on a machine without the driver (CI), the default libcuda.so.1.
source "$(dirname "$0")/testlib.bash"
GMEMRUN="$(dirname "$GMEMLINT")/gmemrun"
MARK="$WORK/ran"

# runs gmemrun -- touch $MARK with the environment given before it (env VAR=value ...)
gmemrun_touch() {
  rc=0
  env "$@" "$GMEMRUN" -o "$WORK/gm-%p.json" -- touch "$MARK" >"$WORK/out" 2>"$WORK/err" || rc=$?
}
expect_not_run() {
  [ ! -e "$MARK" ] || fail "$1: the program ran"
  ! ls "$WORK"/gm-*.json >/dev/null 2>&1 || fail "$1: telemetry was written"
  [ ! -s "$WORK/out" ] || fail "$1: stdout: $(cat "$WORK/out")"
  rm -f "$MARK"
}
expect_stderr() { # the whole of stderr
  [ "$(cat "$WORK/err")" = "$1" ] || fail "$2: stderr is '$(cat "$WORK/err")', expected '$1'"
}

gmemrun_touch GMEMRUN_DRIVER=/nonexistent/libcuda.so.1
expect_rc 3 "missing driver"
expect_stderr "gmemrun: error: no CUDA driver (/nonexistent/libcuda.so.1 could not be loaded: \
/nonexistent/libcuda.so.1: cannot open shared object file: No such file or directory); touch was \
not run: the runtime attaches through the driver" "missing driver"
expect_not_run "missing driver"

CUDA=${CUDA_PATH:-/usr/local/cuda}
if [ -f "$CUDA/lib64/stubs/libcuda.so" ]; then
  mkdir "$WORK/stubs"
  cp "$CUDA/lib64/stubs/libcuda.so" "$WORK/stubs/libcuda.so.1"
  gmemrun_touch -u GMEMRUN_DRIVER LD_LIBRARY_PATH="$WORK/stubs"
  expect_rc 3 "stub driver"
  expect_stderr "gmemrun: error: no CUDA driver ($WORK/stubs/libcuda.so.1 is the CUDA toolkit's \
stub library, for linking only; the NVIDIA driver's libcuda.so.1 must come first on the library \
path); touch was not run: the runtime attaches through the driver" "stub driver"
  expect_not_run "stub driver"
else
  fail "no CUDA toolkit stub at $CUDA/lib64/stubs/libcuda.so (set CUDA_PATH)"
fi

# not a driver at all
gmemrun_touch GMEMRUN_DRIVER=libc.so.6
expect_rc 3 "not a driver"
expect_err "^gmemrun: error: no CUDA driver \(/[^ ]*libc\.so\.6 has no cuDriverGetVersion: it is \
not a CUDA driver\); touch was not run" "not a driver"
expect_not_run "not a driver"

# this machine's own state: the default name, when the driver is absent
if ! "$PY" -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  gmemrun_touch -u GMEMRUN_DRIVER
  expect_rc 3 "no driver installed"
  expect_stderr "gmemrun: error: no CUDA driver (libcuda.so.1 could not be loaded: libcuda.so.1: \
cannot open shared object file: No such file or directory); touch was not run: the runtime \
attaches through the driver" "no driver installed"
  expect_not_run "no driver installed"
fi
finish
