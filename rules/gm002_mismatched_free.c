/* GM002 mismatched-free
 *
 * Flags memory released by a call of another family: cudaFree on pinned host memory from
 * cudaMallocHost, free() on device memory, cudaFreeHost on cudaMalloc memory, delete on new[]
 * memory; a free given a pointer offset from the one the allocation returned; and a free of
 * storage no allocator made (a __device__ or local array, the address of a variable, a string
 * literal), directly or through a pointer a local assignment set to it. The CUDA call fails with
 * cudaErrorInvalidValue and the memory stays allocated; a host free() of such a pointer corrupts
 * the heap.
 *
 *   bad:  cudaMallocHost(&h, n); ... cudaFree(h);
 *   good: cudaMallocHost(&h, n); ... cudaFreeHost(h);
 *
 * Across functions and files (whole-program analysis): a struct or class member allocated in one
 * function (a constructor, an init) and freed with another family's call in another (the
 * destructor, a cleanup). Within one function the flow engine's facts cover it. */
#include "rules/rules.h"
#include "runtime_view/join.h"

extern const gm_rule gm002_mismatched_free;

#include <stdlib.h>
#include <string.h>

/* `cudaFree(d_table)` of `__device__ float d_table[N]`, `free(&x)`, `float *p = buf; free(p)`. */
static void report_unallocated(const gm_check_ctx *ctx, const gm_fact *f) {
  char *object;
  if (f->through)
    object = f->var
                 ? gm_xasprintf("'%s', which points to '%s', %s,", f->through, f->var, f->storage)
                 : gm_xasprintf("'%s', which points to %s,", f->through, f->storage);
  else
    object = !f->var            ? gm_xstrdup(f->storage)
             : f->freed_address ? gm_xasprintf("the address of '%s', %s,", f->var, f->storage)
                                : gm_xasprintf("'%s', %s,", f->var, f->storage);
  char *freer =
      f->via ? gm_xasprintf("%s (which calls %s)", f->free_name, f->via) : gm_xstrdup(f->free_name);
  const char *releases = f->nfree_families ? f->free_families[0]->description : "memory";
  char *fix = f->freed_address == 2
                  ? gm_xasprintf("release what '%s' points to, not its address", f->var)
                  : gm_xstrdup("nothing allocated it, so remove the call");
  gm_report_add(ctx->report, &gm002_mismatched_free, f->at->loc, ctx->fn->name,
                "%s is released with %s, which releases only %s an allocation call returned; %s",
                object, freer, releases, fix);
  free(fix);
  free(object);
  free(freer);
}

static int same_file(const gm_node *a, const gm_node *b) {
  return a->loc.file && b->loc.file && strcmp(a->loc.file, b->loc.file) == 0;
}

/* Whether the wrong pairing lives in the helpers alone: memory allocated inside one helper and
 * freed inside another, both defined in one other file (a header every caller includes). That
 * file's free is the defect, whichever caller joins the two, so it is reported there, and the
 * callers' copies collapse into one (the driver keeps one of a finding outside its own file). */
static int pairing_in_other_file(const gm_fact *f) {
  const gm_node *in_alloc = f->inner_alloc, *in_free = f->inner_free;
  return f->kind == GM_FACT_MISMATCH && f->alloc && in_alloc && in_free && in_alloc != f->alloc &&
         in_free != f->at && !same_file(in_free, f->at) && same_file(in_alloc, in_free);
}

/* The function whose body holds node n, or NULL. */
static const gm_func *function_holding(const gm_tu *tu, const gm_node *n) {
  while (n->parent)
    n = n->parent;
  for (int i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->body == n)
      return tu->funcs[i];
  return NULL;
}

static void report_in_helpers(const gm_check_ctx *ctx, const gm_fact *f) {
  const gm_func *allocator = function_holding(ctx->tu, f->inner_alloc);
  const gm_func *freer = function_holding(ctx->tu, f->inner_free);
  const char *alloc_in = allocator ? allocator->name : "?", *free_in = freer ? freer->name : "?";
  const char *what = f->family ? f->family->description : "memory";
  const char *right = f->family ? f->family->free_fn : "the matching free";
  const char *wrong =
      f->nfree_families ? f->free_families[0]->description : "another kind of memory";
  gm_finding *out =
      gm_report_add(ctx->report, &gm002_mismatched_free, f->inner_free->loc, free_in,
                    "%s from %s in '%s' is released with %s in '%s', which frees %s; use %s", what,
                    gm_call_display_name(f->inner_alloc), alloc_in,
                    gm_call_display_name(f->inner_free), free_in, wrong, right);
  gm_finding_note(out, f->inner_alloc->loc, "allocated here with %s",
                  gm_call_display_name(f->inner_alloc));
  gm_finding_note(out, f->alloc->loc, "'%s' gets the memory here, from %s", ctx->fn->name,
                  gm_call_display_name(f->alloc));
  gm_finding_note(out, f->at->loc, "and gives it to %s here", gm_call_display_name(f->at));
  gm_finding_site(out, f->inner_alloc->loc);
}

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind == GM_FACT_FREE_UNALLOCATED)
      report_unallocated(ctx, f);
    if (f->kind != GM_FACT_MISMATCH && f->kind != GM_FACT_OFFSET_FREE)
      continue;
    if (pairing_in_other_file(f)) {
      report_in_helpers(ctx, f);
      continue;
    }
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
    if (f->alloc) {
      gm_finding_note(out, f->alloc->loc, "allocated here with %s", gm_call_display_name(f->alloc));
      gm_finding_site(out, f->alloc->loc);
    }
    if (f->alias_call)
      gm_finding_note(out, f->alias_call->loc, "%s gives the same block another address here",
                      gm_call_display_name(f->alias_call));
    free(what);
    free(freer);
  }
}

static int same_function(const gm_unit_member_use *a, const gm_unit_member_use *b) {
  return a->function_usr && b->function_usr && strcmp(a->function_usr, b->function_usr) == 0;
}

/* Whether one of the uses (a member's allocations, its aliases) is made in the function that
 * makes `in`, the free being judged: the flow engine follows both there. */
static int made_in(const gm_member_use_ref *uses, size_t n, const gm_unit_member_use *in) {
  for (size_t i = 0; i < n; i++)
    if (same_function(uses[i].use, in))
      return 1;
  return 0;
}

/* An element of a table (`bufs[]`): the flow engine follows no element, so a free of one is
 * judged here even in the function that allocates it. */
static int is_element(const gm_member_summary *m) {
  size_t n = strlen(m->member);
  return n > 2 && strcmp(m->member + n - 2, "[]") == 0;
}

/* Why the program need not judge a free of member m, or NULL when it must: on every path the
 * free receives a block its own function allocated, whose family the flow engine judged (and
 * reported) there. A free that some path gives what the member held on entry (`free(h_);
 * cudaMallocHost(&h_, n);` growing a buffer the constructor pinned) frees a block another
 * function made: the program's allocations of the member say its family. */
static const char *judged_by_flow(const gm_member_summary *m, const gm_unit_member_use *fr) {
  if (is_element(m) || !fr->own_block)
    return NULL;
  return "the free receives a block its own function allocated, judged by the flow engine";
}

/* A member holding another address of a sibling's block (cudaHostGetDevicePointer's device
 * address of mapped pinned memory) freed with a call that does not release the sibling's
 * family: the block is the sibling's, freed through the sibling's own call. */
static void check_aliases(const gm_program_ctx *ctx) {
  size_t n;
  const gm_member_summary *members = gm_program_all_members(ctx->program, &n);
  for (size_t i = 0; i < n; i++) {
    const gm_member_summary *m = &members[i];
    if (!m->aliases.len || m->allocs.len || m->assigned_other)
      continue; /* it may also hold a block of its own */
    const gm_unit_member_use *alias = m->aliases.items[0].use;
    const gm_member_summary *src = gm_program_sibling_named(ctx->program, m, alias->source);
    if (!src || !src->allocs.len || src->assigned_other)
      continue;
    /* the allocation the alias was taken from: one in the same function, if any */
    const gm_unit_member_use *al = src->allocs.items[0].use;
    for (size_t a = 0; a < src->allocs.len; a++)
      if (same_function(src->allocs.items[a].use, alias))
        al = src->allocs.items[a].use;
    for (size_t k = 0; k < m->frees.len; k++) {
      const gm_unit_member_use *fr = m->frees.items[k].use;
      if (fr->nfrees == 0 || gm_member_free_releases(fr, al->family.name))
        continue;
      if (made_in(m->aliases.items, m->aliases.len, fr))
        continue; /* the flow engine follows both addresses there */
      gm_report *r = ctx->report_for(ctx->arg, m->frees.items[k].unit, &gm002_mismatched_free);
      if (!r)
        continue;
      gm_finding *f = gm_report_add(
          r, &gm002_mismatched_free, fr->loc, fr->function ? fr->function : "",
          "'%s::%s' is another address of '%s::%s' (%s from %s, allocated in '%s'), given by "
          "%s; releasing it with %s is wrong: free '%s::%s' with %s",
          m->record_name, m->member, src->record_name, src->member, al->family.description, al->api,
          al->function ? al->function : "?", alias->api, fr->api, src->record_name, src->member,
          al->family.free_fn ? al->family.free_fn : "the matching free");
      gm_finding_note(f, al->loc, "allocated here with %s", al->api);
      gm_finding_note(f, alias->loc, "%s gives the same block another address here", alias->api);
      gm_finding_site(f, al->loc);
    }
  }
}

static void check_program(const gm_program_ctx *ctx) {
  size_t n;
  const gm_member_summary *members = gm_program_members(ctx->program, &n);
  for (size_t i = 0; i < n; i++) {
    const gm_member_summary *m = &members[i];
    /* what else it may hold (a new[] the table could not type, a borrowed pointer) could be
     * what this free releases */
    if (m->global && !gm_program_sees_global(ctx->program, m))
      continue; /* another file the run does not see may store other memory in it */
    for (size_t k = 0; k < m->frees.len && !m->assigned_other; k++) {
      const gm_unit_member_use *fr = m->frees.items[k].use;
      int released = fr->nfrees == 0; /* a free of no known family: nothing to judge */
      for (size_t a = 0; a < m->allocs.len && !released; a++)
        released = gm_member_free_releases(fr, m->allocs.items[a].use->family.name);
      if (released)
        continue;
      gm_report *r = ctx->report_for(ctx->arg, m->frees.items[k].unit, &gm002_mismatched_free);
      if (!r)
        continue;
      const gm_unit_member_use *al = m->allocs.items[0].use;
      char *who =
          m->global ? gm_xstrdup(m->member) : gm_xasprintf("%s::%s", m->record_name, m->member);
      const char *flow_judged = judged_by_flow(m, fr);
      if (flow_judged) {
        gm_report_suppressed(r, &gm002_mismatched_free, "own-block", fr->loc,
                             fr->function ? fr->function : "",
                             "'%s' is also given %s from %s elsewhere, and released here with "
                             "%s: %s",
                             who, al->family.description, al->api, fr->api, flow_judged);
        free(who);
        continue;
      }
      gm_finding *f = gm_report_add(
          r, &gm002_mismatched_free, fr->loc, fr->function ? fr->function : "",
          "'%s' (%s from %s, allocated in '%s') is released with %s, which does not free it; "
          "use %s",
          who, al->family.description, al->api, al->function ? al->function : "?", fr->api,
          al->family.free_fn ? al->family.free_fn : "the matching free");
      free(who);
      gm_finding_note(f, al->loc, "allocated here with %s", al->api);
      gm_finding_site(f, al->loc);
    }
  }
  check_aliases(ctx);
}

/* Runtime verdict (docs/rules/GM002.md): the runtime counts wrong-family frees on the
 * allocation site (gm_finding.site). Confirmed when it saw any; dismissed when the free ran and
 * none was seen; not-exercised when the allocation or the free never ran; unverifiable when the
 * free is a host call the runtime does not hook (free, delete). */
static gm_verdict judge(gm_judge_ctx *c) {
  const gm_finding *f = c->finding;
  if (!f->site.file)
    return gm_judge_say(c, GM_VERDICT_UNVERIFIABLE, "the finding names no allocation site");
  const gm_tsite *s = gm_judge_find(c, f->site, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, f->site, "allocation");
  c->site = s;
  char *frees = gm_site_frees_text(s);
  gm_verdict v;
  if (s->wrong_family_frees) {
    v = gm_judge_say(c, GM_VERDICT_CONFIRMED,
                     "%llu wrong-family %s of memory from %s at line %u (threshold: 1; frees by "
                     "API: %s)%s%s",
                     (unsigned long long)s->wrong_family_frees,
                     gm_plural(s->wrong_family_frees, "free", "frees"), s->api, s->line, frees,
                     s->live_count_exit ? ", still live at exit: " : "",
                     s->live_count_exit ? gm_bytes(s->live_bytes_exit).s : "");
  } else {
    const gm_tsite *fs = gm_judge_find(c, f->loc, GM_SITE_FREE);
    if (gm_site_ran(fs))
      v = gm_judge_say(c, GM_VERDICT_DISMISSED,
                       "the free ran %llu %s and never released this site's memory with the "
                       "wrong family (threshold: 1 wrong-family free; frees by API: %s)",
                       (unsigned long long)fs->free_calls,
                       gm_plural(fs->free_calls, "time", "times"), frees);
    else
      v = gm_judge_unseen(c, fs, f->loc, "free");
  }
  free(frees);
  return v;
}

const gm_rule gm002_mismatched_free = {
    .id = "GM002",
    .name = "mismatched-free",
    .summary = "Memory is freed by a function of another allocator family.",
    .description =
        "Memory is released by a call that does not own it: cudaFree on pinned host memory from "
        "cudaMallocHost, free() on device memory, cudaFreeHost on cudaMalloc memory, delete on "
        "memory from new[], any free given a pointer offset from what the allocation "
        "returned, or a free of storage no allocator made (a __device__ or local array, the "
        "address of a variable, a string literal). The CUDA call fails and the memory stays "
        "allocated; a host free() of such a pointer corrupts the heap.",
    .fix = "Release each allocation with its own family's free (cudaMalloc/cudaFree, "
           "cudaMallocHost/cudaFreeHost, cudaMallocArray/cudaFreeArray, malloc/free, new/delete, "
           "new[]/delete[]) and pass the pointer the allocation returned.",
    .check = check,
    .check_program = check_program,
    .judge = judge,
};
