# Configuring without an accepted libclang stops with a message naming the package to install.
source "$(dirname "$0")/testlib.bash"
rc=0
cmake -S "$ROOT" -B "$WORK/build" -DGMEMLINT_LLVM_VERSIONS=99 >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" -ne 0 ] || fail "cmake succeeded without libclang 99"
expect_err "libclang 22 not found: install Debian's libclang-22-dev" "message names the package"
finish
