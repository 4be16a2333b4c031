#!/usr/bin/env bash
# Builds libgmemrt on the GPU machine as runtime/CMakeLists.txt does: the static library for
# forced-include builds, the shared one for LD_PRELOAD and gmemrun's injected one, each exporting
# only the GMEMRT_API entry points. Usage: build_runtime.sh OUTDIR [SRCDIR [EXTRA_CFLAGS...]]
# (SRCDIR: a tree holding runtime/ and include/gmemlint/, default this one; the profile's
# baseline builds an earlier commit's). Needs .gpu-deps (tests/gpu/prepare.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=$1
SRC=${2:-$ROOT}
shift $(($# < 2 ? $# : 2))
DEPS=$ROOT/.gpu-deps
CUDA=${CUDA_PATH:-/usr/local/cuda}
CFLAGS=(-std=c17 -O2 -g -D_GNU_SOURCE -fPIC -Wall -Wextra -Wmissing-prototypes
        -I"$SRC/include/gmemlint" -I"$CUDA/include" -I"$DEPS/include" "$@")
HIDDEN=(-fvisibility=hidden -ftls-model=initial-exec)
mkdir -p "$OUTDIR/static" "$OUTDIR/shared" "$OUTDIR/inject"
for f in "$SRC"/runtime/*.c; do
  o=$(basename "$f" .c).o
  case "$f" in */runtime/inject*.c | */runtime/imports.c) continue ;; esac # gmemrun's only
  [ "$(basename "$f")" = preload.c ] || gcc "${CFLAGS[@]}" -c "$f" -o "$OUTDIR/static/$o"
  gcc "${CFLAGS[@]}" "${HIDDEN[@]}" -DGMEMRT_PRELOAD -c "$f" -o "$OUTDIR/shared/$o"
done
ar rcs "$OUTDIR/libgmemrt.a" "$OUTDIR"/static/*.o
gcc -shared -Wl,--no-undefined -o "$OUTDIR/libgmemrt.so" "$OUTDIR"/shared/*.o -L"$DEPS/lib" \
  -ljansson -ldw -lunwind -ldl -lpthread
for f in "$SRC"/runtime/*.c; do
  [ "$(basename "$f")" = preload.c ] && continue
  gcc "${CFLAGS[@]}" "${HIDDEN[@]}" -DGMEMRT_INJECT -c "$f" -o "$OUTDIR/inject/$(basename "$f" .c).o"
done
gcc -shared -Wl,--no-undefined -o "$OUTDIR/libgmemrt_inject.so" "$OUTDIR"/inject/*.o \
  -L"$DEPS/lib" -ljansson -ldw -lunwind -ldl -lpthread
