/* GM103 oom-fragmentation (runtime only)
 *
 * An allocation failed with out-of-memory although the device had at least as much free memory
 * as it asked for, and the runtime's probe found no free block that large: device memory was
 * fragmented. The runtime records each event's figures (docs/telemetry-format.md) and
 * gm_oom_judge reads them; this rule reports the events it judges fragmentation, one finding per
 * site. */
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdio.h>

extern const gm_rule gm103_oom_fragmentation;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->ooms.len; i++) {
    size_t n = gm_runtime_oom_group(c, i, GM_OOM_FRAGMENTATION);
    if (!n)
      continue;
    const gm_toom *e = &c->telemetry->ooms.items[i];
    char largest[48] = "unknown";
    if (e->has_largest_block)
      snprintf(largest, sizeof largest, "%s", gm_bytes(e->largest_block_bytes).s);
    /* free memory covered the request, or would have with what the program freed but the
     * driver or a pool still held (partly used pages) */
    char why[160];
    if (e->free_bytes >= e->requested_bytes)
      snprintf(why, sizeof why, "although %s were free", gm_bytes(e->free_bytes).s);
    else if (e->held_unused_bytes < e->requested_bytes - e->free_bytes && e->pool_sampled &&
             e->pool_reserved_bytes >= e->pool_used_bytes)
      snprintf(why, sizeof why, "although its stream-ordered pool held %s unused",
               gm_bytes(e->pool_reserved_bytes - e->pool_used_bytes).s);
    else
      snprintf(why, sizeof why,
               "while %s the program had freed was still held in partly used "
               "pages or pools",
               gm_bytes(e->held_unused_bytes).s);
    gm_finding *f = gm_runtime_add(
        c, &gm103_oom_fragmentation, e->file ? e->file : e->source, e->file ? e->line : 0,
        e->file ? e->column : 0,
        "%s of %s failed with out-of-memory %s: device memory is fragmented (the largest free "
        "block was %s); allocate long-lived buffers first and reuse fixed-size ones, or use a "
        "stream-ordered pool (cudaMallocAsync)",
        e->api, gm_bytes(e->requested_bytes).s, why, largest);
    gm_runtime_evidence(f,
                        "%zu out-of-memory %s here; the first asked for %s with %s free of %s, "
                        "largest block %s, %s held by the program, %s freed but still held "
                        "(fragmentation: free and held memory cover the request, the largest "
                        "block does not)",
                        n, n == 1 ? "error" : "errors", gm_bytes(e->requested_bytes).s,
                        gm_bytes(e->free_bytes).s, gm_bytes(e->total_bytes).s, largest,
                        gm_bytes(e->live_bytes).s, gm_bytes(e->held_unused_bytes).s);
  }
}

const gm_rule gm103_oom_fragmentation = {
    .id = "GM103",
    .name = "oom-fragmentation",
    .summary = "Runtime: an allocation ran out of memory while enough was free (fragmentation).",
    .description =
        "An allocation failed with cudaErrorMemoryAllocation although the device reported at "
        "least as much free memory as it asked for, and no free block was large enough: the "
        "free memory was split into pieces by allocations of varying sizes and lifetimes. The "
        "program fails with memory to spare.",
    .fix = "Allocate long-lived and large buffers first, reuse fixed-size buffers instead of "
           "allocating per iteration, round sizes up to a few classes, or use a stream-ordered "
           "memory pool (cudaMallocAsync) that can reuse and trim memory.",
    .runtime = runtime,
};
