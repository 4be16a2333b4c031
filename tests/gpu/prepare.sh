#!/usr/bin/env bash
# Run here (the development machine) before tests/gpu/run.sh: the GPU machine has nvcc and gcc
# but no jansson, libunwind or libdw, and cannot fetch packages. This copies their headers and shared
# libraries into .gpu-deps/ (ignored by git), which the device call carries.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .gpu-deps && mkdir -p .gpu-deps/include .gpu-deps/lib
cp /usr/include/jansson.h /usr/include/jansson_config.h .gpu-deps/include/
cp /usr/include/x86_64-linux-gnu/libunwind*.h .gpu-deps/include/
cp -r /usr/include/elfutils /usr/include/dwarf.h /usr/include/libelf.h /usr/include/gelf.h \
  .gpu-deps/include/
cache=$(ldconfig -p) # read once: awk leaving a pipe early would kill ldconfig (SIGPIPE)
for lib in libjansson.so.4 libunwind.so.8 liblzma.so.5 libdw.so.1 libelf.so.1 libbz2.so.1.0; do
  src=$(awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}' <<<"$cache")
  cp -L "$src" .gpu-deps/lib/
done
ln -sf libjansson.so.4 .gpu-deps/lib/libjansson.so
ln -sf libunwind.so.8 .gpu-deps/lib/libunwind.so
ln -sf libdw.so.1 .gpu-deps/lib/libdw.so
ln -sf libelf.so.1 .gpu-deps/lib/libelf.so
# The README's CMake recipe, built here (the GPU machine has no libclang to build gmemlint): the
# instrumented programs of tests/gmemcc/instrument_project, which run.sh runs on the GPU.
if [ -x build/gmemcc ] && command -v cmake >/dev/null; then
  prefix=$(mktemp -d)
  cmake --install build --prefix "$prefix" >/dev/null
  cmake -S tests/gmemcc/instrument_project -B .gpu-deps/instrument_project -G "Unix Makefiles" \
    -DUSE_GMEMLINT=ON -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" >/dev/null
  cmake --build .gpu-deps/instrument_project -j "$(nproc)" >/dev/null
  "$prefix/bin/gmemcc" --gmem-check .gpu-deps/instrument_project/{cuda_app,cxx_app,libdev.so,so_app,lib_app}
  rm -rf "$prefix"
else
  echo "build/gmemcc or cmake missing: the CMake recipe's programs are not prepared"
fi
grep -qx '/.gpu-deps/' .git/info/exclude 2>/dev/null || echo '/.gpu-deps/' >>.git/info/exclude
echo "prepared .gpu-deps: $(ls .gpu-deps/lib | tr '\n' ' ')"
