/* GM001 unpaired-allocation
 *
 * Flags an allocation that some path leaves without freeing: an early return on an error path, a
 * free in only one branch, the only pointer overwritten (often in a loop). Leaked device memory
 * is not returned until the process exits, so a long-running service or a training loop runs out
 * of memory a little at a time.
 *
 *   bad:  cudaMalloc(&a, n); if (cudaMalloc(&b, n) != cudaSuccess) return -1;  // a leaks
 *   good: ... if (cudaMalloc(&b, n) != cudaSuccess) { cudaFree(a); return -1; }
 *
 * Not raised where the process ends (a return from main, a call to exit): that is GM005's, off by
 * default, since the system releases the memory then and a program that keeps running is what
 * runs out of it.
 *
 * Also an allocation into a global table's element that a loop refills for the same element
 * (`fill_slot(0, n)` in a loop, fill_slot doing `cudaMalloc(&slots[i], n)`).
 *
 * Not raised when ownership leaves the function: returned, stored through an out-parameter, into
 * a struct, a global or a member, or passed to a function that may keep it. Host heap memory
 * (malloc, new) is GM004's. */
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

extern const gm_rule gm001_unpaired_allocation;

#include <stdlib.h>
#include <string.h>

/* The leak finding for one fact, worded by how the memory is lost; GM001 (GPU memory) and GM004
 * (host heap) share it. A leak only on paths after a failed call (f->error_path) says "on an
 * error path" and is a note (SARIF level, JSON severity): it matters less than one on the normal
 * path, and real programs hold many just before they exit. */
void gm_report_leak(const gm_check_ctx *ctx, const gm_rule *rule, const gm_fact *f) {
  char *what = gm_describe_allocation(f);
  const char *free_fn = f->family ? f->family->free_fn : "the matching free";
  const char *fn = ctx->fn->name;
  const char *q = f->var ? "'" : "", *var = f->var ? f->var : "it";
  int err = f->error_path;
  gm_finding *out = NULL;
  switch (f->exit) {
  case GM_EXIT_RETURN:
    out = gm_report_add(ctx->report, rule, f->alloc->loc, fn,
                        err ? "%s is not freed on an error path: a return after a failed call "
                              "leaves '%s' without releasing it; call %s before returning"
                            : "%s is not freed on every path: a return leaves '%s' without "
                              "releasing it; call %s before returning",
                        what, fn, free_fn);
    gm_finding_note(out, f->at->loc,
                    err ? "this return after a failed call leaves without freeing %s%s%s"
                        : "this return leaves without freeing %s%s%s",
                    q, var, q);
    break;
  case GM_EXIT_PROCESS:
    out = gm_report_add(ctx->report, rule, f->alloc->loc, fn,
                        "%s is not freed before '%s' ends the program with a success status; "
                        "call %s before exiting",
                        what, fn, free_fn);
    gm_finding_note(out, f->at->loc, "this exit leaves without freeing %s%s%s", q, var, q);
    break;
  case GM_EXIT_END:
    out = gm_report_add(ctx->report, rule, f->alloc->loc, fn,
                        err ? "%s is not freed on an error path: after a failed call '%s' "
                              "ends without releasing it; call %s when it is no longer needed"
                            : "%s is not freed on every path through '%s'; call %s when it is no "
                              "longer needed",
                        what, fn, free_fn);
    gm_finding_note(out, f->at->loc,
                    err ? "after a failed call '%s' ends here without freeing %s%s%s"
                        : "'%s' ends here without freeing %s%s%s",
                    fn, q, var, q);
    break;
  case GM_EXIT_OVERWRITE:
    out = gm_report_add(ctx->report, rule, f->alloc->loc, fn,
                        err ? "%s leaks on an error path: after a failed call its only pointer "
                              "is overwritten before it is freed; call %s first"
                            : "%s leaks: its only pointer is overwritten before it is freed; call "
                              "%s first%s",
                        what, free_fn,
                        gm_enclosing_loop(f->alloc) ? ", or allocate once outside the loop" : "");
    if (f->skipped_by)
      gm_finding_note(out, f->skipped_by->loc, "this continue skips the free");
    gm_finding_note(out, f->at->loc, "overwritten here while it still owns the memory");
    break;
  case GM_EXIT_REDECLARE:
    if (f->skipped_by) {
      out = gm_report_add(ctx->report, rule, f->alloc->loc, fn,
                          err ? "%s leaks on an error path: after a failed call the loop goes "
                                "round again without freeing it; call %s before continuing"
                              : "%s leaks when an iteration ends early: the loop goes round "
                                "again without freeing it; call %s before continuing",
                          what, free_fn);
      gm_finding_note(out, f->skipped_by->loc, "this continue skips the free");
    } else {
      out = gm_report_add(ctx->report, rule, f->alloc->loc, fn,
                          err ? "%s leaks on an error path: after a failed call the iteration "
                                "reaches its next declaration without freeing it; call %s "
                                "before the iteration ends"
                              : "%s leaks on each iteration that reaches its next declaration "
                                "without freeing it; call %s before the iteration ends",
                          what, free_fn);
    }
    gm_finding_note(out, f->at->loc, "declared again here on the next iteration");
    break;
  }
  if (out) {
    out->path = err ? GM_PATH_ERROR : GM_PATH_NORMAL;
    out->level = err ? GM_LEVEL_NOTE : GM_LEVEL_WARNING;
  }
  free(what);
}

/* An allocation into a global table's element that a loop makes again for the same element,
 * with nothing testing or freeing it in between (`fill_slot(0, n)` in a loop, fill_slot doing
 * `cudaMalloc(&slots[i], n)`): every call after the first overwrites the last block. The flow
 * engine does not follow a global array's elements across calls, so the model says it. */
static void report_refilled_slot(const gm_node *call, void *arg) {
  const gm_check_ctx *ctx = arg;
  gm_slot_refill r;
  if (call->kind != GM_N_CALL || !call->fn || call->fn->kind != GM_FN_ALLOC || !call->fn->family ||
      call->fn->family->heap || !gm_global_slot_refilled(ctx->tu, ctx->fn, call, &r))
    return;
  char *slot = r.index_name ? gm_xasprintf("%s[%s]", r.table->name, r.index_name)
                            : gm_xasprintf("%s[%lld]", r.table->name, r.index->value);
  const char *fn = ctx->fn->name;
  gm_finding *f = gm_report_add(
      ctx->report, &gm001_unpaired_allocation, call->loc, fn,
      "'%s' (%s from %s) leaks on each call of '%s' after the first: it overwrites the global "
      "table's element without testing or freeing the block stored there, and a loop calls "
      "'%s' for the same element; call %s on the old block first, or allocate only when the "
      "element is empty",
      slot, call->fn->family->description, gm_call_display_name(call), fn, fn,
      call->fn->family->free_fn ? call->fn->family->free_fn : "the matching free");
  gm_finding_note(f, r.call_in_loop->loc,
                  "'%s' calls '%s' here on every iteration of a loop, for the same element",
                  r.caller->name, fn);
  free(slot);
}

/* Host heap leaks (malloc, new) are GM004's, and leaks where the process ends (main returns, exit
 * is called) GM005's, both off by default. */
static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind == GM_FACT_LEAK && !(f->family && f->family->heap) && !f->ends_process)
      gm_report_leak(ctx, &gm001_unpaired_allocation, f);
  }
  if (!ctx->fn->is_kernel && !ctx->fn->is_device)
    gm_walk(ctx->fn->body, report_refilled_slot, (void *)ctx);
}

/* The allocation into m that the program makes whenever it runs its allocating function's
 * callers: under no branch of that function, which no caller calls under a branch; NULL if none. */
static const gm_member_use_ref *allocated_every_run(const gm_program *p,
                                                    const gm_member_summary *m) {
  for (size_t k = 0; k < m->allocs.len; k++) {
    const gm_unit_member_use *a = m->allocs.items[k].use;
    if (!a->conditional && !gm_program_called_on_some_calls(p, a->function_usr))
      return &m->allocs.items[k];
  }
  return NULL;
}

/* Whether a family is the rule's: the host heap for GM004, GPU memory for GM001. */
static int rule_family(const gm_unit_family *f, int heap) {
  return f->name && f->heap == heap && (heap || f->gpu);
}

/* A member the program allocates on every run and frees only in some cases of a release
 * function's switch, or on some branches of an if, with no free on every path anywhere, while
 * that function frees a sibling on every path (a whole teardown behind one flag, `if (w->ready)
 * { ... }`, is the object's state, not a forgotten case). */
static void report_partial_teardown(const gm_program_ctx *ctx, const gm_rule *rule,
                                    const gm_member_summary *m, int heap) {
  if (m->freed_every_path || m->assigned_other)
    return;
  const gm_member_use_ref *at = allocated_every_run(ctx->program, m);
  if (!at || !rule_family(&at->use->family, heap))
    return;
  const gm_unit_member_use *fr = NULL;
  const gm_member_use_ref *always = NULL;
  for (size_t k = 0; k < m->frees.len && !always; k++) {
    fr = m->frees.items[k].use;
    always = gm_program_sibling_freed_always(ctx->program, m, fr->function_usr);
  }
  gm_report *r = always ? ctx->report_for(ctx->arg, at->unit, rule) : NULL;
  if (!r)
    return;
  const gm_unit_member_use *a = at->use;
  const char *freer = fr->function ? fr->function : "?";
  int cases = fr->cover == 1;
  gm_finding *f = gm_report_add(
      r, rule, a->loc, a->function ? a->function : "",
      "'%s::%s' (%s from %s) is not freed on every path: '%s' releases it only %s, while "
      "'%s::%s' of the same %s is freed there on every path; free it %s with %s",
      m->record_name, m->member, a->family.description, a->api, freer,
      cases ? "in some cases of its switch" : "on some branches of an if", m->record_name,
      always->use->member, m->record_name,
      cases ? "in every case (or after the switch)" : "on every branch (or after the if)",
      a->family.free_fn ? a->family.free_fn : "the matching free");
  for (size_t k = 0; k < m->frees.len; k++) {
    const gm_unit_member_use *u = m->frees.items[k].use;
    if (u->function_usr && fr->function_usr && strcmp(u->function_usr, fr->function_usr) == 0)
      gm_finding_note(f, u->loc, "'%s::%s' is freed here, %s only", m->record_name, m->member,
                      u->cover == 1 ? "in this case of the switch" : "on this branch");
  }
}

/* Whether a member use is made in a method (a constructor) of the member's class. */
static int in_method_of(const gm_unit_member_use *u, const gm_unit_object *o) {
  size_t n = strlen(o->record);
  return u->function_usr && strncmp(u->function_usr, o->record, n) == 0 &&
         strncmp(u->function_usr + n, "@F@", 3) == 0;
}

/* What a member that no function frees shows of its object's life. */
typedef struct member_evidence {
  const gm_member_summary *sibling; /* a member of the same class that is freed */
  const gm_unit_teardown *dtor;     /* the class's destructor */
  const gm_unit_object *dies;       /* an object the program makes and destroys repeatedly */
} member_evidence;

/* Why a member that no function frees is no leak, or NULL when it is one (*ev: what says so).
 * It is one when something of its object is torn down (a sibling freed, a destructor that
 * frees nothing of it), or when the class has no teardown and the program destroys objects of
 * it while it runs (a local in a loop, or in a function other than main), the member filled by
 * the class's own methods: each object's block is lost with it. */
static const char *member_kept(const gm_program *p, const gm_member_summary *m,
                               member_evidence *ev) {
  *ev = (member_evidence){0};
  ev->sibling = gm_program_freed_sibling(p, m);
  if (ev->sibling)
    return NULL;
  ev->dtor = gm_program_teardown(p, m->record);
  if (ev->dtor)
    return ev->dtor->calls_elsewhere ? "its destructor calls a function of another file, which "
                                       "may free it"
                                     : NULL;
  const gm_unit_object *o = gm_program_object_dying(p, m->record);
  for (size_t k = 0; o && k < m->allocs.len && !ev->dies; k++)
    if (in_method_of(m->allocs.items[k].use, o))
      ev->dies = o;
  if (ev->dies)
    return NULL;
  return "nothing of its object is freed, and no object of its class is destroyed while the "
         "program runs: a process-lifetime cache or singleton";
}

void gm_report_member_leaks(const gm_program_ctx *ctx, const gm_rule *rule, int heap) {
  size_t n;
  const gm_member_summary *members = gm_program_members(ctx->program, &n);
  for (size_t i = 0; i < n; i++) {
    const gm_member_summary *m = &members[i];
    const gm_unit_member_use *a = m->allocs.items[0].use;
    if (m->global || m->handed_off)
      continue;
    if (m->frees.len) {
      report_partial_teardown(ctx, rule, m, heap);
      continue;
    }
    if (!rule_family(&a->family, heap))
      continue;
    member_evidence ev;
    const char *kept = member_kept(ctx->program, m, &ev);
    gm_report *r = ctx->report_for(ctx->arg, m->allocs.items[0].unit, rule);
    if (!r)
      continue;
    if (kept) {
      gm_report_suppressed(r, rule, ev.dtor ? "destructor-elsewhere" : "process-lifetime", a->loc,
                           a->function ? a->function : "",
                           "'%s::%s' (%s from %s) is never freed in the files analysed: %s",
                           m->record_name, m->member, a->family.description, a->api, kept);
      continue;
    }
    const gm_member_summary *sibling = ev.sibling;
    const gm_unit_teardown *dtor = ev.dtor;
    const char *free_fn = a->family.free_fn ? a->family.free_fn : "the matching free";
    if (ev.dies) {
      const gm_unit_object *o = ev.dies;
      gm_finding *f = gm_report_add(
          r, rule, a->loc, a->function ? a->function : "",
          "'%s::%s' (%s from %s) is never freed: '%s' has no destructor and no function in the "
          "program releases it, while '%s' makes a '%s' %s and destroys it, losing the block "
          "each time; free it in a destructor with %s",
          m->record_name, m->member, a->family.description, a->api, m->record_name,
          o->function ? o->function : "?", m->record_name,
          o->in_loop ? "on every iteration of a loop" : "on every call", free_fn);
      gm_finding_note(f, o->loc, "a '%s' made here goes out of scope without freeing '%s'",
                      m->record_name, m->member);
      continue;
    }
    if (dtor) {
      gm_finding *f = gm_report_add(
          r, rule, a->loc, a->function ? a->function : "",
          "'%s::%s' (%s from %s) is never freed: no function in the program releases it, while "
          "'%s' has a destructor, '%s', that does not; free it there with %s",
          m->record_name, m->member, a->family.description, a->api, m->record_name,
          dtor->name ? dtor->name : "?", free_fn);
      gm_finding_note(f, dtor->loc, "'%s' is defined here", dtor->name ? dtor->name : "?");
      continue;
    }
    const gm_unit_member_use *freed = sibling->frees.items[0].use;
    gm_finding *f = gm_report_add(
        r, rule, a->loc, a->function ? a->function : "",
        "'%s::%s' (%s from %s) is never freed: no function in the program releases it, while "
        "'%s::%s' of the same %s is freed in '%s'; free it there with %s",
        m->record_name, m->member, a->family.description, a->api, sibling->record_name,
        sibling->member, m->record_name, freed->function ? freed->function : "?", free_fn);
    gm_finding_note(f, freed->loc, "'%s::%s' is freed here, in '%s'", sibling->record_name,
                    sibling->member, freed->function ? freed->function : "?");
  }
}

/* A global is a member of the program's global object, and the globals one function sets up
 * together (an init(thr_id) filling per-thread tables, directly or through the module inits it
 * calls) are its siblings: one of them freed in a release function that forgets another is that
 * release function's bug. A global none of whose siblings is freed lives for the process, on
 * purpose or not: left alone. */
void gm_report_global_leaks(const gm_program_ctx *ctx, const gm_rule *rule, int heap) {
  size_t n;
  const gm_member_summary *members = gm_program_members(ctx->program, &n);
  for (size_t i = 0; i < n; i++) {
    const gm_member_summary *m = &members[i];
    if (!m->global || m->frees.len || m->handed_off || !gm_program_sees_global(ctx->program, m))
      continue;
    gm_global_sibling sib;
    if (!gm_program_freed_global_sibling(ctx->program, m, &sib)) {
      const gm_unit_member_use *a = m->allocs.len ? m->allocs.items[0].use : NULL;
      gm_report *r = a && rule_family(&a->family, heap)
                         ? ctx->report_for(ctx->arg, m->allocs.items[0].unit, rule)
                         : NULL;
      if (r)
        gm_report_suppressed(r, rule, "process-lifetime", a->loc, a->function ? a->function : "",
                             "'%s' (%s from %s) is never freed, and no global allocated with it "
                             "is freed either: a table that lives for the process",
                             m->member, a->family.description, a->api);
      continue;
    }
    const gm_unit_member_use *a = sib.alloc;
    if (!rule_family(&a->family, heap))
      continue;
    size_t unit = 0;
    for (size_t k = 0; k < m->allocs.len; k++)
      if (m->allocs.items[k].use == a)
        unit = m->allocs.items[k].unit;
    gm_report *r = ctx->report_for(ctx->arg, unit, rule);
    if (!r)
      continue;
    const gm_member_summary *sibling = sib.sibling;
    const gm_unit_member_use *freed = sibling->frees.items[0].use;
    const char *freer = freed->function ? freed->function : "?";
    const char *setup =
        sib.via ? (sib.via->caller ? sib.via->caller : "?") : (a->function ? a->function : "?");
    gm_finding *f = gm_report_add(
        r, rule, a->loc, a->function ? a->function : "",
        "'%s' (%s from %s) is never freed: no function in the program releases it, while "
        "'%s', allocated with it %s '%s', is freed in '%s'; free it there with %s",
        m->member, a->family.description, a->api, sibling->member, sib.via ? "under" : "in", setup,
        freer, a->family.free_fn ? a->family.free_fn : "the matching free");
    if (sib.via)
      gm_finding_note(f, sib.via->loc, "'%s' calls '%s' here, which allocates '%s'", setup,
                      sib.via->name ? sib.via->name : "?", m->member);
    gm_finding_note(f, freed->loc, "'%s' is freed here, in '%s'", sibling->member, freer);
  }
}

static void check_program(const gm_program_ctx *ctx) {
  gm_report_member_leaks(ctx, &gm001_unpaired_allocation, 0);
  gm_report_global_leaks(ctx, &gm001_unpaired_allocation, 0);
}

/* Runtime verdict (docs/rules/GM001.md): confirmed when allocations from the site are still
 * live at exit, or its live bytes at the last gmem_step() exceed those at the first; dismissed
 * when it ran and everything it allocated was freed. GM005 shares it. */
gm_verdict gm_judge_leak(gm_judge_ctx *c) {
  const gm_tsite *s = gm_judge_find(c, c->finding->loc, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, c->finding->loc, "allocation");
  c->site = s;
  char *stack = gm_site_stack_text(s);
  size_t n = s->step_live.len;
  gm_verdict v;
  if (s->live_count_exit)
    v = gm_judge_say(c, GM_VERDICT_CONFIRMED,
                     "%llu of %llu %s, %s still live at exit (threshold: any block live at a "
                     "normal exit)%s",
                     (unsigned long long)s->live_count_exit, (unsigned long long)s->calls,
                     gm_plural(s->calls, "allocation", "allocations"),
                     gm_bytes(s->live_bytes_exit).s, stack);
  else if (n >= 2 && s->step_live.items[n - 1] > s->step_live.items[0])
    v = gm_judge_say(c, GM_VERDICT_CONFIRMED,
                     "live bytes grew from %s at the first gmem_step() to %s at the last (%zu "
                     "steps; threshold: the last above the first)%s",
                     gm_bytes(s->step_live.items[0]).s, gm_bytes(s->step_live.items[n - 1]).s, n,
                     stack);
  else if (s->live_count)
    v = gm_judge_say(c, GM_VERDICT_UNVERIFIABLE,
                     "%llu %s (%s) live when the run ended early (a signal or gmem_dump()), so "
                     "there was no exit to check",
                     (unsigned long long)s->live_count,
                     gm_plural(s->live_count, "allocation", "allocations"),
                     gm_bytes(s->live_bytes).s);
  else if (c->finding->path == GM_PATH_ERROR) {
    /* the leak needs a failure the run did not have: nothing contradicts the warning */
    char *freed = gm_site_all_freed_text(s, "");
    v = gm_judge_say(c, GM_VERDICT_NOT_EXERCISED,
                     "%s; the leaking error path (line %u) did not run", freed,
                     c->finding->nrelated ? c->finding->related[0].loc.line : c->finding->loc.line);
    free(freed);
  } else {
    char *freed = gm_site_all_freed_text(s, "; threshold: any block live at a normal exit");
    v = gm_judge_say(c, GM_VERDICT_DISMISSED, "%s; the leaking path never ran", freed);
    free(freed);
  }
  free(stack);
  return v;
}

const gm_rule gm001_unpaired_allocation = {
    .id = "GM001",
    .name = "unpaired-allocation",
    .summary = "An allocation has a path out of its owner without a matching free.",
    .description =
        "A GPU allocation (cudaMalloc, cudaMallocHost, cudaMallocManaged, cuMemAlloc, or a "
        "same-file wrapper around one) can leave the function that owns it without being "
        "freed: an early return on an error path, a free in only one branch, or the only pointer "
        "overwritten in a loop. Device memory leaked this way stays allocated until the process "
        "exits, so a service or a training loop runs out of memory a little at a time.",
    .fix = "Free the memory on every path (a single cleanup label, or an RAII owner), or hand "
           "ownership on explicitly (return it, store it in a struct or member that frees it).",
    .check = check,
    .check_program = check_program,
    .judge = gm_judge_leak,
};
