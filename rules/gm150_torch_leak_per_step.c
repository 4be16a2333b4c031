/* GM150 torch-leak-per-step (runtime only; the PyTorch view)
 *
 * A Python line whose tensors, allocated in every training step, are still allocated when the
 * program exits: memory kept across steps. The classic cause is a tensor kept together with its
 * autograd graph, so each step's activations stay alive too:
 *
 *   bad:   losses.append(loss)          # keeps every step's graph
 *   good:  losses.append(loss.item())   # or loss.detach()
 *
 * or a list or cache that grows a step at a time. Judged from the allocator's history in the
 * exit snapshot (torch_verdict.c: gm_torch_judge_leaks; thresholds in torch_verdict.h): the
 * allocations of each step after the warm-up whose block was never freed, by first user frame;
 * a line leaks when its survivors come from all but at most one of those steps. The steps'
 * allocated bytes give the slope and the step where memory runs out. Without a usable history,
 * allocated bytes rising step after step is reported at the companion file, marked partial. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>

extern const gm_rule gm150_torch_leak_per_step;

/* "; at 12.0 MiB a step the device's 80.0 GiB are reached around step 6712" or "" */
static char *trend_text(const gm_torch_trend *tr) {
  char slope[64];
  snprintf(slope, sizeof slope, "%s%s", tr->slope < 0 ? "-" : "",
           gm_bytes((uint64_t)(tr->slope < 0 ? -tr->slope : tr->slope)).s);
  if (tr->oom_step)
    return gm_xasprintf("allocated bytes over the %zu steps after the warm-up: %s a step "
                        "(least squares); at that rate the device's %s is full around step %ld",
                        tr->n, slope, gm_bytes(tr->total).s, tr->oom_step);
  return gm_xasprintf("allocated bytes over the %zu steps after the warm-up: %s a step (least "
                      "squares)",
                      tr->n, slope);
}

/* A loop that is not a training step (serving, evaluation): the repetitions the history shows. */
static void report_repeats(const gm_runtime_ctx *c, const gm_torch_view *v,
                           const gm_torch_leaks *by_step) {
  gm_torch_repeat_leaks r = gm_torch_judge_repeats(v, by_step);
  char *proc = r.lines.len ? gm_torch_process_text(v) : NULL;
  for (size_t k = 0; k < r.lines.len; k++) {
    const gm_torch_repeat_leak *lk = &r.lines.items[k];
    unsigned line;
    const char *file = gm_torch_where(v, lk->at, &line);
    gm_finding *f = gm_runtime_add(
        c, &gm150_torch_leak_per_step, file, line, 0,
        "tensors allocated here on each repetition of a loop in %s, %s, are still allocated at "
        "exit: %zu blocks, %s a repetition; keep what a request returns on the host (.cpu(), "
        ".item()) or drop it, and bound caches that grow with each request",
        proc,
        v->steps.len ? "a loop apart from the training steps (evaluation or serving)"
                     : "a loop without training steps (serving or evaluation)",
        lk->blocks, gm_bytes(lk->bytes_per_repeat).s);
    char fills[160] = "", where[160] = "the allocator's history (threshold";
    if (lk->total > lk->allocated && lk->bytes_per_repeat)
      snprintf(fills, sizeof fills,
               "; at that rate the device's %s is full after about %llu "
               "more repetitions",
               gm_bytes(lk->total).s,
               (unsigned long long)((lk->total - lk->allocated) / lk->bytes_per_repeat));
    if (r.window)
      snprintf(where, sizeof where,
               "the %llu entries the allocator's history kept (it overflowed; threshold",
               (unsigned long long)r.window);
    gm_runtime_evidence(f,
                        "survivors from %zu of the line's %zu repetitions in %s: all but one, "
                        "at least %d), %s a repetition (median), %s in %zu blocks from this line "
                        "still allocated at exit%s",
                        lk->repeats_with, lk->repeats, where, GM_TORCH_MIN_REPEATS,
                        gm_bytes(lk->bytes_per_repeat).s, gm_bytes(lk->alive_bytes).s, lk->blocks,
                        fills);
  }
  free(proc);
  gm_torch_repeat_leaks_free(&r);
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->torch.len; i++) {
    const gm_torch_view *v = c->telemetry->torch.items[i];
    gm_torch_leaks l = gm_torch_judge_leaks(v);
    report_repeats(c, v, &l);
    if (!gm_torch_leaks_found(&l)) {
      gm_torch_leaks_free(&l);
      continue;
    }
    char *proc = gm_torch_process_text(v), *trend = trend_text(&l.trend);
    for (size_t k = 0; k < l.lines.len; k++) {
      const gm_torch_leak *lk = &l.lines.items[k];
      unsigned line;
      const char *file = gm_torch_where(v, lk->at, &line);
      gm_finding *f = gm_runtime_add(
          c, &gm150_torch_leak_per_step, file, line, 0,
          "tensors allocated here in each training step of %s are still allocated at exit "
          "(%s a step): memory kept across steps; a tensor kept with its autograd graph keeps "
          "the whole step alive (losses.append(loss) keeps every step's graph: keep "
          "loss.item() or loss.detach()), or a list or cache grows each step: drop what the "
          "next step does not need",
          proc, gm_bytes(lk->bytes_per_step).s);
      char steps[200];
      if (l.window)
        snprintf(steps, sizeof steps,
                 "the %zu steps the allocator's history kept whole in its last %llu entries "
                 "(it overflowed)",
                 l.steps_judged, (unsigned long long)l.window);
      else
        snprintf(steps, sizeof steps, "the %zu steps after the warm-up of %d", l.steps_judged,
                 GM_TORCH_WARMUP_STEPS);
      gm_runtime_evidence(f,
                          "survivors from %zu of %s (threshold: all but one, at least %d "
                          "steps), %s a step (median), %s still allocated at exit; %s",
                          lk->steps_with, steps, GM_TORCH_MIN_STEPS, gm_bytes(lk->bytes_per_step).s,
                          gm_bytes(lk->alive_bytes).s, trend);
    }
    if (!l.lines.len) { /* partial: the steps' figures alone */
      gm_finding *f = gm_runtime_add(
          c, &gm150_torch_leak_per_step, v->path, 0, 0,
          "allocated memory of %s grows step after step: memory kept across steps (a tensor "
          "kept with its autograd graph, as losses.append(loss) does: keep loss.item() or "
          "loss.detach(); or a list or cache that grows); the line is not known: %s",
          proc, l.partial);
      gm_runtime_evidence(f,
                          "partial: %s; allocated bytes rose in %zu of the %zu steps after the "
                          "warm-up of %d (threshold: all but one, at least %d steps); %s",
                          l.partial, l.trend.rising, l.trend.n, GM_TORCH_WARMUP_STEPS,
                          GM_TORCH_MIN_STEPS, trend);
    }
    free(proc);
    free(trend);
    gm_torch_leaks_free(&l);
  }
}

const gm_rule gm150_torch_leak_per_step = {
    .id = "GM150",
    .name = "torch-leak-per-step",
    .summary = "PyTorch view: tensors from one line, allocated each step, never freed.",
    .description =
        "The PyTorch view of a run (the caching allocator's history, written by gmemrun's "
        "Python shim) shows a Python line whose tensors, allocated in every step after the "
        "warm-up, were all still allocated at exit: memory kept across steps, such as a loss "
        "kept with its autograd graph or a list or cache that grows. The process runs out of "
        "memory after enough steps.",
    .fix = "Keep plain numbers (loss.item()) or detached tensors (loss.detach()) across steps, "
           "and bound or clear lists and caches that grow each step.",
    .runtime = runtime,
};
