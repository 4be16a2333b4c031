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
#include "patterns.h"
#include "rules.h"

extern const gm_rule gm020_growing_concatenation;

static void visit(const gm_node *call, void *arg) {
  const gm_check_ctx *ctx = arg;
  if (call->kind != GM_N_CALL || !call->fn ||
      (call->fn->kind != GM_FN_ALLOC && call->fn->kind != GM_FN_REALLOC))
    return;
  const gm_node *loop = gm_enclosing_loop(call);
  const gm_node *copy, *free_call;
  if (!loop || !gm_growing_concat(ctx->fn, call, loop, &copy, &free_call))
    return;
  gm_finding *f = gm_report_add(
      ctx->report, &gm020_growing_concatenation, call->loc, ctx->fn->name,
      "this buffer is regrown on every iteration: %s allocates a larger block and the old "
      "contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; "
      "compute the final size and allocate once, or keep a capacity and grow it geometrically "
      "(double it) only when it runs out",
      gm_call_display_name(call));
  if (copy)
    gm_finding_note(f, copy->loc, "the old contents are copied here");
  if (free_call)
    gm_finding_note(f, free_call->loc, "and the old buffer is freed here");
}

static void check(const gm_check_ctx *ctx) {
  if (ctx->fn->is_kernel || ctx->fn->is_device)
    return;
  gm_walk(ctx->fn->body, visit, (void *)ctx);
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
};
