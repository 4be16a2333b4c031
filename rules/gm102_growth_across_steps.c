/* GM102 growth-across-steps (runtime only)
 *
 * A site whose live bytes, sampled at each gmem_step(), keep growing and never return to their
 * level at the first step: memory allocated per step (per batch, per request) and kept. Not
 * raised where the static pass already raised GM001 or GM005 (its verdict shows the growth), nor at
 * PyTorch's caching allocator (libc10_cuda) in a run with a PyTorch view that caches: its
 * growth is the cache's, which GM150 and GM151 judge from the view. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_view.h"

#include <stdlib.h>

extern const gm_rule gm102_growth_across_steps;

/* Thresholds (docs/rules/GM102.md): at least GM102_MIN_STEPS steps; every step after the first
 * above the first step's level (never back to the baseline); and the last step above the middle
 * one (still growing in the second half, not a warm-up that levelled off). */
enum { GM102_MIN_STEPS = 3 };

static int grows(const gm_tsite *s) {
  size_t n = s->step_live.len;
  if (n < GM102_MIN_STEPS)
    return 0;
  const uint64_t *v = s->step_live.items;
  for (size_t i = 1; i < n; i++)
    if (v[i] <= v[0])
      return 0;
  return v[n - 1] > v[n / 2];
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    if (s->kind != GM_SITE_ALLOC || !grows(s) || gm_runtime_covered(c, s, "GM001") ||
        gm_runtime_covered(c, s, "GM005") || gm_torch_caches_site(c->telemetry, s))
      continue;
    size_t n = s->step_live.len;
    uint64_t first = s->step_live.items[0], last = s->step_live.items[n - 1];
    gm_finding *f = gm_runtime_add(
        c, &gm102_growth_across_steps, s->file, s->line, s->column,
        "live memory from %s grows from one gmem_step() to the next and never returns to its "
        "first level: something allocated each step is kept; free it within the step, or "
        "allocate it once and reuse it",
        s->api);
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(
        f,
        "live bytes at %zu steps went from %s to %s (+%s a step; thresholds: at least %d steps, "
        "each above the first, the last above the middle one), %s live at exit%s",
        n, gm_bytes(first).s, gm_bytes(last).s, gm_bytes((last - first) / (n - 1)).s,
        GM102_MIN_STEPS, gm_bytes(s->live_bytes).s, stack);
    free(stack);
  }
}

const gm_rule gm102_growth_across_steps = {
    .id = "GM102",
    .name = "growth-across-steps",
    .summary = "Runtime: a site's live memory grows at every gmem_step() (no static finding).",
    .description =
        "The program marks its iterations with gmem_step(), and the live bytes of this "
        "allocation site, sampled at each step, keep growing and never come back to their level "
        "at the first step. Memory allocated per step and kept is a leak that grows with the "
        "length of the run: a long training job or service eventually runs out of memory.",
    .fix = "Free what each step allocates before the next step, or allocate the buffer once "
           "outside the loop and reuse it; if it is a cache, bound its size.",
    .runtime = runtime,
};
