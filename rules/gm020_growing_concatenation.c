/* GM020 growing-concatenation
 *
 * Flags a buffer regrown on every iteration: allocate a larger buffer, copy the old one into it,
 * free the old one (or realloc it). Each step copies everything so far, so n steps copy O(n^2)
 * bytes, and the ever-larger blocks fragment device memory: the CUDA form of repeated
 * torch.cat.
 *
 *   bad:  for (c...) { cudaMalloc(&nb, total + len); cudaMemcpy(nb, buf, total, D2D);
 *                      cudaFree(buf); buf = nb; total += len; }
 *   good: reserve the final size once, or grow geometrically behind a capacity check. */
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdio.h>
#include <string.h>

extern const gm_rule gm020_growing_concatenation;

static void visit(const gm_node *call, void *arg) {
  const gm_check_ctx *ctx = arg;
  if (call->kind != GM_N_CALL || !call->fn ||
      (call->fn->kind != GM_FN_ALLOC && call->fn->kind != GM_FN_REALLOC))
    return;
  const gm_node *loop = gm_enclosing_loop(call);
  const gm_node *copy, *free_call;
  gm_exemption why;
  if (!loop)
    return;
  if (!gm_growing_concat(ctx->fn, call, loop, &copy, &free_call, &why)) {
    if (why)
      gm_report_suppressed(ctx->report, &gm020_growing_concatenation, gm_exemption_id(why),
                           call->loc, ctx->fn->name,
                           "%s regrows a buffer in a loop, copying the old contents: %s",
                           gm_call_display_name(call), gm_exemption_reason(why));
    return;
  }
  gm_finding *f = gm_report_add(
      ctx->report, &gm020_growing_concatenation, call->loc, ctx->fn->name,
      "this buffer is regrown on every iteration: %s allocates a larger block and the old "
      "contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; "
      "compute the final size and allocate once, or keep a capacity and grow it geometrically "
      "(double it) only when it runs out",
      gm_call_display_name(call));
  if (copy) {
    gm_finding_note(f, copy->loc, "the old contents are copied here");
    gm_finding_copy_site(f, copy->loc);
  }
  if (free_call)
    gm_finding_note(f, free_call->loc, "and the old buffer is freed here");
}

static void check(const gm_check_ctx *ctx) {
  if (ctx->fn->is_kernel || ctx->fn->is_device)
    return;
  gm_walk(ctx->fn->body, visit, (void *)ctx);
}

/* Runtime verdict (docs/rules/GM020.md): confirmed when at least gm020-confirm-increases calls
 * were larger than the call before (the runtime's increasing_sizes); dismissed when the site ran
 * with fewer. The bytes the finding's copy site moved are shown when the runtime recorded that
 * copy. */
static gm_verdict judge(gm_judge_ctx *c) {
  long long confirm = gm_threshold(c->limits, GM_T_GM020_CONFIRM_INCREASES);
  const gm_tsite *s = gm_judge_find(c, c->finding->loc, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, c->finding->loc, "allocation");
  c->site = s;
  const gm_loc *copy_at = &c->finding->copy_site;
  const gm_tsite *copy = copy_at->file ? gm_judge_find(c, *copy_at, GM_SITE_OTHER) : NULL;
  char copied[320] = "";
  if (copy && copy->copies)
    snprintf(copied, sizeof copied, ", %s copied by %llu %s at line %u",
             gm_bytes(copy->copy_bytes).s, (unsigned long long)copy->copies,
             gm_plural(copy->copies, "copy", "copies"), copy->line);
  if (s->regrowths) /* 0 in files from runtimes that did not record it */
    snprintf(copied + strlen(copied), sizeof copied - strlen(copied),
             ", %llu blocks replaced by a larger one (a chain of %llu)",
             (unsigned long long)s->regrowths, (unsigned long long)s->regrowth_chain_max);
  if (s->increasing_sizes < (uint64_t)confirm)
    return gm_judge_say(c, GM_VERDICT_DISMISSED,
                        "%llu %s, only %llu larger than the one before (threshold: %lld)%s",
                        (unsigned long long)s->calls, gm_plural(s->calls, "call", "calls"),
                        (unsigned long long)s->increasing_sizes, confirm, copied);
  return gm_judge_say(c, GM_VERDICT_CONFIRMED,
                      "%llu calls, %llu of them larger than the one before (threshold: %lld), from "
                      "%s to %s (%s allocated in all)%s",
                      (unsigned long long)s->calls, (unsigned long long)s->increasing_sizes,
                      confirm, gm_bytes(s->bytes_min).s, gm_bytes(s->bytes_max).s,
                      gm_bytes(s->bytes_total).s, copied);
}

const gm_rule gm020_growing_concatenation = {
    .id = "GM020",
    .name = "growing-concatenation",
    .summary = "A buffer is regrown, copied and freed on every iteration.",
    .description =
        "Inside a loop a new buffer sized from the old size plus an increment is allocated, the "
        "old contents are copied into it, and the old buffer is freed (or realloc'd). Every "
        "iteration copies everything accumulated so far, so the total copying grows "
        "quadratically, and the ever-larger blocks fragment device memory: the CUDA form of "
        "repeated torch.cat.",
    .fix = "Compute the final size first and allocate once, or keep a capacity and grow it "
           "geometrically (doubling) only when the data no longer fits.",
    .check = check,
    .judge = judge,
};
