#!/usr/bin/env bash
# GPU checks of libgmemrt, in one run on the GPU machine: builds the runtime and small real CUDA
# programs with nvcc, runs them, and checks their telemetry. Run tests/gpu/prepare.sh first on the
# development machine (it gathers jansson and libunwind, which the GPU machine lacks) and carry
# .gpu-deps. Usage (device tool): bash tests/gpu/run.sh   -- results also land in $OUT.
# OVERHEAD_RUNS=N: overhead rounds (default 5). TORCH_ONLY=1: only the PyTorch view's checks.
# OVERHEAD_ONLY=1: only the churn loops' overhead
# (plain, gmemcc build, gmemrun), for more rounds in the same device time.
# TORCH_COST_RUNS=N: rounds of the PyTorch view's cost (default 3; TORCH_COST_ONLY=1: only them); TORCH_COST_STEPS=N: steps a run
# (default 200; about 7000 make a 30 s run on an H100). SKIP_TORCH=1: everything but
# the PyTorch checks (when device time is short; TORCH_ONLY=1 runs them alone).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DEPS=$ROOT/.gpu-deps
CUDA=${CUDA_PATH:-/usr/local/cuda}
B=$(mktemp -d)
RES=$B/out # everything lands here; with $OUT (the device tool) it is returned as one archive
mkdir -p "$RES"
# the whole output also lands in run.log: the device tool returns only its tail
exec > >(tee "$RES/run.log") 2>&1
LOG_PID=$!
trap 'exec >&- 2>&-; wait "$LOG_PID"; [ -n "${OUT:-}" ] && tar -C "$RES" -czf "$OUT/gpu-results.tar.gz" .' EXIT
export LD_LIBRARY_PATH=$DEPS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -d "$DEPS" ] || { echo "run tests/gpu/prepare.sh first and carry .gpu-deps" >&2; exit 2; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader

echo "== build libgmemrt (static, for forced-include builds; shared, for LD_PRELOAD and gmemrun)"
bash tests/gpu/build_runtime.sh "$B"
echo "exported by libgmemrt.so: $(nm -D --defined-only "$B/libgmemrt.so" | wc -l) symbols"
echo "exported by libgmemrt_inject.so: $(nm -D --defined-only "$B/libgmemrt_inject.so" | wc -l) symbols"
LIBS=("$B/libgmemrt.a" -L"$DEPS/lib" -ljansson -ldw -lunwind -Xlinker -rpath-link="$DEPS/lib")
# The PyTorch view (issue 28): run below with the other PyTorch checks, or alone with
# TORCH_ONLY=1 (after the runtime is built), when device time is short.
torch_view() {
    echo "== the PyTorch view (issue 28): scripts made to show each verdict, under gmemrun"
    # gmemrun puts the shim (runtime/python) first on PYTHONPATH; GMEMRUN_PYTHON_DIR names it
    # where this tree is not where gmemrun was built. tests/gpu/join_torch.sh judges the
    # companions (tv_NAME-PID.torch.json) against tests/gpu/torch_expected.txt.
    export GMEMRUN_PYTHON_DIR=$ROOT/runtime/python
    for name in leak_steps clean_train oom_fragmentation oom_capacity regrowth cache_growth \
                serve_leak serve_clean eval_leak eval_clean; do
      "$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" -o "$RES/tv_$name-%p.json" -- \
        python3 "tests/gpu/torch_$name.py" || echo "torch_$name.py exited $?"
    done
    # the allocator's other modes: expandable segments (mapped by cuMemMap, unseen by the
    # cudaMalloc hooks: the snapshots are the view) and the cudaMallocAsync backend (no
    # snapshots: the runtime's own hooks are the view)
    PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "$ROOT/build/gmemrun" -q \
      --library "$B/libgmemrt_inject.so" -o "$RES/tv_leak_expandable-%p.json" -- \
      python3 tests/gpu/torch_leak_steps.py || echo "torch_leak_steps.py (expandable) exited $?"
    PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync "$ROOT/build/gmemrun" -q \
      --library "$B/libgmemrt_inject.so" -o "$RES/tv_leak_async-%p.json" -- \
      python3 tests/gpu/torch_leak_steps.py || echo "torch_leak_steps.py (cudaMallocAsync) exited $?"
    # a history too short for the run: the ring keeps its last 1000 entries (issue 41)
    GMEMLINT_TORCH_MAX_ENTRIES=1000 "$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" \
      -o "$RES/tv_serve_overflow-%p.json" -- python3 tests/gpu/torch_serve_leak.py ||
      echo "torch_serve_leak.py (overflow) exited $?"
    # torchrun: one companion per rank (on device 0, over gloo), none for the launcher
    timeout 120 "$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" \
      -o "$RES/tv_ranks-%p.json" -- python3 -m torch.distributed.run --standalone \
      --nproc_per_node=2 tests/gpu/torch_ranks.py || echo "torchrun exited $?"
    # where gmemrun finds the shim (issue 41): a copy of gmemrun in an install prefix finds the
    # prefix's shim; a folder named by GMEMRUN_PYTHON_DIR without one turns the view off, which
    # the runtime says once on stderr and in the telemetry's torch_view
    reloc=$(mktemp -d)
    mkdir -p "$reloc/prefix/bin" "$reloc/prefix/share/gmemlint/python" "$reloc/empty"
    cp "$ROOT/build/gmemrun" "$reloc/prefix/bin/"
    cp runtime/python/sitecustomize.py runtime/python/gmemlint_torch.py \
      "$reloc/prefix/share/gmemlint/python/"
    (unset GMEMRUN_PYTHON_DIR
      "$reloc/prefix/bin/gmemrun" -q --library "$B/libgmemrt_inject.so" \
        -o "$RES/reloc_prefix-%p.json" -- python3 tests/gpu/torch_leak_steps.py \
        2>"$RES/reloc_prefix.err" || echo "relocated gmemrun (prefix) exited $?"
      GMEMRUN_PYTHON_DIR=$reloc/empty "$reloc/prefix/bin/gmemrun" -q \
        --library "$B/libgmemrt_inject.so" -o "$RES/reloc_noshim-%p.json" -- \
        python3 tests/gpu/torch_leak_steps.py 2>"$RES/reloc_noshim.err" ||
        echo "relocated gmemrun (no shim) exited $?")
    for run in reloc_prefix reloc_noshim; do
      echo "-- $run: stderr's gmemrt lines: $(grep '^gmemrt:' "$RES/$run.err" || echo none)"
      for f in "$RES/$run"-*.json; do
        case $f in *.torch*) continue ;; esac
        python3 -c 'import json, sys; print("  torch_view:", json.load(open(sys.argv[1])).get("torch_view"))' "$f"
      done
      ls "$RES/$run"-*.torch.json >/dev/null 2>&1 && echo "  companion written" || echo "  no companion"
    done
    rm -rf "$reloc"
    python3 tests/gpu/torch_view_check.py companions "$RES" || TORCH_VIEW_FAILED=1
    viz() { # viz PLOT PATTERN: PyTorch's own memory_viz opens the pickle the shim wrote
      local files html
      # shellcheck disable=SC2206 # the pattern is meant to expand
      files=("$RES"/$2)
      html=$RES/$(basename "${files[0]}" .pickle)_$1.html
      if [ -f "${files[0]}" ] && python3 -m torch.cuda._memory_viz "$1" "${files[0]}" -o "$html" &&
        [ -s "$html" ]; then
        echo "memory_viz $1 $(basename "${files[0]}"): OK ($(stat -c %s "$html") bytes of html)"
      else
        echo "FAIL: memory_viz $1 on $2"
        TORCH_VIEW_FAILED=1
      fi
    }
    viz trace_plot "tv_leak_steps-*.torch-exit.pickle"
    viz segment_plot "tv_oom_fragmentation-*.torch-oom-1.pickle"
    if build/gmemlint --version >/dev/null 2>&1; then
      bash tests/gpu/join_torch.sh "$RES" build/gmemlint | tee "$RES/join_torch.txt" ||
        TORCH_VIEW_FAILED=1
    else
      echo "build/gmemlint does not run here: run tests/gpu/join_torch.sh DIR on the returned files"
    fi
    torch_cost
}
# the PyTorch view's cost alone (TORCH_COST_ONLY=1 with TORCH_ONLY=1)
torch_cost() {
    COST_STEPS=${TORCH_COST_STEPS:-200}
    echo "== the PyTorch view's cost: $COST_STEPS steps of torch_clean_train.py, plain, under"
    echo "   gmemrun without the view (--no-torch) and with it, alternating, ${TORCH_COST_RUNS:-3} rounds"
    WAYS=(plain shim)
    build/gmemrun --help 2>&1 | grep -q -- --no-torch && WAYS=(plain no_torch shim)
    for ((i = 0; i < ${TORCH_COST_RUNS:-3}; i++)); do
      for way in "${WAYS[@]}"; do
        cmd=("$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" -o "$B/cost-%p.json" --)
        case $way in
          plain) cmd=() ;;
          no_torch) cmd=("${cmd[0]}" --no-torch "${cmd[@]:1}") ;;
        esac
        started=$(date +%s.%N)
        line=$("${cmd[@]}" python3 tests/gpu/torch_clean_train.py --steps "$COST_STEPS" |
          grep 'median step') || line="failed"
        ms=$(echo "$line" | sed -nE 's/.*median step ([0-9.]+) ms.*/\1/p')
        echo "$way step_ms=${ms:-none} wall_s=$(awk "BEGIN {print $(date +%s.%N) - $started}")"
        # what the shim says the view cost, and how much it wrote
        for c in "$B"/cost-*.torch.json; do
          [ -f "$c" ] || continue
          python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("  shim costs:", d.get("costs"), "history", d["history"]["entries"], "entries, overflowed", d["history"]["overflowed"])' "$c"
          echo "  written: $(du -cb "$B"/cost-*.torch* | tail -1 | cut -f1) bytes"
        done
        rm -f "$B"/cost-*
      done
    done | tee "$RES/torch_cost.txt"
    python3 tests/gpu/torch_view_check.py cost "$RES/torch_cost.txt" || true
}
if [ -n "${TORCH_ONLY:-}" ] && [ -n "${TORCH_COST_ONLY:-}" ]; then
  torch_cost
  exit 0
fi
if [ -n "${TORCH_ONLY:-}" ]; then
  torch_view
  [ -z "${TORCH_VIEW_FAILED:-}" ] && echo "torch view checks: ok" || echo "torch view checks: FAILED"
  exit 0
fi
FLAGS=(-O2 -std=c++17 -arch=sm_90 -Iinclude/gmemlint)

echo "== build programs (instrumented with -include gmem_forced.h, and churn also plain)"
PROGRAMS=(leak oom churn managed frag_pool frag_small churn_hidden managed_hidden
          small_copies_hidden bound_capacity bound_bandwidth bound_compute)
[ -n "${OVERHEAD_ONLY:-}" ] && PROGRAMS=(churn)
for p in "${PROGRAMS[@]}"; do
  nvcc "${FLAGS[@]}" -include gmem_forced.h "tests/gpu/$p.cu" -o "$B/$p" "${LIBS[@]}"
done
nvcc "${FLAGS[@]}" tests/gpu/churn.cu -o "$B/churn_plain"
if [ -z "${OVERHEAD_ONLY:-}" ]; then
# runtime twins with the loops in another file than the steps (GM120, GM131)
nvcc "${FLAGS[@]}" -include gmem_forced.h tests/gpu/twins_main.cu tests/gpu/twins_steps.cu \
  -o "$B/twins" "${LIBS[@]}"
nvcc "${FLAGS[@]}" -include gmem_forced.h tests/gpu/driver.cu -o "$B/driver" "${LIBS[@]}" -lcuda
# the LD_PRELOAD way: built as a user would, with the shared cudart and debug lines, no header
nvcc "${FLAGS[@]}" -g -cudart shared -include gmemrt.h tests/gpu/leak.cu -o "$B/leak_shared"

echo "== run"
GMEMRT_OUTPUT="$RES/leak-%p.json" "$B/leak"
GMEMRT_OUTPUT="$RES/oom-%p.json" GMEMRT_STACK_DEPTH=0 "$B/oom" | tee "$RES/oom.txt"
GMEMRT_OUTPUT="$RES/managed-%p.json" GMEMRT_NVML=1 GMEMRT_NVML_MS=20 "$B/managed"
GMEMRT_OUTPUT="$RES/driver-%p.json" "$B/driver"
GMEMRT_OUTPUT="$RES/preload-%p.json" LD_PRELOAD="$B/libgmemrt.so" "$B/leak_shared"
GMEMRT_OUTPUT="$RES/frag_pool-%p.json" GMEMRT_STACK_DEPTH=0 "$B/frag_pool" | tee "$RES/frag_pool.txt"
GMEMRT_OUTPUT="$RES/frag_small-%p.json" GMEMRT_STACK_DEPTH=0 "$B/frag_small" | tee "$RES/frag_small.txt"
# runtime twins: churn the static pass cannot see; tests/gpu/join_twins.sh judges it here
GMEMRT_OUTPUT="$RES/churn_hidden-%p.json" "$B/churn_hidden"
GMEMRT_OUTPUT="$RES/twins-%p.json" "$B/twins"
# GM130: managed memory faulted over by a kernel launched through a function pointer
GMEMRT_OUTPUT="$RES/managed_hidden-%p.json" "$B/managed_hidden"
# GM121: small uploads by a helper called through a function pointer, and one large upload
GMEMRT_OUTPUT="$RES/small_copies_hidden-%p.json" "$B/small_copies_hidden"
# GM140: runs made to be capacity-bound, bandwidth-bound and compute-bound (about 2 s each),
# sampled by NVML every 50 ms; tests/gpu/join_bound.sh judges them (below, where build/gmemlint
# runs on this machine; else here on the returned files)
for p in bound_capacity bound_bandwidth bound_compute; do
  GMEMRT_OUTPUT="$RES/$p-%p.json" GMEMRT_NVML=1 GMEMRT_NVML_MS=50 GMEMRT_STACK_DEPTH=0 "$B/$p" |
    tee "$RES/$p.txt"
done
if build/gmemlint --version >/dev/null 2>&1; then
  python3 tests/gpu/check_gpu.py "$RES" build/gmemlint # the OOM verdicts too
else
  python3 tests/gpu/check_gpu.py "$RES"
fi
if build/gmemlint --version >/dev/null 2>&1; then
  bash tests/gpu/join_bound.sh "$RES" build/gmemlint | tee "$RES/join_bound.txt" || BOUND_CHECK_FAILED=1
else
  echo "build/gmemlint does not run here: run tests/gpu/join_bound.sh DIR on the returned files"
fi

echo "== samples built with gmemcc (carried build/gmemcc), run on the GPU"
# gmemcc finds this machine's runtime and header through its overrides, and the dependencies
# (recorded as absolute paths on the development machine) as -l names on LIBRARY_PATH
if [ -x build/gmemcc ]; then
  SAMPLES=$B/samples # telemetry, tarred into $RES/samples.tar (the device tool returns few files)
  mkdir -p "$SAMPLES/samples"
  for src in samples/*.cu; do
    n=$(basename "$src" .cu)
    GMEMCC_RUNTIME_DIR="$B" GMEMCC_INCLUDE_DIR="$ROOT/include/gmemlint" LIBRARY_PATH="$DEPS/lib" \
      build/gmemcc nvcc -std=c++17 -arch=sm_90 -O2 -g -o "$B/sample_$n" "$src" \
      -Xlinker -rpath-link="$DEPS/lib"
    (cd "$SAMPLES/samples" && GMEMRT_OUTPUT="$SAMPLES/samples/$n-%p.json" "$B/sample_$n") ||
      echo "$n exited $?"
  done
  tar -C "$SAMPLES" -cf "$RES/samples.tar" samples
  echo "samples' telemetry in samples.tar: unpack it and run tests/gpu/join_samples.sh DIR here"
else
  echo "build/gmemcc not carried: samples skipped"
fi

echo "== samples unmodified (plain nvcc -g builds, static cudart) under gmemrun (carried build/gmemrun)"
if [ -x build/gmemrun ]; then
  RUN_SAMPLES=$B/gmemrun_samples
  mkdir -p "$RUN_SAMPLES/samples"
  for src in samples/*.cu; do
    n=$(basename "$src" .cu)
    nvcc -std=c++17 -arch=sm_90 -O2 -g -o "$B/plain_$n" "$src"
    "$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" \
      -o "$RUN_SAMPLES/samples/$n-%p.json" -- "$B/plain_$n" || echo "$n exited $?"
  done
  tar -C "$RUN_SAMPLES" -cf "$RES/gmemrun_samples.tar" samples
  python3 - "$RUN_SAMPLES/samples" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    a = json.load(open(path))["runtime"]["attach"]
    print(f"{path.split('/')[-1]}: on wrappers {a['apis_on_wrappers']}, {a['wrapper_calls']} calls,"
          f" driver callbacks {a['driver_callbacks_reason'] or 'off'}")
PY
  echo "== a program using the driver API itself, unmodified, under gmemrun (mixed: wrappers and driver callbacks)"
  nvcc -std=c++17 -arch=sm_90 -O2 -g -o "$B/plain_driver" tests/gpu/driver.cu -lcuda
  "$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" -o "$RES/gmemrun-driver-%p.json" \
    -- "$B/plain_driver"
  python3 - "$RES" <<'PY' || DRIVER_CHECK_FAILED=1 # reported at the end: the overhead still runs
import glob, json, sys
(path,) = glob.glob(sys.argv[1] + "/gmemrun-driver-*.json")
d = json.load(open(path))
a = d["runtime"]["attach"]
print(f"driver program: attach {a}")
sites = {(s["line"], s["api"]): s for s in d["sites"] if (s.get("file") or "").endswith("driver.cu")}
print(f"driver program: sites {sorted(sites)}")
leak, managed = sites[(9, "cuMemAlloc")], sites[(10, "cuMemAllocManaged")]
# recorded once each, whichever way saw them (driver callbacks, as the program links cuMemAlloc)
assert leak["calls"] == 1 and leak["live_bytes"] == 4 << 20 and leak["family"] == "cu-device", leak
assert managed["calls"] == 1 and managed["frees"] == {"cuMemFree": 1}, managed
assert a["driver_callbacks"] and "cuMemAlloc" in a["driver_callbacks_reason"], a
assert d["process"]["live_bytes"] == 4 << 20, d["process"]
PY
  echo "== gmemrun under compute-sanitizer (another CUPTI client): it must refuse, not half-work"
  rc=0
  "$CUDA/bin/compute-sanitizer" --print-limit 1 "$ROOT/build/gmemrun" --library \
    "$B/libgmemrt_inject.so" -o "$B/sanitized-%p.json" -- "$B/plain_leaky_training_loop" \
    >"$RES/sanitized.txt" 2>&1 || rc=$?
  grep -E "gmemrun|leaky_training_loop:" "$RES/sanitized.txt" | head -5
  echo "exit status under compute-sanitizer: $rc; telemetry files: $(ls "$B"/sanitized-*.json 2>/dev/null | wc -l)"
  echo "== a PyTorch program under gmemrun"
  if [ -n "${SKIP_TORCH:-}" ]; then
    echo "SKIP_TORCH: the PyTorch checks are skipped"
  elif python3 -c "import torch" 2>/dev/null; then
    "$ROOT/build/gmemrun" --library "$B/libgmemrt_inject.so" -o "$RES/torch-%p.json" -- \
      python3 tests/gpu/torch_steps.py
    python3 - "$RES" <<'PY'
import glob, json, re, sys
# the runtime's file (torch-PID.json), not the PyTorch view's companions beside it
# (torch-PID.torch.json, torch-PID.torch-exit.json, torch-PID.torch-oom-N.json)
d = json.load(open([f for f in glob.glob(sys.argv[1] + "/torch-*.json")
                    if re.search(r"/torch-\d+\.json$", f)][0]))
grow = [s for s in d["sites"] if s.get("step_live_bytes") and len(s["step_live_bytes"]) == 4
        and s["step_live_bytes"][-1] > s["step_live_bytes"][0]]
for s in sorted(grow, key=lambda s: -s["live_bytes"])[:3]:
    print(f"torch: site {s.get('function')} ({(s.get('module') or '').split('/')[-1]}"
          f"{', ' + s['file'].split('/')[-1] + ':' + str(s['line']) if s.get('file') else ''})"
          f" steps {[v >> 20 for v in s['step_live_bytes']]} MiB, {s['calls']} calls")
for e in d["process"]["oom_events"]:
    print(f"torch: OOM of {e['requested_bytes'] >> 30} GiB at {e.get('function') or e.get('file')}"
          f": {e['free_bytes'] >> 20} MiB free of {e['total_bytes'] >> 20}")
print(f"torch: attach {d['runtime']['attach']}")
assert grow, "a site whose live bytes grow across the steps"
# capacity's figures (gmemlint judges them: tests/join/oom_verdicts)
assert any(e["free_bytes"] < e["requested_bytes"] for e in d["process"]["oom_events"]), d["process"]
PY
    echo "== PyTorch regrowing a tensor with torch.cat, under gmemrun, no caching allocator (GM120)"
    PYTORCH_NO_CUDA_MEMORY_CACHING=1 "$ROOT/build/gmemrun" -q --library "$B/libgmemrt_inject.so" \
      -o "$RES/torch_cat-%p.json" -- python3 tests/gpu/torch_cat.py
    torch_view
  else
    echo "PyTorch is not installed on this machine: skipped"
  fi
else
  echo "build/gmemrun not carried: gmemrun checks skipped"
fi

echo "== the README's CMake recipe: programs built by gmemlint_instrument() (prepared by prepare.sh)"
IP=$DEPS/instrument_project
if [ -x "$IP/cuda_app" ]; then
  for p in cuda_app cxx_app so_app lib_app; do
    (cd "$IP" && LD_LIBRARY_PATH=$IP:$LD_LIBRARY_PATH GMEMRT_OUTPUT="$RES/recipe_$p-%p.json" "./$p")
  done
  python3 - "$RES" <<'PY' || RECIPE_CHECK_FAILED=1
import glob, json, sys
for p, api in [("cuda_app", "cudaMalloc"), ("cxx_app", "cudaMalloc"), ("so_app", "cudaMallocHost"),
               ("lib_app", "cudaMalloc")]:
    (path,) = glob.glob(f"{sys.argv[1]}/recipe_{p}-*.json")
    sites = [s for s in json.load(open(path))["sites"] if s["api"] == api]
    print(f"recipe {p}: " + ", ".join(f"{s['file'].split('/')[-1]}:{s['line']} {s['api']}"
          f" calls {s['calls']} failed {s.get('failed_calls', 0)} live {s['live_bytes']}" for s in sites))
    assert sites and all(s["calls"] >= 1 and not s.get("failures") for s in sites), sites
PY
else
  echo "instrument_project not prepared (tests/gpu/prepare.sh): the CMake recipe skipped"
fi

fi # OVERHEAD_ONLY

RUNS=${OVERHEAD_RUNS:-5}
echo "== overhead: plain vs instrumented (gmemcc) vs plain under gmemrun, alternating, $RUNS rounds"
# every run on the same core: a loop of 1 us calls moved between cores measures the move
PIN=()
if command -v taskset >/dev/null && [ "$(nproc)" -gt 2 ]; then
  PIN=(taskset -c 2)
  echo "(pinned to core 2)"
fi
for ((i = 0; i < RUNS; i++)); do
  echo "plain        $("${PIN[@]}" "$B/churn_plain" 20000 200000)"
  echo "instrumented $(GMEMRT_OUTPUT="$RES/churn-%p.json" "${PIN[@]}" "$B/churn" 20000 200000)"
  if [ -x build/gmemrun ]; then
    echo "gmemrun      $("${PIN[@]}" build/gmemrun -q --library "$B/libgmemrt_inject.so" \
      -o "$B/churn-gmemrun-%p.json" -- "$B/churn_plain" 20000 200000)"
    [ -n "${OVERHEAD_ONLY:-}" ] && continue
    echo "gmemrun_api  $(GMEMRT_CALLER_SITES=0 "${PIN[@]}" build/gmemrun -q \
      --library "$B/libgmemrt_inject.so" -o "$B/churn-gmemrun-api-%p.json" -- \
      "$B/churn_plain" 20000 200000)"
    echo "gmemrun_cb   $(GMEMRT_ENTRY_WRAPPERS=0 "${PIN[@]}" build/gmemrun -q \
      --library "$B/libgmemrt_inject.so" -o "$B/churn-gmemrun-cb-%p.json" -- \
      "$B/churn_plain" 20000 200000)"
  fi
done | tee "$RES/overhead.txt"
python3 - "$RES" <<'PY'
import glob, json, sys
doc = json.load(open(sorted(glob.glob(sys.argv[1] + "/churn-*.json"))[0]))
pools = doc["process"]["pools"]
print(f"pools after the cudaMallocAsync churn: {pools}")
assert pools and pools[0]["sampled"] and pools[0]["used_high_bytes"] >= 1 << 20, pools
assert pools[0]["reserved_high_bytes"] >= pools[0]["used_high_bytes"], pools
runs = sorted(glob.glob(sys.argv[1] + "/../churn-gmemrun-[0-9]*.json"))
if runs:  # gmemrun: the runtime's calls went over to wrapped driver entry points
    doc = json.load(open(runs[0]))
    attach = doc["runtime"]["attach"]
    print(f"gmemrun attach: {attach}")
    assert {"cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync"} <= set(
        attach["apis_on_wrappers"]), attach
    assert attach["driver_callbacks"] is False, attach  # the runtime alone calls the driver
    # static cudart fetched its entry points before cuInit loaded the library: swapped in its data
    assert attach["entry_points_adopted"] >= 4, attach
    site = [s for s in doc["sites"] if s["api"] == "cudaMallocAsync"]
    print(f"gmemrun churn sites: {[(s['file'], s['line'], s['api'], s['calls']) for s in doc['sites'] if s['kind'] == 'alloc']}")
    assert site and sum(s["calls"] for s in site) == 200000, site
PY
python3 bench/overhead_summary.py "$RES/overhead.txt"
[ -n "${OVERHEAD_ONLY:-}" ] && exit 0
echo "== compute-sanitizer --leak-check full on the same churn loops (fewer pairs: it is slow)"
SAN=$CUDA/bin/compute-sanitizer
if [ -x "$SAN" ]; then
  for i in 1 2; do
    echo "plain        $("$B/churn_plain" 2000 20000)"
    echo "sanitizer    $("$SAN" --leak-check full --print-limit 1 "$B/churn_plain" 2000 20000 | grep pair_us)"
  done | tee "$RES/sanitizer.txt"
  python3 - "$RES/sanitizer.txt" <<'PY'
import re, statistics, sys
rows = {"plain": [], "sanitizer": []}
for line in open(sys.argv[1]):
    rows[line.split()[0]].append({k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)})
for key, label in (("pair_us", "cudaMalloc+cudaFree pair"),
                   ("async_pair_us", "cudaMallocAsync+cudaFreeAsync pair"),
                   ("kernel_ms", "kernel-bound loop")):
    p = statistics.median(r[key] for r in rows["plain"])
    s = statistics.median(r[key] for r in rows["sanitizer"])
    print(f"compute-sanitizer {label}: plain {p:.4g}, sanitizer {s:.4g}, {s / p:.2f}x")
PY
else
  echo "compute-sanitizer not found at $SAN: comparison skipped"
fi
if [ -n "${BOUND_CHECK_FAILED:-}" ]; then
  echo "gpu checks: FAILED (GM140 verdicts, tests/gpu/join_bound.sh above)"
  exit 1
fi
if [ -n "${RECIPE_CHECK_FAILED:-}" ]; then
  echo "gpu checks: FAILED (the CMake recipe's programs, above)"
  exit 1
fi
if [ -n "${TORCH_VIEW_FAILED:-}" ]; then
  echo "gpu checks: FAILED (the PyTorch view, above: tests/gpu/torch_view_check.py, memory_viz, join_torch.sh)"
  exit 1
fi
if [ -n "${DRIVER_CHECK_FAILED:-}" ]; then
  echo "gpu checks: FAILED (the driver-API program under gmemrun, above)"
  exit 1
fi
echo "gpu checks: ok"
