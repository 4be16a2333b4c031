/* GM120 runtime-growing-reallocation (runtime only; the run's twin of GM020)
 *
 * An allocation site whose blocks a run saw replaced, again and again, by a larger block from the
 * same site: allocate larger, copy the old contents in, free the old block. Each step copies
 * everything so far (O(n^2) bytes over n steps) and the ever-larger blocks fragment device
 * memory. The static pass (GM020) sees this only when allocation, copy and free sit in one loop
 * of one function; the run sees it through helpers, other files, function pointers and Python
 * (torch.cat in a loop, under gmemrun with PYTORCH_NO_CUDA_MEMORY_CACHING=1).
 *
 *   seen:  cudaMalloc at buffer.cu:12, 11 blocks each replaced by a larger one from 64 KiB to
 *          768 KiB, 11 copies old -> new (4.1 MiB copied)
 *   fix:   reserve the final size once, or grow geometrically behind a capacity
 *
 * The runtime records, for each freed block, whether the site's latest allocation was made after
 * it and is larger (a replacement), the longest chain of replacements (block 1 replaced by 2,
 * 2 by 3, ...) and the copies from a block into its replacement. Threshold: a chain of at least
 * GM_REGROWTH_CHAIN_MIN replacements (runtime_view/join.h; GM020's runtime verdict asks as many
 * increases). A one-off "small temporary, then a big buffer" makes a chain of one. */
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>

extern const gm_rule gm120_runtime_growing_reallocation;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    const gm_family *fam = gm_site_family(s);
    if (s->kind != GM_SITE_ALLOC || !fam || !fam->gpu ||
        s->regrowth_chain_max < GM_REGROWTH_CHAIN_MIN)
      continue;
    if (gm_runtime_covered(c, s, "GM020")) /* the static finding's verdict covers it */
      continue;
    gm_finding *f = gm_runtime_add(
        c, &gm120_runtime_growing_reallocation, s->file, s->line, s->column,
        "blocks from %s here were replaced %llu times in a row by a larger block from the same "
        "site: a buffer regrown step by step (allocate larger, copy the old contents, free the "
        "old), so n steps copy O(n^2) bytes and fragment memory; the static pass did not see "
        "it (the steps are in another function or file, or behind a call it cannot follow); "
        "compute the final size and allocate once, or keep a capacity and double it when it "
        "runs out",
        s->api, (unsigned long long)s->regrowth_chain_max);
    char copied[200];
    if (s->regrowth_copies)
      snprintf(copied, sizeof copied, "%llu %s from a block into its replacement (%s copied)",
               (unsigned long long)s->regrowth_copies,
               gm_plural(s->regrowth_copies, "copy", "copies"), gm_bytes(s->regrowth_copy_bytes).s);
    else
      snprintf(copied, sizeof copied,
               "no cudaMemcpy from a block into its replacement seen (a kernel or a library "
               "copied, or nothing did)");
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f,
                        "a chain of %llu replacements, each by a larger block (threshold: %d), "
                        "%llu blocks replaced of %llu calls, sizes from %s to %s (%s allocated "
                        "in all); %s%s",
                        (unsigned long long)s->regrowth_chain_max, GM_REGROWTH_CHAIN_MIN,
                        (unsigned long long)s->regrowths, (unsigned long long)s->calls,
                        gm_bytes(s->bytes_min).s, gm_bytes(s->bytes_max).s,
                        gm_bytes(s->bytes_total).s, copied, stack);
    free(stack);
  }
}

const gm_rule gm120_runtime_growing_reallocation = {
    .id = "GM120",
    .name = "runtime-growing-reallocation",
    .summary = "Runtime: blocks from one site replaced again and again by larger ones (no static "
               "GM020).",
    .description =
        "The telemetry of an instrumented run shows an allocation site whose blocks were "
        "replaced, one after another, by a larger block from the same site, each freed once its "
        "replacement existed (and, where a cudaMemcpy did it, its contents copied into the "
        "replacement): a buffer regrown step by step, where the static pass raised no GM020 "
        "because allocation, copy and free are spread over functions, files, function pointers "
        "or a Python program (torch.cat in a loop). Every step copies everything so far, and "
        "the ever-larger blocks fragment device memory.",
    .fix = "Compute the final size first and allocate once, or keep a capacity and grow it "
           "geometrically (doubling) only when the data no longer fits; in PyTorch, collect the "
           "pieces in a list and call torch.cat once.",
    .runtime = runtime,
};
