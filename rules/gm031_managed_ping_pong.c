/* GM031 managed-ping-pong
 *
 * Flags managed memory that host code and a kernel both touch inside one loop: every iteration
 * migrates its pages to the GPU for the kernel and back to the CPU for the host, paying page
 * faults both ways.
 *
 *   bad:  for (step...) { update<<<g, b>>>(x, n); cudaDeviceSynchronize(); total += x[0]; }
 *   good: keep the data on the device and copy back only what the host needs (one value, with
 *         cudaMemcpy from a device buffer), or prefetch explicitly each way. */
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const gm_rule gm031_managed_ping_pong;

static const gm_node *anchor(const gm_fact *f) {
  return f->via_call ? f->via_call : f->at;
}

/* The innermost loop that repeats and holds both nodes, or NULL. */
static const gm_node *common_loop(const gm_node *a, const gm_node *b) {
  for (const gm_node *loop = gm_enclosing_loop(a); loop; loop = gm_enclosing_loop(loop))
    if (gm_inside(b, loop))
      return loop;
  return NULL;
}

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *launch = &ctx->facts[i];
    if (launch->kind != GM_FACT_MANAGED_LAUNCH)
      continue;
    int reported = 0;
    for (int k = 0; k < ctx->nfacts && !reported; k++) {
      const gm_fact *host = &ctx->facts[k];
      if (host->kind != GM_FACT_MANAGED_HOST || host->alloc != launch->alloc)
        continue;
      const gm_node *loop = common_loop(anchor(launch), host->at);
      if (!loop)
        continue;
      int prefetched = 0; /* explicit prefetches in the loop: the migration is managed */
      for (int p = 0; p < ctx->nfacts && !prefetched; p++)
        prefetched = ctx->facts[p].kind == GM_FACT_MANAGED_PREFETCH &&
                     ctx->facts[p].alloc == launch->alloc && gm_inside(ctx->facts[p].at, loop);
      if (prefetched)
        continue;
      int earlier = 0; /* one finding per allocation */
      for (int j = 0; j < i && !earlier; j++)
        earlier =
            ctx->facts[j].kind == GM_FACT_MANAGED_LAUNCH && ctx->facts[j].alloc == launch->alloc;
      reported = 1;
      if (earlier)
        break;
      char *what = gm_describe_allocation(launch);
      gm_finding *f = gm_report_add(
          ctx->report, &gm031_managed_ping_pong, launch->alloc->loc, ctx->fn->name,
          "%s is used by a kernel and by host code in the same loop, so its pages migrate to "
          "the GPU and back on every iteration; keep the data on the device and copy back only "
          "what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync)",
          what);
      free(what);
      gm_finding_note(f, anchor(launch)->loc, "a kernel uses it here");
      gm_finding_note(f, host->at->loc, "and host code touches it here, in the same loop");
      gm_finding_note(f, loop->loc, "the loop");
    }
  }
}

/* Runtime verdict (docs/rules/GM031.md), from CUPTI's counters on the allocation's range:
 * confirmed when bytes migrated both ways (host-to-device and device-to-host); dismissed when
 * the site ran and its pages moved one way or not at all; unverifiable without the counters. */
static gm_verdict judge(gm_judge_ctx *c) {
  const gm_tsite *s = gm_judge_find(c, c->finding->loc, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, c->finding->loc, "allocation");
  c->site = s;
  const char *why;
  if (!gm_judge_um_collected(c, s, &why))
    return gm_judge_say(c, GM_VERDICT_UNVERIFIABLE,
                        "unified-memory counters were not collected: %s", why);
  const gm_um_counts *u = &s->um;
  char figures[384];
  snprintf(figures, sizeof figures,
           "%s host-to-device and %s device-to-host, %llu GPU and %llu CPU page faults",
           gm_bytes(u->htod_bytes).s, gm_bytes(u->dtoh_bytes).s,
           (unsigned long long)u->gpu_page_faults, (unsigned long long)u->cpu_page_faults);
  if (u->direction_changes) /* 0 in files from runtimes that did not record it */
    snprintf(figures + strlen(figures), sizeof figures - strlen(figures),
             ", %llu changes of direction", (unsigned long long)u->direction_changes);
  if (u->htod_bytes && u->dtoh_bytes)
    return gm_judge_say(c, GM_VERDICT_CONFIRMED,
                        "pages migrated both ways: %s (threshold: bytes moved each way)", figures);
  return gm_judge_say(c, GM_VERDICT_DISMISSED,
                      "pages did not move both ways: %s (threshold: bytes moved each way)",
                      figures);
}

const gm_rule gm031_managed_ping_pong = {
    .id = "GM031",
    .name = "managed-ping-pong",
    .summary = "Managed memory is touched by the host and by a kernel in the same loop.",
    .description =
        "Inside one loop, managed memory is read or written by host code and passed to a kernel "
        "launch. Each iteration migrates its pages to the GPU for the kernel and back to the CPU "
        "for the host, paying page faults and transfers both ways on every iteration.",
    .fix = "Keep the data on the device for the whole loop and copy back only what the host "
           "needs, or prefetch explicitly in each direction with cudaMemPrefetchAsync.",
    .check = check,
    .judge = judge,
};
