/* GM030 managed-dense-access
 *
 * Flags cudaMallocManaged memory handed to a kernel that reads it densely (index affine in the
 * thread index, grid-stride loops) with no cudaMemPrefetchAsync or cudaMemAdvise before the
 * launch: the kernel then faults the pages over on demand. Measured on an H200: a dense kernel
 * over 1 GiB took 271 ms on host-touched managed memory and 0.75 ms after a prefetch.
 *
 *   bad:  cudaMallocManaged(&x, n); init_on_host(x); saxpy<<<g, b>>>(x, n);
 *   good: ... cudaMemPrefetchAsync(x, n, device, stream); saxpy<<<g, b, 0, stream>>>(x, n);
 *
 * The access may sit in a same-file __device__ helper the kernel passes the pointer to, and the
 * thread's position may come from cooperative groups (`grid.thread_rank()`, `grid.size()`).
 * Data-dependent indexing (x[idx[i]], pointer chasing) is where managed memory earns its keep:
 * no warning there. Nor for memory first touched on the device on every path (a cudaMemset, an
 * initialising kernel, a copy from device memory): its pages are created there, and the flow
 * engine marks such launches as it marks prefetched ones. */
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>
#include <string.h>

extern const gm_rule gm030_managed_dense_access;

/* The dense access behind a managed launch fact: in the kernel, or in a __device__ helper it
 * calls (*where: that function's name); for a launch in another file's helper, where that file
 * found it (whole-program analysis). */
static const gm_node *dense_access(const gm_check_ctx *ctx, const gm_fact *f, const char **where) {
  const gm_func *k = gm_find_kernel(ctx->tu, f->kernel_usr, f->kernel_name), *w = NULL;
  const gm_node *access = k ? gm_kernel_dense_access(ctx->tu, k, f->kernel_param, &w) : NULL;
  if (!k && f->remote_access) {
    if (where)
      *where = f->remote_where;
    return f->remote_access;
  }
  if (where)
    *where = w ? w->name : NULL;
  return access;
}

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind != GM_FACT_MANAGED_LAUNCH || f->prefetched)
      continue;
    int seen = 0; /* one finding per allocation */
    for (int k = 0; k < i && !seen; k++)
      seen = ctx->facts[k].kind == GM_FACT_MANAGED_LAUNCH && !ctx->facts[k].prefetched &&
             ctx->facts[k].alloc == f->alloc && dense_access(ctx, &ctx->facts[k], NULL);
    if (seen)
      continue;
    const char *where = NULL, *kernel = f->kernel_name ? f->kernel_name : "?";
    const gm_node *access = dense_access(ctx, f, &where);
    if (!access)
      continue;
    char *what = gm_describe_allocation(f);
    gm_finding *out = gm_report_add(
        ctx->report, &gm030_managed_dense_access, f->alloc->loc, ctx->fn->name,
        "%s reaches kernel '%s', which reads it densely, with no cudaMemPrefetchAsync or "
        "cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a "
        "dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). "
        "Prefetch it to the device before the launch, or use cudaMalloc and explicit copies",
        what, kernel);
    free(what);
    if (f->via_call && f->via_call->kind == GM_N_LAMBDA)
      gm_finding_note(out, f->via_call->loc, "captured by a lambda that launches the kernel");
    else if (f->via_call)
      gm_finding_note(out, f->via_call->loc, "passed to '%s', which launches the kernel",
                      f->via_call->name);
    gm_finding_note(out, f->at->loc, "launched here without a prefetch");
    if (where && strcmp(where, kernel) != 0)
      gm_finding_note(out, access->loc, "'%s', called by kernel '%s', indexes it by thread here",
                      where, kernel);
    else
      gm_finding_note(out, access->loc, "'%s' indexes it by thread here", kernel);
  }
}

/* Runtime verdict (docs/rules/GM030.md), from CUPTI's counters on the allocation's range:
 * confirmed by any GPU page fault or on-demand host-to-device migration; dismissed when the
 * site ran with neither; unverifiable when the counters were not collected. */
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
           "%llu GPU page-fault %s, %s migrated host-to-device on demand (threshold: any GPU page "
           "fault or on-demand migration; %s prefetched, %s host-to-device in all)",
           (unsigned long long)u->gpu_page_faults, gm_plural(u->gpu_page_faults, "group", "groups"),
           gm_bytes(u->htod_on_demand_bytes).s, gm_bytes(u->htod_prefetch_bytes).s,
           gm_bytes(u->htod_bytes).s);
  if (u->gpu_page_faults || u->htod_on_demand_bytes)
    return gm_judge_say(c, GM_VERDICT_CONFIRMED, "%s", figures);
  return gm_judge_say(c, GM_VERDICT_DISMISSED, "ran %llu %s with %s", (unsigned long long)s->calls,
                      gm_plural(s->calls, "time", "times"), figures);
}

const gm_rule gm030_managed_dense_access = {
    .id = "GM030",
    .name = "managed-dense-access",
    .summary = "Managed memory reaches a dense kernel without a prefetch.",
    .description =
        "Memory from cudaMallocManaged (or cuMemAllocManaged) is passed to a kernel that "
        "indexes it densely (an index affine in threadIdx/blockIdx/blockDim/gridDim, including "
        "grid-stride loops), the host touched it first, and no cudaMemPrefetchAsync or "
        "cudaMemAdvise on it precedes the launch. The kernel then takes page faults and migrates "
        "the data on demand: on an H200 a dense kernel over 1 GiB of host-touched managed "
        "memory ran 329 times slower than on device memory, and as fast after one prefetch.",
    .fix = "Call cudaMemPrefetchAsync(ptr, bytes, device, stream) before the launch (and back "
           "to the CPU before host access), set cudaMemAdvise preferred location, or use "
           "cudaMalloc with explicit copies.",
    .check = check,
    .judge = judge,
};
