/* `gmemlint report`'s "PyTorch view" section: per process, the steps, the out-of-memory errors
 * with their causes and the other verdicts, in the rules' thresholds (torch_verdict.h), and
 * which view the findings come from. */
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>
#include <string.h>

static void print_steps(FILE *out, const gm_torch_view *v) {
  if (!v->steps.len) {
    fprintf(out, "  steps: none marked (no optimizer.step() and no gmemlint_torch.step())\n");
    return;
  }
  const gm_torch_step *a = &v->steps.items[0], *b = &v->steps.items[v->steps.len - 1];
  fprintf(out, "  steps: %zu; allocated %s -> %s, reserved %s -> %s\n", v->steps.len,
          gm_bytes(a->allocated).s, gm_bytes(b->allocated).s, gm_bytes(a->reserved).s,
          gm_bytes(b->reserved).s);
}

static void print_history(FILE *out, const gm_torch_view *v) {
  char *missing = gm_torch_missing_snapshots(v);
  if (!v->history_recorded)
    fprintf(out, "  history: not recorded (%s): line-level verdicts are partial\n",
            v->history_reason ? v->history_reason : "no reason given");
  else if (v->history_overflowed)
    fprintf(out, "  history: %llu entries, overflowed at %llu (the oldest were dropped): partial\n",
            (unsigned long long)v->history_entries, (unsigned long long)v->history_max_entries);
  else
    fprintf(out, "  history: %llu entries (max %llu), complete\n",
            (unsigned long long)v->history_entries, (unsigned long long)v->history_max_entries);
  if (missing)
    fprintf(out, "  snapshots missing: %s (partial)\n", missing);
  free(missing);
}

static void print_verdicts(FILE *out, const gm_torch_view *v) {
  for (size_t i = 0; i < v->ooms.len; i++) {
    const gm_torch_oom *o = &v->ooms.items[i];
    gm_torch_oom_verdict r = gm_torch_judge_oom(v, o);
    fprintf(out, "  out of memory: %s asked for on device %d with %s free of %s: %s%s\n",
            gm_bytes(o->request).s, o->device, gm_bytes(o->device_free).s, gm_bytes(o->limit).s,
            gm_torch_oom_cause_name(r.cause),
            r.from_snapshot ? "" : " (from the record's figures: no snapshot)");
  }
  gm_torch_leaks l = gm_torch_judge_leaks(v);
  if (l.lines.len)
    for (size_t i = 0; i < l.lines.len; i++)
      fprintf(out, "  kept across steps (GM150): %s:%u, %s a step\n",
              l.lines.items[i].at.file ? l.lines.items[i].at.file : "?", l.lines.items[i].at.line,
              gm_bytes(l.lines.items[i].bytes_per_step).s);
  else if (gm_torch_leaks_found(&l))
    fprintf(out, "  kept across steps (GM150): allocated bytes rose in %zu of %zu steps (%s)\n",
            l.trend.rising, l.trend.n, l.partial);
  int leaks = gm_torch_leaks_found(&l);
  gm_torch_repeat_leaks r = gm_torch_judge_repeats(v, &l);
  gm_torch_leaks_free(&l);
  for (size_t i = 0; i < r.lines.len; i++)
    fprintf(out, "  kept across repetitions (GM150): %s:%u, %s a repetition, %zu of %zu%s\n",
            r.lines.items[i].at.file, r.lines.items[i].at.line,
            gm_bytes(r.lines.items[i].bytes_per_repeat).s, r.lines.items[i].repeats_with,
            r.lines.items[i].repeats, r.window ? " (in the history's last entries)" : "");
  leaks |= r.lines.len > 0;
  gm_torch_repeat_leaks_free(&r);
  gm_torch_cache_growth g = gm_torch_judge_cache(v);
  if (g.grew && !leaks)
    fprintf(out, "  cache growth (GM151): reserved +%s, allocated +%s\n",
            gm_bytes(g.reserved_growth).s, gm_bytes(g.allocated_growth).s);
  const char *which;
  gm_torch_fragmentations fr = gm_torch_judge_fragmentation(v, &which);
  for (size_t i = 0; i < fr.len; i++)
    if (fr.items[i].free_bytes) /* segments without holes: nothing to say */
      fprintf(out,
              "  device %d at the %s: %s free in %llu holes of partly used large segments, "
              "largest %s (score %.2f%s)\n",
              fr.items[i].device, which, gm_bytes(fr.items[i].free_bytes).s,
              (unsigned long long)fr.items[i].holes, gm_bytes(fr.items[i].largest).s,
              fr.items[i].score, fr.items[i].fragmented ? ": fragmented, GM153" : "");
  GM_VEC_FREE(fr);
  gm_torch_regrowths rg = gm_torch_judge_regrowth(v);
  for (size_t i = 0; i < rg.len; i++)
    fprintf(out, "  regrown (GM154): %s:%u, a chain of %zu from %s to %s\n", rg.items[i].at.file,
            rg.items[i].at.line, rg.items[i].chain, gm_bytes(rg.items[i].from).s,
            gm_bytes(rg.items[i].to).s);
  GM_VEC_FREE(rg);
}

/* What is still allocated at exit, by Python line: said even where the history cannot say how
 * it came (overflowed, or too few repetitions for a verdict). */
#define LIVE_LINES_SHOWN 5
static void print_live(FILE *out, const gm_torch_view *v) {
  gm_torch_live_lines live = gm_torch_live_by_line(v);
  if (live.len) {
    uint64_t bytes = 0;
    size_t blocks = 0;
    for (size_t i = 0; i < live.len; i++)
      bytes += live.items[i].bytes, blocks += live.items[i].blocks;
    fprintf(out, "  allocated at exit: %s in %zu blocks; by line, most first:\n", gm_bytes(bytes).s,
            blocks);
  }
  for (size_t i = 0; i < live.len && i < LIVE_LINES_SHOWN; i++) {
    const gm_torch_live_line *n = &live.items[i];
    char place[512];
    if (n->at.file)
      snprintf(place, sizeof place, "%s:%u", n->at.file, n->at.line);
    else
      snprintf(place, sizeof place, "(no line outside the framework)");
    fprintf(out, "    %s: %s in %zu blocks", place, gm_bytes(n->bytes).s, n->blocks);
    if (n->blocks > 1)
      fprintf(out, ", %zu of %s", n->common_blocks, gm_bytes(n->common_size).s);
    fprintf(out, "\n");
  }
  if (live.len > LIVE_LINES_SHOWN)
    fprintf(out, "    ... %zu more lines\n", live.len - LIVE_LINES_SHOWN);
  GM_VEC_FREE(live);
}

void gm_print_torch_report(FILE *out, const gm_telemetry *t) {
  if (!t->torch.len)
    return;
  fprintf(out, "\nPyTorch view: %zu %s\n", t->torch.len,
          t->torch.len == 1 ? "process" : "processes");
  for (size_t i = 0; i < t->torch.len; i++) {
    const gm_torch_view *v = t->torch.items[i];
    char *proc = gm_torch_process_text(v);
    fprintf(out, "  %s: %s\n", v->path, proc);
    free(proc);
    /* where the findings come from: the snapshots see the cache; without it, the runtime's
     * cudaMalloc hooks see every tensor */
    if (strcmp(v->backend, "native") != 0)
      fprintf(out, "  allocator: %s: no snapshots; the runtime telemetry's hooks are the view\n",
              v->backend);
    else if (!v->caching)
      fprintf(out, "  allocator: native, caching off: every tensor is a cudaMalloc; the runtime "
                   "telemetry's hooks are the view\n");
    else
      fprintf(out,
              "  allocator: native, caching on%s: the snapshots are the view; PyTorch's "
              "cudaMalloc sites (libc10_cuda) are its cache, not leaks (GM101 and GM102 leave "
              "them)\n",
              v->expandable ? ", expandable segments (seen only by the snapshots)" : "");
    if (v->settings)
      fprintf(out, "  PYTORCH_CUDA_ALLOC_CONF: %s\n", v->settings);
    print_steps(out, v);
    print_history(out, v);
    print_verdicts(out, v);
    print_live(out, v);
  }
}
