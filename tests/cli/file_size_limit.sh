# Under a file size limit (ulimit -f) the run goes on: SIGXFSZ is ignored, so a result cache entry
# past the limit fails to write with a warning (as on a full disk) instead of killing gmemlint
# with status 153, and shared preambles (which libclang aborts on when a write fails) are not
# built, with a warning. The findings and the exit status are those of an unlimited run.
source "$(dirname "$0")/testlib.bash" "$@"
cd "$WORK"
write_leak a.cu
write_leak b.cu
write_leak c.cu
PREAMBLE_WARNING='gmemlint: warning: a file size limit is set (ulimit -f); files are parsed without shared preambles, which libclang cannot write past it'
CACHE_WARNING="gmemlint: warning: cannot write the result cache in $WORK/cache/gmemlint: File too large (--no-cache turns it off)"

run --no-cache --pch=never --only=GM001 a.cu b.cu c.cu
expect_rc 1 "unlimited run"
cp out expected
[ "$(count_out 'is not freed on an error path')" -eq 3 ] || fail "one leak a file: $(cat out)"

# 100 KiB: the cache entries fit, the preambles would not
rc=0
(ulimit -f 100 && exec "$GMEMLINT" --pch=always --only=GM001 a.cu b.cu c.cu >out 2>err) || rc=$?
expect_rc 1 "100 KiB limit"
cmp -s out expected || fail "100 KiB limit: the findings differ: $(diff out expected | head -5)"
[ "$(cat err)" = "$PREAMBLE_WARNING" ] || fail "100 KiB limit: stderr: $(head -c 600 err)"

# 8 KiB: no cache entry fits either; each failed write is warned about once
rm -rf "$WORK/cache"
rc=0
(ulimit -f 8 && exec "$GMEMLINT" --pch=always --only=GM001 a.cu b.cu c.cu >out 2>err) || rc=$?
expect_rc 1 "8 KiB limit"
cmp -s out expected || fail "8 KiB limit: the findings differ: $(diff out expected | head -5)"
printf '%s\n%s\n' "$PREAMBLE_WARNING" "$CACHE_WARNING" >expected_err
cmp -s err expected_err || fail "8 KiB limit: stderr: $(head -c 600 err)"
[ -z "$(find "$WORK/cache" -type f 2>/dev/null)" ] || fail "no partial cache entry left: $(find "$WORK/cache" -type f)"

# no preamble to share (one file, --pch=auto): no preamble warning
rm -rf "$WORK/cache"
rc=0
(ulimit -f 100 && exec "$GMEMLINT" --only=GM001 a.cu >out 2>err) || rc=$?
expect_rc 1 "one file under the limit"
[ ! -s err ] || fail "one file under the limit: stderr: $(head -c 600 err)"
finish
