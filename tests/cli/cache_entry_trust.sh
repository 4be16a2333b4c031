# The result cache trusts no entry's place: an entry names the key it was stored under, so one
# copied under another file's key is a miss; only regular files of a bounded size are read, so
# a FIFO or a symlink to /dev/zero in an entry's place is a quick miss (never a hang), and the
# store that follows puts a real entry there.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
write_leak leak.cu
write_clean clean.cu
C="--cache-dir=$WORK/cache --cache-stats --no-pch-store" # the result cache alone
stats() { grep -E '^gmemlint: cache:' "$WORK/err"; }
expect_stats() { stats | grep -qE -- "$1" || fail "$2: cache stats '$(stats)', expected /$1/"; }
# every run here is bounded: a read that blocks or never ends shows as exit 124
run_bounded() {
  rc=0
  timeout 20 "$GMEMLINT" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}
entries() { find cache -type f -o -type p -o -type l | sort; }

run $C leak.cu
expect_rc 1 "leak.cu has its GM001"
leak_entry=$(entries)
[ "$(echo "$leak_entry" | wc -l)" -eq 1 ] || fail "one entry after leak.cu: $leak_entry"
run $C clean.cu
expect_rc 0 "clean.cu is clean"
clean_entry=$(entries | grep -vxF "$leak_entry")
[ -n "$clean_entry" ] || fail "clean.cu stored its own entry: $(entries)"
"$GMEMLINT" --no-cache clean.cu >clean.expected 2>/dev/null

# a valid entry copied under another file's key: a miss, and clean.cu's own (empty) result
cp "$leak_entry" "$clean_entry"
run_bounded $C clean.cu
expect_rc 0 "an entry copied from leak.cu does not make clean.cu fail"
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "an entry under a key it was not stored under"
expect_no_out "GM001" "leak.cu's finding is not reported for clean.cu"
cmp -s clean.expected out || fail "copied entry: output differs: $(diff clean.expected out)"
run_bounded $C clean.cu
expect_stats '1 hit\(s\), 0 miss\(es\), 0 stored' "the copied entry was replaced by clean.cu's own"

# a FIFO in the entry's place: no hang (nobody ever writes to it), a miss, then replaced
rm "$clean_entry"
mkfifo "$clean_entry"
run_bounded $C clean.cu
[ "$rc" -ne 124 ] || fail "a FIFO entry hangs the run"
expect_rc 0 "FIFO entry"
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "a FIFO entry is a miss"
cmp -s clean.expected out || fail "FIFO entry: output differs: $(diff clean.expected out)"
[ -f "$clean_entry" ] && [ ! -p "$clean_entry" ] || fail "the FIFO was replaced by an entry"
run_bounded $C clean.cu
expect_stats '1 hit\(s\)' "after the FIFO was replaced"

# a symlink to /dev/zero (endless) and to a valid entry of another key: both misses, quickly
for target in /dev/zero "$WORK/$leak_entry"; do
  rm "$clean_entry"
  ln -s "$target" "$clean_entry"
  run_bounded $C clean.cu
  [ "$rc" -ne 124 ] || fail "a symlink entry to $target is read without end"
  expect_rc 0 "symlink entry to $target"
  expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "a symlink entry to $target is a miss"
  cmp -s clean.expected out || fail "symlink to $target: output differs: $(diff clean.expected out)"
  [ -f "$clean_entry" ] && [ ! -L "$clean_entry" ] || fail "the symlink to $target was replaced"
done
[ -f "$leak_entry" ] && [ ! -L "$leak_entry" ] || fail "the symlink's target was left alone"
run $C leak.cu
expect_stats '1 hit\(s\)' "leak.cu's own entry still serves it"
expect_out "leak.cu:4:7: warning: .*GM001" "leak.cu's finding from its entry"

# an entry far larger than any gmemlint writes (sparse: no disk used) is not read: the run's
# peak memory stays that of a plain miss, not 300 MiB above it
peak() { sed -nE 's/^ *peak memory \(max RSS\) +([0-9]+)\.[0-9] MiB$/\1/p' "$WORK/err"; }
rm "$clean_entry"
run_bounded $C --time-report clean.cu
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "a missing entry is a miss"
miss_peak=$(peak)
rm "$clean_entry"
truncate -s 300M "$clean_entry"
run_bounded $C --time-report clean.cu
expect_rc 0 "oversized entry"
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "an oversized entry is a miss"
[ -n "$miss_peak" ] && [ -n "$(peak)" ] && [ "$(peak)" -lt $((miss_peak + 150)) ] ||
  fail "an oversized entry is not read: peak $(peak) MiB, a plain miss $miss_peak MiB"
[ "$(stat -c %s "$clean_entry")" -lt 1000000 ] || fail "the oversized entry was replaced"

finish
