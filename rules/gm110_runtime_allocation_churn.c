/* GM110 runtime-allocation-churn (runtime only; the run's twin of GM010)
 *
 * An allocation site that a run saw allocate and free over and over, each block freed before the
 * next was made (at most two of its blocks live at once), where the static pass raised no GM010:
 * a loop it could not see (the loop in a file it was not given, a call through a function
 * pointer or a virtual method, a library, a Python program under gmemrun). Each cudaMalloc +
 * cudaFree pair costs tens of microseconds and cudaFree synchronises the device; with varying
 * sizes the churn also fragments device memory.
 *
 *   seen:  cudaMalloc at scratch.cu:40, 4,096 calls, 4,096 frees, at most one block live,
 *          82 us per call (336 ms in all)
 *   fix:   allocate once outside the loop and reuse the buffer, or cudaMallocAsync from a pool
 *
 * Thresholds: at least GM110_MIN_CALLS successful calls, at least three quarters of them freed,
 * and the site's peak live bytes no more than two of its largest blocks. Stream-ordered
 * allocations (cudaMallocAsync: the recommended fix) and host heap families are not judged. */
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_view.h"

#include <stdlib.h>

extern const gm_rule gm110_runtime_allocation_churn;

enum { GM110_MIN_CALLS = 16, GM110_MAX_LIVE_BLOCKS = 2 };

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    const gm_family *fam = gm_site_family(s);
    if (s->kind != GM_SITE_ALLOC || !fam || !fam->gpu || s->calls < GM110_MIN_CALLS)
      continue;
    uint64_t freed = gm_site_frees_total(s);
    /* churn: nearly every block freed again, and never more than a couple alive at once */
    if (freed * 4 < s->calls * 3 || s->peak_live_bytes > GM110_MAX_LIVE_BLOCKS * s->bytes_max)
      continue;
    /* a GM010 there has the verdict; a regrowing buffer is GM020's */
    if (gm_runtime_covered(c, s, "GM010") || gm_runtime_covered(c, s, "GM020") ||
        s->regrowth_chain_max >= GM_REGROWTH_CHAIN_MIN) /* GM120's */
      continue;
    /* PyTorch's cache or libraries in a run with its view: the view judges the tensors, and an
     * address inside libc10_cuda.so is no place a user can change */
    if (gm_torch_caches_site(c->telemetry, s) || gm_torch_framework_site(c->telemetry, s))
      continue;
    uint64_t made = s->calls + s->failed_calls;
    gm_finding *f = gm_runtime_add(
        c, &gm110_runtime_allocation_churn, s->file, s->line, s->column,
        "%s here ran %llu times and each block was freed before the next was made: allocation "
        "churn the static pass did not see (a loop in another file or behind a call it cannot "
        "follow); allocate once outside the loop and reuse the buffer, or use cudaMallocAsync "
        "from a stream-ordered memory pool",
        s->api, (unsigned long long)s->calls);
    char sizes[128];
    if (s->bytes_min == s->bytes_max)
      snprintf(sizes, sizeof sizes, "all of %s", gm_bytes(s->bytes_min).s);
    else
      snprintf(sizes, sizeof sizes, "%s%zu distinct sizes from %s to %s",
               s->sizes_truncated ? "more than " : "", s->sizes.len, gm_bytes(s->bytes_min).s,
               gm_bytes(s->bytes_max).s);
    char *frees = gm_site_frees_text(s);
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f,
                        "%llu calls (threshold %d), %s, %s in the allocation per call (%s in all), "
                        "frees by API: %s, at most %s live at once (threshold: %d blocks)%s",
                        (unsigned long long)s->calls, GM110_MIN_CALLS, sizes,
                        gm_duration_ns(made ? s->alloc_ns / made : 0).s,
                        gm_duration_ns(s->alloc_ns).s, frees, gm_bytes(s->peak_live_bytes).s,
                        GM110_MAX_LIVE_BLOCKS, stack);
    free(frees);
    free(stack);
  }
}

const gm_rule gm110_runtime_allocation_churn = {
    .id = "GM110",
    .name = "runtime-allocation-churn",
    .summary = "Runtime: a site allocated and freed many times, one block at a time (no static "
               "GM010).",
    .description =
        "The telemetry of an instrumented run shows an allocation site that ran many times, each "
        "block freed before the next was made, where the static pass raised no GM010: the loop "
        "is in a file it was not given, behind a function pointer or virtual call, in a library, "
        "or in a Python program run under gmemrun. On an H200 a cudaMalloc+cudaFree pair costs "
        "about 70-140 us and cudaFree synchronises the device; with varying sizes the churn also "
        "fragments device memory.",
    .fix = "Allocate the buffer once outside the loop (the largest size when it varies) and reuse "
           "it, or allocate with cudaMallocAsync/cudaFreeAsync from a stream-ordered memory pool.",
    .runtime = runtime,
};
