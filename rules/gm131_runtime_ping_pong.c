/* GM131 runtime-ping-pong (runtime only; the run's twin of GM031)
 *
 * A managed allocation site whose pages a run saw migrate to the GPU and back to the host again
 * and again: a kernel and the host take turns on the same managed memory, and every turn pays
 * page faults and a transfer. The static pass (GM031) sees this only when the host access and
 * the launch sit in one loop of one function; the run sees it wherever the turns come from.
 *
 *   seen:  cudaMallocManaged at solver.cu:20, one block changed direction 11 times, both ways
 *          in 6 of 6 steps, 6.0 MiB to the device and 6.0 MiB back
 *   fix:   keep the data on the device for the loop and copy back what the host needs, or
 *          prefetch each way explicitly
 *
 * The runtime records, from CUPTI's transfer records, the transfers whose direction differs from
 * the same block's previous one, the most such changes one block made, and (where gmem_step()
 * marks steps) the steps that moved the site's pages and those that moved them both ways.
 * Threshold: one block with at least GM_PING_PONG_CHANGES_MIN changes of direction (two round
 * trips; runtime_view/join.h, as GM130 defers to it). */
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>

extern const gm_rule gm131_runtime_ping_pong;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    if (s->kind != GM_SITE_ALLOC || !s->has_um || !s->um_collected ||
        s->um.block_direction_changes_max < GM_PING_PONG_CHANGES_MIN)
      continue;
    if (gm_runtime_covered(c, s, "GM031")) /* the static finding's verdict covers it */
      continue;
    const gm_um_counts *u = &s->um;
    gm_finding *f = gm_runtime_add(
        c, &gm131_runtime_ping_pong, s->file, s->line, s->column,
        "pages of this managed memory (%s) moved between the host and the GPU %llu times: the "
        "host and kernels take turns on it, and every turn pays page faults and a migration; "
        "the static pass did not see the loop (it is in another function or file, or behind a "
        "call it cannot follow); keep the data on the device and copy back only what the host "
        "needs, or prefetch each way with cudaMemPrefetchAsync",
        s->api, (unsigned long long)u->direction_changes);
    char steps[160] = "";
    if (u->steps_moved > 1)
      snprintf(steps, sizeof steps, ", both ways in %llu of the %llu steps that moved pages",
               (unsigned long long)u->steps_both_ways, (unsigned long long)u->steps_moved);
    char prefetched[160] = "";
    if (u->htod_prefetch_bytes) /* prefetching both ways is not a cure for taking turns */
      snprintf(prefetched, sizeof prefetched,
               " (%s of it prefetched by the program: prefetching moves pages sooner, not fewer "
               "times)",
               gm_bytes(u->htod_prefetch_bytes).s);
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f,
                        "one block changed direction %llu times (threshold: %d), %llu changes "
                        "over the site's blocks%s; %s to the device%s and %s back, %llu GPU fault "
                        "groups, %llu CPU page faults%s",
                        (unsigned long long)u->block_direction_changes_max,
                        GM_PING_PONG_CHANGES_MIN, (unsigned long long)u->direction_changes, steps,
                        gm_bytes(u->htod_bytes).s, prefetched, gm_bytes(u->dtoh_bytes).s,
                        (unsigned long long)u->gpu_page_faults,
                        (unsigned long long)u->cpu_page_faults, stack);
    free(stack);
  }
}

const gm_rule gm131_runtime_ping_pong = {
    .id = "GM131",
    .name = "runtime-ping-pong",
    .summary = "Runtime: managed pages moved between host and GPU again and again (no static "
               "GM031).",
    .description =
        "CUPTI's unified-memory records in an instrumented run show a managed allocation whose "
        "pages migrated to the GPU and back to the host repeatedly (per step, where gmem_step() "
        "marks steps), where the static pass raised no GM031: host code and kernel launches "
        "take turns on the memory from different functions, files or a library. Every turn "
        "pays page faults on one side and a transfer of the touched pages.",
    .fix = "Keep the data on the device for the whole loop (device memory, or managed memory "
           "with cudaMemAdvise preferred location) and copy back only what the host needs, or "
           "prefetch explicitly in each direction with cudaMemPrefetchAsync.",
    .runtime = runtime,
};
