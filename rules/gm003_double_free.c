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
 * the other places (many paths, a cleanup macro expanded after each failed call) are notes.
 *
 * An object passed by value, copied member by member (an implicit or defaulted copy constructor),
 * gives the copy its pointers: the copy's destructor frees them when the call ends, and the
 * original frees them again (its own destructor, another copy's). That is reported at the argument,
 * where the fix goes, with the other frees as notes.
 *
 *   bad:  struct Buf { float *d; ~Buf() { cudaFree(d); } };  void use(Buf b);  use(buf);
 *   good: void use(const Buf &b);   // or Buf(const Buf &) = delete; */
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

/* An lvalue as written: `b`, `s.buf`. */
static char *lvalue_text(const gm_node *n) {
  if (n && n->kind == GM_N_VAR && n->name)
    return gm_xasprintf("%s", n->name);
  if (n && n->kind == GM_N_FIELD && n->name && gm_kid(n, 0)) {
    char *base = lvalue_text(n->kids[0]);
    char *r = gm_xasprintf("%s.%s", base, n->name);
    free(base);
    return r;
  }
  return gm_xasprintf("the object");
}

/* The note at another place that frees it: an object's destructor at the end of its scope,
 * another by-value copy's, or a free as written. */
static void note_again(gm_finding *out, const gm_node *at, const char *dtor, const char *more) {
  if (at->implicit_dtor && at->object) {
    char *obj = lvalue_text(at->object);
    gm_finding_note(out, at->loc, "'%s' is destroyed here, and %s frees it again%s", obj, dtor,
                    more);
    free(obj);
  } else if (at->copy_dtor) {
    gm_finding_note(out, at->loc, "passed by value again here: that copy frees it again%s", more);
  } else {
    gm_finding_note(out, at->loc, "freed again here%s", more);
  }
}

/* The first free is the destructor of a by-value argument's copy (GM_N_VAR/FIELD copy_dtor). */
static void report_copy(const gm_check_ctx *ctx, const gm_fact *f, const gm_fact **again,
                        int nagain) {
  const gm_node *arg = f->first_free;
  const gm_node *call = arg->parent && arg->parent->kind == GM_N_CALL ? arg->parent : NULL;
  const gm_node *copied = arg->kind == GM_N_CALL && arg->nkids == 1 ? arg->kids[0] : arg;
  const char *dtor = f->first_free_name ? f->first_free_name : "its destructor";
  const char *cls = dtor[0] == '~' ? dtor + 1 : "the class";
  char *obj = lvalue_text(copied); /* `std::move(b)` copies b */
  char *what = gm_xasprintf("'%s'", f->var ? f->var : "its pointer");
  gm_finding *out;
  /* the copy is made by the compiler's constructor: a copy of the pointers, not the buffers */
  char *made = gm_xasprintf("made member by member (%s's copy or move constructor is implicit or "
                            "defaulted), frees it in %s",
                            cls, dtor);
  if (call && call->is_launch)
    out = gm_report_add(ctx->report, &gm003_double_free, arg->loc, ctx->fn->name,
                        "%s is freed twice: '%s' is passed by value to kernel '%s', and the "
                        "launch's copy of it, %s as soon as the launch returns, while the kernel "
                        "may still use it; pass the kernel the pointer or a view without a "
                        "destructor, or give %s a copy constructor that copies the buffer (or "
                        "delete it)",
                        what, obj, call->name, made, cls);
  else
    out = gm_report_add(ctx->report, &gm003_double_free, arg->loc, ctx->fn->name,
                        "%s is freed twice: '%s' is passed by value to '%s', and the copy, %s "
                        "when the call ends; pass %s by reference or by pointer, or give %s a "
                        "copy constructor that copies the buffer (or delete it)",
                        what, obj, call && call->name ? call->name : "a function", made, obj, cls);
  free(made);
  free(what);
  free(obj);
  if (f->inner_free && f->inner_free != arg)
    gm_finding_note(out, f->inner_free->loc, "the copy's destructor frees it here");
  int shown = nagain < MAX_AGAIN_NOTES ? nagain : MAX_AGAIN_NOTES;
  for (int k = 0; k < shown; k++) {
    char *more = k == shown - 1 && nagain > shown
                     ? gm_xasprintf(", and at %d more %s", nagain - shown,
                                    nagain - shown == 1 ? "place" : "places")
                     : gm_xasprintf("%s", "");
    note_again(out, again[k]->at, dtor, more);
    free(more);
  }
}

static void report(const gm_check_ctx *ctx, const gm_fact *f, const gm_fact **again, int nagain) {
  gm_finding *out;
  const char *first = f->first_free ? gm_call_display_name(f->first_free) : "a free";
  char *what =
      f->alloc ? gm_describe_allocation(f) : gm_xasprintf("'%s'", f->var ? f->var : "the pointer");
  if (f->at->implicit_dtor && f->at->object) {
    /* the second free is an object's destructor where its scope ends */
    char *obj = lvalue_text(f->at->object);
    out = gm_report_add(ctx->report, &gm003_double_free, f->at->loc, ctx->fn->name,
                        "%s is freed twice: %s already released it, and '%s' is destroyed here, "
                        "where %s frees it again; set the member to null after freeing it, or "
                        "leave the freeing to %s",
                        what, first, obj, f->free_name ? f->free_name : "its destructor",
                        f->free_name ? f->free_name : "the destructor");
    free(obj);
  } else if (nagain)
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
    /* reported at the first place that frees it again, the others as notes; a by-value copy's
       at the argument */
    if (group[0]->first_free && group[0]->first_free->copy_dtor)
      report_copy(ctx, group[0], group, n);
    else
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
