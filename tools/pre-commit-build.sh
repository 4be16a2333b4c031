#!/usr/bin/env bash
# The gmemlint-build pre-commit hook (.pre-commit-hooks.yaml): builds gmemlint in the clone of
# this repository that pre-commit keeps, once, then runs it on the files pre-commit passes.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/.pre-commit-build
if [ ! -x "$build/gmemlint" ]; then
  # one build even when several commits run at once
  exec 9>"$here/.pre-commit-build.lock"
  flock 9 2>/dev/null || true
  if [ ! -x "$build/gmemlint" ]; then
    echo "gmemlint: building gmemlint in $build (once)..." >&2
    log=$here/.pre-commit-build.log
    if ! { cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$build" --target gmemlint -j "$(nproc 2>/dev/null || echo 2)"; } >"$log" 2>&1; then
      tail -n 30 "$log" >&2
      echo "gmemlint: error: the build failed (full log: $log); see README.md for what it needs" >&2
      exit 2
    fi
  fi
fi
exec "$build/gmemlint" "$@"
