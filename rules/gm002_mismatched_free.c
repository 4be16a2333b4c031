/* GM002 mismatched-free
 *
 * Flags memory released by a call of another family: cudaFree on pinned host memory from
 * cudaMallocHost, free() on device memory, cudaFreeHost on cudaMalloc memory, delete on new[]
 * memory; and a free given a pointer offset from the one the allocation returned. The CUDA call
 * fails with cudaErrorInvalidValue and the memory stays allocated; a host free() of such a
 * pointer corrupts the heap.
 *
 *   bad:  cudaMallocHost(&h, n); ... cudaFree(h);
 *   good: cudaMallocHost(&h, n); ... cudaFreeHost(h); */
#include "rules.h"

extern const gm_rule gm002_mismatched_free;

#include <stdlib.h>

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind != GM_FACT_MISMATCH && f->kind != GM_FACT_OFFSET_FREE)
      continue;
    char *what = gm_describe_allocation(f);
    char *freer = f->via ? gm_xasprintf("%s (which calls %s)", f->free_name, f->via)
                         : gm_xstrdup(f->free_name);
    gm_finding *out;
    if (f->kind == GM_FACT_MISMATCH) {
      const char *right = f->family ? f->family->free_fn : "the matching free";
      const char *wrong =
          f->nfree_families ? f->free_families[0]->description : "another kind of memory";
      out = gm_report_add(ctx->report, &gm002_mismatched_free, f->at->loc, ctx->fn->name,
                          "%s is released with %s, which frees %s; use %s", what, freer, wrong,
                          right);
    } else {
      out = gm_report_add(ctx->report, &gm002_mismatched_free, f->at->loc, ctx->fn->name,
                          "%s is given to %s at an offset from the pointer the allocation "
                          "returned; pass the original pointer",
                          what, freer);
    }
    if (f->alloc)
      gm_finding_note(out, f->alloc->loc, "allocated here with %s", gm_call_display_name(f->alloc));
    free(what);
    free(freer);
  }
}

const gm_rule gm002_mismatched_free = {
    .id = "GM002",
    .name = "mismatched-free",
    .summary = "Memory is freed by a function of another allocator family.",
    .description =
        "Memory is released by a call that does not own it: cudaFree on pinned host memory from "
        "cudaMallocHost, free() on device memory, cudaFreeHost on cudaMalloc memory, delete on "
        "memory from new[], or any free given a pointer offset from what the allocation "
        "returned. The CUDA call fails and the memory stays allocated; a host free() of such a "
        "pointer corrupts the heap.",
    .fix = "Release each allocation with its own family's free (cudaMalloc/cudaFree, "
           "cudaMallocHost/cudaFreeHost, cudaMallocArray/cudaFreeArray, malloc/free, new/delete, "
           "new[]/delete[]) and pass the pointer the allocation returned.",
    .check = check,
};
