/* GM153 torch-fragmentation (runtime only; the PyTorch view; a note)
 *
 * At the peak, the caching allocator's large segments that hold live tensors also hold much free
 * memory, in holes too small for a large request: the cache is fragmented, and a later large
 * allocation fails or makes a new segment although the memory is there. No out-of-memory error
 * is needed; where one happened and GM152 judged it fragmentation, GM153 stays silent.
 *
 * Judged on the peak snapshot, else the exit one, per device (gm_torch_judge_fragmentation;
 * thresholds in torch_verdict.h): free bytes F inside large segments holding a live block, the
 * largest such hole L, fragmented when F is large enough and 1 - L/F reaches the score. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>

extern const gm_rule gm153_torch_fragmentation;

static int oom_fragmentation(const gm_torch_view *v) {
  for (size_t i = 0; i < v->ooms.len; i++)
    if (gm_torch_judge_oom(v, &v->ooms.items[i]).cause == GM_TORCH_OOM_FRAGMENTATION)
      return 1;
  return 0;
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->torch.len; i++) {
    const gm_torch_view *v = c->telemetry->torch.items[i];
    const char *which;
    gm_torch_fragmentations fr = gm_torch_judge_fragmentation(v, &which);
    int skip = oom_fragmentation(v);
    for (size_t k = 0; k < fr.len && !skip; k++) {
      const gm_torch_fragmentation *g = &fr.items[k];
      if (!g->fragmented)
        continue;
      unsigned line;
      const char *file = gm_torch_where(v, g->at, &line);
      char *proc = gm_torch_process_text(v);
      gm_finding *f = gm_runtime_add(
          c, &gm153_torch_fragmentation, file, line, 0,
          "the caching allocator of %s was fragmented on device %d: %s free inside segments "
          "that hold live tensors, the largest hole %s; a large request cannot use it; set "
          "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True%s",
          proc, g->device, gm_bytes(g->free_bytes).s, gm_bytes(g->largest).s,
          v->expandable ? " (already on: keep tensor sizes uniform, allocate long-lived ones "
                          "first)"
                        : "");
      double small = g->reserved ? 100.0 * (double)g->small_reserved / (double)g->reserved : 0;
      gm_runtime_evidence(f,
                          "%s snapshot, large pool: %s free in %llu %s inside partly used "
                          "segments (threshold: the larger of %s and %.0f%% of the %s reserved), "
                          "largest %s, score 1 - largest/free = %.2f (threshold: %.2f); the small "
                          "pool holds %.0f%% of the reserved bytes",
                          which, gm_bytes(g->free_bytes).s, (unsigned long long)g->holes,
                          gm_plural(g->holes, "hole", "holes"), gm_bytes(GM_TORCH_FRAG_MIN_BYTES).s,
                          GM_TORCH_FRAG_RESERVED_SHARE * 100, gm_bytes(g->reserved).s,
                          gm_bytes(g->largest).s, g->score, GM_TORCH_FRAG_SCORE_MIN, small);
      free(proc);
    }
    GM_VEC_FREE(fr);
  }
}

const gm_rule gm153_torch_fragmentation = {
    .id = "GM153",
    .name = "torch-fragmentation",
    .summary = "PyTorch view: the cache's large segments are full of small holes.",
    .description =
        "The PyTorch view of a run shows, at the peak, much free memory inside the caching "
        "allocator's large segments that hold live tensors, in holes much smaller than the "
        "total: a large request cannot use it, and the process reserves new segments or runs "
        "out of memory although the bytes are free.",
    .fix = "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; allocate long-lived tensors "
           "first and keep tensor sizes uniform across steps.",
    .runtime = runtime,
    .level = GM_LEVEL_NOTE,
};
