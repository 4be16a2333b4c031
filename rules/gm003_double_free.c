/* GM003 double-free
 *
 * Flags a pointer freed twice on some path without being reassigned in between. A second
 * cudaFree returns an error that is easy to ignore, but if the address was handed out again in
 * between, it frees someone else's buffer; a second host free() corrupts the heap.
 *
 *   bad:  cudaFree(d); if (err) { cudaFree(d); return; }
 *   good: cudaFree(d); d = nullptr;   // a later cudaFree(nullptr) does nothing */
#include "rules.h"

extern const gm_rule gm003_double_free;

#include <stdlib.h>

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind != GM_FACT_DOUBLE_FREE)
      continue;
    gm_finding *out;
    const char *first = f->first_free ? gm_call_display_name(f->first_free) : "a free";
    if (f->alloc) {
      char *what = gm_describe_allocation(f);
      out = gm_report_add(ctx->report, &gm003_double_free, f->at->loc, ctx->fn->name,
                          "%s is freed twice: %s already released it on this path; set the "
                          "pointer to null after freeing it, or free it in one place",
                          what, first);
      free(what);
    } else {
      out = gm_report_add(ctx->report, &gm003_double_free, f->at->loc, ctx->fn->name,
                          "'%s' is freed twice: %s already released it on this path; set the "
                          "pointer to null after freeing it, or free it in one place",
                          f->var ? f->var : "the pointer", first);
    }
    if (f->first_free)
      gm_finding_note(out, f->first_free->loc, "first freed here");
    if (f->alloc)
      gm_finding_note(out, f->alloc->loc, "allocated here with %s", gm_call_display_name(f->alloc));
  }
}

const gm_rule gm003_double_free = {
    .id = "GM003",
    .name = "double-free",
    .summary = "A pointer is freed twice on some path.",
    .description =
        "The same allocation is released twice on one path with no reassignment in between. A "
        "second cudaFree returns an error that is easy to ignore, but if the address was handed "
        "out again in between it releases another buffer; a second host free() corrupts the "
        "heap.",
    .fix = "Free each allocation in one place, or set the pointer to null right after freeing "
           "it (freeing null is a no-op for cudaFree, free and delete).",
    .check = check,
};
