#!/usr/bin/env bash
# The result cache: cold (empty cache) against warm (every file a hit) on the same files, one
# file edited among them, --no-cache, and a single file (what a pre-commit hook lints).
# The files are copied to a scratch directory first, so that editing one leaves the tree alone.
# Usage: bench/cache.sh [build/gmemlint] [files...]   (default files: samples/*.cu)
set -euo pipefail
cd "$(dirname "$0")/.."
GMEMLINT=$(realpath "${1:-build/gmemlint}")
shift || true
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(samples/*.cu)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
for f in "${files[@]}"; do cp "$f" "$tmp/src/"; done
cd "$tmp/src"
mapfile -t names < <(ls)
now() { date +%s.%N; }
# t ARGS...: seconds for one run of gmemlint ARGS (findings are fine)
t() {
  local t0
  t0=$(now)
  "$GMEMLINT" "$@" >/dev/null 2>&1 || [ $? -eq 1 ]
  echo "$(now) - $t0" | bc
}
# best3 ARGS...: the fastest of three runs (warm figures are milliseconds: noise dominates)
best3() { for _ in 1 2 3; do t "$@"; done | sort -n | head -1; }
C=(--cache-dir="$tmp/cache")
cold=$(t "${C[@]}" "${names[@]}")
warm=$(best3 "${C[@]}" "${names[@]}")
echo "// edited" >>"${names[0]}"
one_changed=$(t "${C[@]}" "${names[@]}")
nocache=$(t --no-cache "${names[@]}")
rm -rf "$tmp/cache1"
single_cold=$(t --cache-dir="$tmp/cache1" "${names[1]:-${names[0]}}")
single_warm=$(best3 --cache-dir="$tmp/cache1" "${names[1]:-${names[0]}}")
entries=$(find "$tmp/cache" -type f | wc -l)
size=$(du -sk "$tmp/cache" | cut -f1)
echo "files: ${#names[@]} ($(nproc) cores; $("$GMEMLINT" --version))"
printf '%-44s %7.3f s\n' "cold (empty cache)" "$cold"
printf '%-44s %7.3f s  (%.0fx faster)\n' "warm (every file a hit; best of 3)" "$warm" \
  "$(echo "$cold / $warm" | bc -l)"
printf '%-44s %7.3f s\n' "one file edited, the others hits" "$one_changed"
printf '%-44s %7.3f s\n' "--no-cache" "$nocache"
printf '%-44s %7.3f s\n' "one file, cold" "$single_cold"
printf '%-44s %7.3f s\n' "one file, warm (best of 3)" "$single_warm"
echo "cache: $entries entries, ${size} KiB"
