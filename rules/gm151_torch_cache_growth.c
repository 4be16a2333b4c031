/* GM151 torch-cache-growth (runtime only; the PyTorch view; a note)
 *
 * The caching allocator's reserved memory grows step after step while the tensors' allocated
 * memory stays flat: the cache keeps new segments for requests its free blocks cannot serve
 * (sizes that vary from step to step), so the process holds far more than it uses and other
 * processes, or a later large request, run short. Not a leak of the program's: GM150 reports
 * those, and GM151 stays silent for a process GM150 reports.
 *
 * Judged from the steps' figures (gm_torch_judge_cache; thresholds in torch_verdict.h). The
 * setting that helps: expandable segments when the snapshot shows large segments of many
 * sizes, else max_split_size_mb; torch.cuda.empty_cache() only hands the cache back. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>

extern const gm_rule gm151_torch_cache_growth;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->torch.len; i++) {
    const gm_torch_view *v = c->telemetry->torch.items[i];
    gm_torch_cache_growth g = gm_torch_judge_cache(v);
    gm_torch_leaks l = gm_torch_judge_leaks(v);
    int leaks = gm_torch_leaks_found(&l);
    gm_torch_leaks_free(&l);
    if (!g.grew || leaks)
      continue;
    const char *setting =
        g.distinct_sizes >= GM_TORCH_DISTINCT_SEGMENT_SIZES && !v->expandable
            ? "set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (one segment per stream "
              "that grows, instead of a new segment for each size)"
            : "set PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:N so large cached blocks are not "
              "split for smaller requests, or keep tensor sizes uniform across steps; "
              "torch.cuda.empty_cache() only hands the cache back, it is not a fix";
    unsigned line;
    const char *file = gm_torch_where(v, g.at, &line);
    char *proc = gm_torch_process_text(v);
    gm_finding *f = gm_runtime_add(
        c, &gm151_torch_cache_growth, file, line, 0,
        "the caching allocator of %s reserved %s more over the steps while the tensors grew "
        "by %s: the cache keeps new segments its free blocks cannot serve; %s",
        proc, gm_bytes(g.reserved_growth).s, gm_bytes(g.allocated_growth).s, setting);
    char sizes[128] = "no snapshot of the segments";
    if (g.snapshot)
      snprintf(sizes, sizeof sizes, "%zu distinct sizes among large segments of the %s snapshot",
               g.distinct_sizes, g.snapshot);
    gm_runtime_evidence(f,
                        "reserved bytes grew by %s over the steps after the warm-up (threshold: "
                        "%s, the larger of %s and %.0f%% of the device), allocated bytes by %s "
                        "(threshold: below %.0f%% of that); %s reserved but not allocated at the "
                        "last step; %s; expandable segments %s%s%s",
                        gm_bytes(g.reserved_growth).s, gm_bytes(g.threshold).s,
                        gm_bytes(GM_TORCH_CACHE_GROWTH_MIN_BYTES).s,
                        GM_TORCH_CACHE_GROWTH_SHARE * 100, gm_bytes(g.allocated_growth).s,
                        GM_TORCH_CACHE_ALLOCATED_SHARE * 100, gm_bytes(g.cached_at_last).s, sizes,
                        v->expandable ? "on" : "off",
                        g.at.file ? "; the largest segment made after the warm-up: " : "",
                        g.at.file ? gm_bytes(g.at_bytes).s : "");
    free(proc);
  }
}

const gm_rule gm151_torch_cache_growth = {
    .id = "GM151",
    .name = "torch-cache-growth",
    .summary = "PyTorch view: the allocator's cache grows while the tensors do not.",
    .description =
        "The PyTorch view of a run shows the caching allocator's reserved memory growing step "
        "after step while the allocated memory stays flat: the cache adds segments for requests "
        "its free blocks cannot serve, so the process holds far more device memory than its "
        "tensors use.",
    .fix = "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (or max_split_size_mb), or keep "
           "tensor sizes uniform across steps; torch.cuda.empty_cache() is not a fix.",
    .runtime = runtime,
    .level = GM_LEVEL_NOTE,
};
