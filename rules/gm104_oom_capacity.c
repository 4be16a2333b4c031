/* GM104 oom-capacity (runtime only)
 *
 * An allocation failed with out-of-memory because the device had less free memory than it asked
 * for: the program needs more than the GPU has at that point. The runtime records each event's
 * figures (docs/telemetry-format.md) and gm_oom_judge reads them; this rule reports the events it
 * judges capacity, one finding per site. */
#include "rules/rules.h"
#include "runtime_view/join.h"

extern const gm_rule gm104_oom_capacity;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->ooms.len; i++) {
    size_t n = gm_runtime_oom_group(c, i, GM_OOM_CAPACITY);
    if (!n)
      continue;
    const gm_toom *e = &c->telemetry->ooms.items[i];
    gm_finding *f = gm_runtime_add(
        c, &gm104_oom_capacity, e->file ? e->file : e->source, e->file ? e->line : 0,
        e->file ? e->column : 0,
        "%s of %s failed with out-of-memory: the device had only %s free of %s; the program "
        "needs more memory than the GPU has here (free what is no longer needed first, or "
        "shrink the batch, the model or the working set)",
        e->api, gm_bytes(e->requested_bytes).s, gm_bytes(e->free_bytes).s,
        gm_bytes(e->total_bytes).s);
    gm_runtime_evidence(f,
                        "%zu out-of-memory %s here; the first asked for %s with %s free of %s, "
                        "%s held by the program (capacity: free and held memory short of the "
                        "request)",
                        n, n == 1 ? "error" : "errors", gm_bytes(e->requested_bytes).s,
                        gm_bytes(e->free_bytes).s, gm_bytes(e->total_bytes).s,
                        gm_bytes(e->live_bytes).s);
  }
}

const gm_rule gm104_oom_capacity = {
    .id = "GM104",
    .name = "oom-capacity",
    .summary = "Runtime: an allocation ran out of memory because the device was full.",
    .description =
        "An allocation failed with cudaErrorMemoryAllocation and the device had less free "
        "memory than it asked for: at that point the program (and anything else on the GPU) "
        "holds nearly all of it. Either the working set does not fit, or memory that is no "
        "longer needed is still held (see GM101/GM102 and the report's top sites).",
    .fix = "Free buffers that are no longer needed before the large allocation, reduce the "
           "batch or model size, split the work, or move cold data to host memory.",
    .runtime = runtime,
};
