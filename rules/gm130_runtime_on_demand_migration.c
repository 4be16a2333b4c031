/* GM130 runtime-on-demand-migration (runtime only; the run's twin of GM030)
 *
 * A managed allocation site whose pages CUPTI saw migrate to the GPU on demand (after GPU page
 * faults: the faulted pages, cause "coherence", and those the driver speculatively moved along
 * with them, cause "prefetch") rather than by the program's prefetch, where the static pass raised
 * no GM030: the kernel that touched it is in a file it was not given, behind a function pointer, in
 * a library, or in a Python program under gmemrun. On an H200 a dense kernel over 1 GiB of
 * host-touched managed memory ran in 271 ms this way and in 0.75 ms after one prefetch.
 *
 *   seen:  cudaMallocManaged at model.cu:12, 2,893 GPU page-fault groups, 422.5 MiB host to
 *          device on demand, 0 B prefetched
 *   fix:   cudaMemPrefetchAsync(ptr, bytes, device, stream) before the launch, cudaMemAdvise,
 *          or cudaMalloc with explicit copies
 *
 * Thresholds: at least GM130_MIN_ON_DEMAND_BYTES migrated host-to-device on demand, or at least
 * GM130_MIN_FAULT_GROUPS GPU page-fault groups; and less than GM130_MAX_PREFETCH_PERCENT of the
 * site's host-to-device bytes moved by the program's cudaMemPrefetchAsync (a site mostly
 * prefetched took only stragglers on demand); pages that changed direction
 * GM_PING_PONG_CHANGES_MIN times are GM131's ping-pong. The driver's speculative prefetch is not
 * the program's: on an H200 it moved 80% of an unprefetched buffer, after the first faults. Files
 * written before the two were told apart count both as one prefetch figure, which is no evidence
 * that the program prefetched: such bytes count neither way. It needs CUPTI's unified-memory
 * counters (docs/join.md). */
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>
#include <string.h>

extern const gm_rule gm130_runtime_on_demand_migration;

/* Measured on an H200 (docs/rules/GM130.md): 1 GiB faulted over in 271 ms, about 4 GB/s, in 2,893
 * fault groups, about 94 us each. 1 MiB on demand costs about a quarter of a millisecond that way,
 * and a prefetched buffer showed none at all; 64 fault groups cost about 6 ms. A site the program
 * prefetched for at least half its host-to-device bytes meant to prefetch: the rest are
 * stragglers, not the missing prefetch this rule is about. */
enum {
  GM130_MIN_ON_DEMAND_BYTES = 1024 * 1024,
  GM130_MIN_FAULT_GROUPS = 64,
  GM130_MAX_PREFETCH_PERCENT = 50,
};

/* "37%" (or "37.5%" when not a whole percent) of part in whole; "0%" of nothing. */
static void percent_text(char *buf, size_t n, uint64_t part, uint64_t whole) {
  if (!whole || !part) {
    snprintf(buf, n, "0%%");
    return;
  }
  if (part * 100 % whole == 0)
    snprintf(buf, n, "%llu%%", (unsigned long long)(part * 100 / whole));
  else
    snprintf(buf, n, "%.1f%%", 100.0 * (double)part / (double)whole);
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    const gm_family *fam = gm_site_family(s);
    if (s->kind != GM_SITE_ALLOC || !fam || !fam->managed || !s->has_um || !s->um_collected)
      continue;
    const gm_um_counts *u = &s->um;
    uint64_t on_demand = u->htod_on_demand_bytes + u->htod_speculative_bytes;
    int many_bytes = on_demand >= GM130_MIN_ON_DEMAND_BYTES;
    int many_faults = u->gpu_page_faults >= GM130_MIN_FAULT_GROUPS;
    int mostly_prefetched =
        u->htod_bytes && u->htod_prefetch_bytes * 100 >= GM130_MAX_PREFETCH_PERCENT * u->htod_bytes;
    if ((!many_bytes && !many_faults) || mostly_prefetched)
      continue;
    /* a GM030 there has the verdict; pages that ping-pong are GM031's, or GM131's */
    if (gm_runtime_covered(c, s, "GM030") || gm_runtime_covered(c, s, "GM031") ||
        s->um.block_direction_changes_max >= GM_PING_PONG_CHANGES_MIN)
      continue;
    /* pages first touched on the GPU fault in without a host-to-device migration */
    const char *how = on_demand ? "migrated to the GPU on demand, as the GPU faulted on it"
                                : "was faulted in by the GPU page by page";
    gm_finding *f = gm_runtime_add(
        c, &gm130_runtime_on_demand_migration, s->file, s->line, s->column,
        "%s from %s here %s: a kernel touched it with no prefetch before the launch, which the "
        "static pass did not see (a kernel in another file, a launch behind a call it cannot "
        "follow, a library); prefetch it with cudaMemPrefetchAsync before the launch, set "
        "cudaMemAdvise, or use device memory with explicit copies",
        fam->description, s->api, how);
    char share[32], split[160] = "", unsplit[192] = "", extra[96] = "";
    percent_text(share, sizeof share, u->htod_prefetch_bytes, u->htod_bytes);
    if (u->htod_speculative_bytes)
      snprintf(split, sizeof split,
               "; %s for the faults, %s by the driver's speculative prefetch around them",
               gm_bytes(u->htod_on_demand_bytes).s, gm_bytes(u->htod_speculative_bytes).s);
    if (u->htod_prefetch_unsplit_bytes)
      snprintf(unsplit, sizeof unsplit,
               "; %s more by a prefetch that this older file does not attribute to the "
               "program or to the driver",
               gm_bytes(u->htod_prefetch_unsplit_bytes).s);
    if (u->cpu_page_faults)
      snprintf(extra, sizeof extra, ", %llu CPU page %s", (unsigned long long)u->cpu_page_faults,
               gm_plural(u->cpu_page_faults, "fault", "faults"));
    if (u->thrashing)
      snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", %llu thrashing %s",
               (unsigned long long)u->thrashing, gm_plural(u->thrashing, "event", "events"));
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(
        f,
        "%llu GPU page-fault %s (threshold: %d), %s migrated host-to-device on "
        "demand (threshold: %s%s%s), %s prefetched by the program: %s of %s "
        "host-to-device (threshold: below %d%%), %s device-to-host%s%s",
        (unsigned long long)u->gpu_page_faults, gm_plural(u->gpu_page_faults, "group", "groups"),
        GM130_MIN_FAULT_GROUPS, gm_bytes(on_demand).s, gm_bytes(GM130_MIN_ON_DEMAND_BYTES).s, split,
        unsplit, gm_bytes(u->htod_prefetch_bytes).s, share, gm_bytes(u->htod_bytes).s,
        GM130_MAX_PREFETCH_PERCENT, gm_bytes(u->dtoh_bytes).s, extra, stack);
    free(stack);
  }
}

const gm_rule gm130_runtime_on_demand_migration = {
    .id = "GM130",
    .name = "runtime-on-demand-migration",
    .summary = "Runtime: managed memory migrated to the GPU on demand, not prefetched (no static "
               "GM030).",
    .description =
        "CUPTI's unified-memory counters in an instrumented run show a managed allocation site "
        "whose pages the GPU faulted in and migrated on demand, with little or none of it "
        "prefetched, where the static pass raised no GM030: the kernel is in a file it was not "
        "given, launched behind a function pointer, in a library, or in a Python program run "
        "under gmemrun. On an H200 a dense kernel over 1 GiB of host-touched managed memory ran "
        "329 times slower than on device memory, and as fast after one prefetch.",
    .fix = "Call cudaMemPrefetchAsync(ptr, bytes, device, stream) before the launch (and back to "
           "the CPU before host access), set cudaMemAdvise preferred location, or use cudaMalloc "
           "with explicit copies.",
    .runtime = runtime,
};
