/* GM003 double-free
 *
 * Flags a pointer freed twice on some path without being reassigned in between. A second
 * cudaFree returns an error that is easy to ignore, but if the address was handed out again in
 * between, it frees someone else's buffer; a second host free() corrupts the heap.
 *
 *   bad:  cudaFree(d); if (err) { cudaFree(d); return; }
 *   good: cudaFree(d); d = nullptr;   // a later cudaFree(nullptr) does nothing */
#include "join.h"
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

/* Runtime verdict (docs/rules/GM003.md): the runtime counts double frees on the allocation
 * site (the related "allocated here" location). Confirmed when it saw any; dismissed when the
 * second free ran and none was seen; otherwise as GM002. */
static gm_verdict judge(gm_judge_ctx *c) {
  const gm_finding *f = c->finding;
  const gm_related *alloc_at = gm_judge_related(f, "allocated here");
  if (!alloc_at)
    return gm_judge_say(c, GM_VERDICT_UNVERIFIABLE,
                        "the finding names no allocation site, and double frees are counted there");
  const gm_tsite *s = gm_judge_find(c, alloc_at->loc, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, alloc_at->loc, "allocation");
  c->site = s;
  char *frees = gm_site_frees_text(s);
  gm_verdict v;
  if (s->double_frees) {
    v = gm_judge_say(c, GM_VERDICT_CONFIRMED,
                     "%llu double %s of memory from %s at line %u (%llu %s, frees by API: %s)",
                     (unsigned long long)s->double_frees,
                     gm_plural(s->double_frees, "free", "frees"), s->api, s->line,
                     (unsigned long long)s->calls, gm_plural(s->calls, "allocation", "allocations"),
                     frees);
  } else {
    const gm_tsite *fs = gm_judge_find(c, f->loc, GM_SITE_FREE);
    if (gm_site_ran(fs))
      v = gm_judge_say(c, GM_VERDICT_DISMISSED,
                       "the second free ran %llu %s and never freed this site's memory twice "
                       "(frees by API: %s)",
                       (unsigned long long)fs->free_calls,
                       gm_plural(fs->free_calls, "time", "times"), frees);
    else
      v = gm_judge_unseen(c, fs, f->loc, "free");
  }
  free(frees);
  return v;
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
    .judge = judge,
};
