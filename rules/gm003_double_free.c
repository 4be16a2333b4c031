/* GM003 double-free
 *
 * Flags a pointer freed twice on some path without being reassigned in between. A second
 * cudaFree returns an error that is easy to ignore, but if the address was handed out again in
 * between, it frees someone else's buffer; a second host free() corrupts the heap.
 *
 *   bad:  cudaFree(d); if (err) { cudaFree(d); return; }
 *   good: cudaFree(d); d = nullptr;   // a later cudaFree(nullptr) does nothing
 *
 * One finding per variable and first free in a function, at the first place that frees it again;
 * the other places (many paths, a cleanup macro expanded after each failed call) are notes. */
#include "rules/rules.h"
#include "runtime_view/join.h"

extern const gm_rule gm003_double_free;

#include <stdlib.h>
#include <string.h>

/* The other places a grouped double free happens that get a note of their own; the rest are
 * counted in the last one. */
enum { MAX_AGAIN_NOTES = 3 };

static int same_loc(gm_loc a, gm_loc b) {
  return a.line == b.line && a.col == b.col &&
         (a.file == b.file || (a.file && b.file && strcmp(a.file, b.file) == 0));
}

static int loc_before(gm_loc a, gm_loc b) {
  return a.line != b.line ? a.line < b.line : a.col < b.col;
}

/* One finding per defect: facts about the same variable (or, unnamed, the same allocation) whose
 * first free is at the same place are one double free, however many paths or expansions of a
 * cleanup macro free it again. */
static int same_defect(const gm_fact *a, const gm_fact *b) {
  if (!a->first_free || !b->first_free)
    return a == b;
  if (!same_loc(a->first_free->loc, b->first_free->loc))
    return 0;
  if (a->var || b->var)
    return a->var && b->var && strcmp(a->var, b->var) == 0;
  return a->alloc == b->alloc;
}

static void report(const gm_check_ctx *ctx, const gm_fact *f, const gm_fact **again, int nagain) {
  gm_finding *out;
  const char *first = f->first_free ? gm_call_display_name(f->first_free) : "a free";
  char *what =
      f->alloc ? gm_describe_allocation(f) : gm_xasprintf("'%s'", f->var ? f->var : "the pointer");
  if (nagain)
    out = gm_report_add(ctx->report, &gm003_double_free, f->at->loc, ctx->fn->name,
                        "%s is freed twice, here and at %d other %s: %s already released it on "
                        "those paths; set the pointer to null after freeing it, or free it in "
                        "one place",
                        what, nagain, nagain == 1 ? "place" : "places", first);
  else
    out = gm_report_add(ctx->report, &gm003_double_free, f->at->loc, ctx->fn->name,
                        "%s is freed twice: %s already released it on this path; set the "
                        "pointer to null after freeing it, or free it in one place",
                        what, first);
  free(what);
  if (f->first_free)
    gm_finding_note(out, f->first_free->loc, "first freed here");
  if (f->alloc) {
    gm_finding_note(out, f->alloc->loc, "allocated here with %s", gm_call_display_name(f->alloc));
    gm_finding_site(out, f->alloc->loc);
  }
  if (f->alias_call)
    gm_finding_note(out, f->alias_call->loc, "%s gives the same block another address here",
                    gm_call_display_name(f->alias_call));
  int shown = nagain < MAX_AGAIN_NOTES ? nagain : MAX_AGAIN_NOTES;
  for (int k = 0; k < shown; k++) {
    if (k == shown - 1 && nagain > shown)
      gm_finding_note(out, again[k]->at->loc, "freed again here, and at %d more %s", nagain - shown,
                      nagain - shown == 1 ? "place" : "places");
    else
      gm_finding_note(out, again[k]->at->loc, "freed again here");
  }
}

static void check(const gm_check_ctx *ctx) {
  const gm_fact **group = gm_xcalloc((size_t)ctx->nfacts + 1, sizeof *group);
  char *done = gm_xcalloc((size_t)ctx->nfacts + 1, 1);
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind != GM_FACT_DOUBLE_FREE || done[i])
      continue;
    /* the group's second frees, one per place, in source order */
    int n = 0;
    for (int k = i; k < ctx->nfacts; k++) {
      const gm_fact *g = &ctx->facts[k];
      if (g->kind != GM_FACT_DOUBLE_FREE || done[k] || !same_defect(f, g))
        continue;
      done[k] = 1;
      int j = 0;
      while (j < n && !same_loc(group[j]->at->loc, g->at->loc))
        j++;
      if (j < n)
        continue;
      for (j = n++; j > 0 && loc_before(g->at->loc, group[j - 1]->at->loc); j--)
        group[j] = group[j - 1];
      group[j] = g;
    }
    /* reported at the first place that frees it again, the others as notes */
    report(ctx, group[0], group + 1, n - 1);
  }
  free(group);
  free(done);
}

/* Runtime verdict (docs/rules/GM003.md): the runtime counts double frees on the allocation
 * site (gm_finding.site). Confirmed when it saw any; dismissed when the second free ran and none
 * was seen; otherwise as GM002. */
static gm_verdict judge(gm_judge_ctx *c) {
  const gm_finding *f = c->finding;
  if (!f->site.file)
    return gm_judge_say(c, GM_VERDICT_UNVERIFIABLE,
                        "the finding names no allocation site, and double frees are counted there");
  const gm_tsite *s = gm_judge_find(c, f->site, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, f->site, "allocation");
  c->site = s;
  char *frees = gm_site_frees_text(s);
  gm_verdict v;
  if (s->double_frees) {
    v = gm_judge_say(c, GM_VERDICT_CONFIRMED,
                     "%llu double %s of memory from %s at line %u (threshold: 1; %llu %s, frees "
                     "by API: %s)",
                     (unsigned long long)s->double_frees,
                     gm_plural(s->double_frees, "free", "frees"), s->api, s->line,
                     (unsigned long long)s->calls, gm_plural(s->calls, "allocation", "allocations"),
                     frees);
  } else {
    const gm_tsite *fs = gm_judge_find(c, f->loc, GM_SITE_FREE);
    if (gm_site_ran(fs))
      v = gm_judge_say(c, GM_VERDICT_DISMISSED,
                       "the second free ran %llu %s and never freed this site's memory twice "
                       "(threshold: 1 double free; frees by API: %s)",
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
