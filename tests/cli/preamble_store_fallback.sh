# A stored preamble clang cannot use though its manifest vouches for it (damage the store's
# checks cannot see; here a truncated PCH whose manifest was written again to match): the file
# is parsed with the preamble below it, or none, with the same output as without the store; the
# entry is dropped and built again by the next run, and a damaged base fails no file either.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir sys
printf '#pragma once\n#define SYS_RELEASE(p) cudaFree(p)\n' >sys/release.h
write_leak leak.cu
sed -i '1a #include <release.h>' leak.cu
cp leak.cu other.cu # the same run of includes: both share its chained preamble
STORE="$XDG_CACHE_HOME/gmemlint/preambles"
stats() { grep -E '^gmemlint: cache: preambles:' "$WORK/err"; }
expect_stats() { stats | grep -qE -- "$1" || fail "$2: store stats '$(stats)', expected /$1/"; }
same_out() { cmp -s "$1" "$WORK/out" || fail "$2: output differs: $(diff "$1" "$WORK/out" | head)"; }
parsed() {
  ! grep -qE 'could not parse|not analysed|fatal' "$WORK/err" || fail "$1: parsed: $(cat "$WORK/err")"
}
# damage ENTRY.dep: its PCH cut to 1000 bytes, and the manifest's size, hash and sum made to
# match (pch_store.c's hashes), as no real damage could
damage() {
  local dep=$1 pch
  pch="$STORE/$(awk '$1 == "pch" {print $2}' "$dep")"
  truncate -s 1000 "$pch"
  "$PY" - "$dep" "$pch" <<'PY'
import sys
M = (1 << 64) - 1
def mix(h):
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & M
    return h ^ (h >> 33)
def hash_bytes(h, data):
    h0, h1 = h
    full = len(data) - len(data) % 8
    for i in range(0, full, 8):
        w = int.from_bytes(data[i:i + 8], 'little')
        h0 = ((h0 ^ w) * 0x9e3779b97f4a7c15) & M
        h0 ^= h0 >> 29
        h1 = ((h1 + w) * 0xc2b2ae3d27d4eb4f) & M
        h1 = ((h1 << 31) | (h1 >> 33)) & M
    tail = int.from_bytes(data[full:], 'little')
    h0 = mix(h0 ^ tail ^ (len(data) - full))
    return [h0, mix((h1 + tail + h0) & M)]
dep, pch = sys.argv[1], sys.argv[2]
data = open(pch, 'rb').read()
h = [0x736f6d6570736575, 0x646f72616e646f6d]
for i in range(0, len(data) + 1, 1 << 20):  # 1 MiB chunks, and a last short one
    h = hash_bytes(h, data[i:i + (1 << 20)])
lines = []
for line in open(dep).read().splitlines():
    if line.startswith('pch '):
        line = 'pch %s %d %016x%016x' % (line.split()[1], len(data), h[0], h[1])
    if not line.startswith('sum '):
        lines.append(line)
text = '\n'.join(lines) + '\n'
s = hash_bytes([0, 0], text.encode())
open(dep, 'w').write(text + 'sum %016x%016x\n' % (s[0], s[1]))
PY
}
chained_dep() { grep -L '^below -$' "$STORE"/*.dep; }
base_dep() { grep -l '^below -$' "$STORE"/*.dep; }

for fmt in text json; do
  rm -rf "$XDG_CACHE_HOME"
  F=(--no-cache --no-progress --cache-stats -j 2 --format=$fmt leak.cu other.cu -- -isystem sys)
  run --pch=never "${F[@]}"
  expect_rc 1 "$fmt, --pch=never: the leak"
  cp out never.$fmt
  run "${F[@]}"
  same_out never.$fmt "$fmt, cold store"
  expect_stats ' 0 reused, 2 stored' "$fmt, cold store: base and chained stored"
  [ "$(base_dep | wc -l)" -eq 1 ] && [ "$(chained_dep | wc -l)" -eq 1 ] || fail "$fmt: two entries: $(ls "$STORE")"
  # a damaged chained preamble: both files parse on the base, the entry is dropped once
  damage "$(chained_dep)"
  run "${F[@]}"
  expect_rc 1 "$fmt, damaged chained preamble"
  same_out never.$fmt "$fmt, damaged chained preamble"
  parsed "$fmt, damaged chained preamble"
  expect_stats ' 2 reused, 0 stored, 0 evicted, 1 dropped ' "$fmt, damaged chained preamble: dropped"
  [ -z "$(chained_dep)" ] || fail "$fmt, damaged chained preamble: its manifest gone"
  run "${F[@]}"
  same_out never.$fmt "$fmt, after the drop"
  expect_stats ' 1 reused, 1 stored, 0 evicted \(' "$fmt, after the drop: the chained one built again"
  # a damaged base: the chained build on it fails, both files parse with no preamble
  damage "$(base_dep)"
  run "${F[@]}"
  expect_rc 1 "$fmt, damaged base"
  same_out never.$fmt "$fmt, damaged base"
  parsed "$fmt, damaged base"
  expect_stats ' 1 reused, 0 stored, 0 evicted, 1 dropped ' "$fmt, damaged base: dropped"
  [ -z "$(base_dep)" ] || fail "$fmt, damaged base: its manifest gone"
  run "${F[@]}"
  same_out never.$fmt "$fmt, after the base's drop"
  expect_stats ' 0 reused, 2 stored, 0 evicted \(' "$fmt, after the base's drop: both built again"
  run "${F[@]}"
  expect_stats ' 2 reused, 0 stored, 0 evicted \(' "$fmt, repaired: both reused"
done

# a PCH cut short under its own manifest is a miss before clang sees it: built again
run --no-cache --no-progress --cache-stats -j 1 leak.cu -- -isystem sys
cp out one.out
pch="$STORE/$(awk '$1 == "pch" {print $2}' "$(base_dep)")"
truncate -s 1000 "$pch"
run --no-cache --no-progress --cache-stats -j 1 leak.cu -- -isystem sys
same_out one.out "truncated base under its manifest"
parsed "truncated base under its manifest"
expect_stats ' 0 reused, 2 stored, 0 evicted \(' "truncated base under its manifest: both built again"
finish
