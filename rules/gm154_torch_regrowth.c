/* GM154 torch-regrowth (runtime only; the PyTorch view)
 *
 * A Python line that makes a larger tensor again and again while the previous one is still
 * allocated, then drops the previous one: a tensor regrown by concatenation, each step copying
 * everything so far (O(n^2) bytes over n steps) and leaving ever-larger holes in the cache.
 *
 *   bad:   for y in batches: x = torch.cat([x, y])
 *   good:  parts.append(y) in the loop, then x = torch.cat(parts) once
 *
 * Judged from the allocator's history in the exit snapshot (gm_torch_judge_regrowth): per
 * first user frame, a chain of allocations, each larger than the one before, each made while
 * the one before was allocated and followed by that one's free. Threshold: a chain of
 * GM_TORCH_REGROWTH_CHAIN_MIN (torch_verdict.h). The run's twin of GM120, which sees the same
 * pattern at the cudaMalloc sites when caching is off. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>

extern const gm_rule gm154_torch_regrowth;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->torch.len; i++) {
    const gm_torch_view *v = c->telemetry->torch.items[i];
    gm_torch_regrowths r = gm_torch_judge_regrowth(v);
    for (size_t k = 0; k < r.len; k++) {
      const gm_torch_regrowth *g = &r.items[k];
      unsigned line;
      const char *file = gm_torch_where(v, g->at, &line);
      gm_finding *f = gm_runtime_add(
          c, &gm154_torch_regrowth, file, line, 0,
          "a tensor made here was replaced %zu times in a row by a larger one while it was "
          "still allocated (x = torch.cat([x, y]) in a loop): each step copies everything so "
          "far, so n steps copy O(n^2) bytes and fragment the cache; collect the pieces in a "
          "list and call torch.cat once, or allocate the final size and fill it",
          g->chain - 1);
      char *proc = gm_torch_process_text(v);
      gm_runtime_evidence(f,
                          "a chain of %zu allocations, each larger than the one before and made "
                          "before it was freed (threshold: %d), sizes from %s to %s, about %s "
                          "copied (the replaced tensors' sizes); from the allocator's history of "
                          "%s",
                          g->chain, GM_TORCH_REGROWTH_CHAIN_MIN, gm_bytes(g->from).s,
                          gm_bytes(g->to).s, gm_bytes(g->copied).s, proc);
      free(proc);
    }
    GM_VEC_FREE(r);
  }
}

const gm_rule gm154_torch_regrowth = {
    .id = "GM154",
    .name = "torch-regrowth",
    .summary = "PyTorch view: a tensor regrown again and again (torch.cat in a loop).",
    .description =
        "The PyTorch view of a run shows a Python line that made a larger tensor, again and "
        "again, while the previous one was still allocated, and then freed the previous one: a "
        "tensor regrown by concatenation. Every step copies everything so far, and the "
        "ever-larger blocks leave holes in the caching allocator's segments.",
    .fix = "Collect the pieces in a list and call torch.cat once at the end, or allocate the "
           "final size once and fill it in place.",
    .runtime = runtime,
};
