/* The out-of-memory verdict from the recorded figures. The runtime records facts and gmemlint
 * judges: a request that free memory covered but no free block did is fragmentation; one that
 * free memory did not cover is capacity, unless what the program freed and the driver or a pool
 * still holds would have covered it (memory stranded in partly used pages: fragmentation). */
#include "runtime_view/oom_verdict.h"

#include <string.h>

static const char *const names[] = {[GM_OOM_UNKNOWN] = "unknown",
                                    [GM_OOM_FRAGMENTATION] = "fragmentation",
                                    [GM_OOM_CAPACITY] = "capacity",
                                    [GM_OOM_TRANSIENT] = "transient"};

const char *gm_oom_verdict_name(gm_oom_verdict v) {
  return names[v];
}

int gm_oom_verdict_parse(const char *name) {
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(names[i], name) == 0)
      return (int)i;
  return -1;
}

static gm_oom_verdict from_figures(const gm_toom *e) {
  uint64_t asked = e->requested_bytes;
  if (!e->total_bytes) /* cudaMemGetInfo failed: nothing to judge from */
    return GM_OOM_UNKNOWN;
  int probed = e->has_largest_block;
  gm_oom_verdict v;
  if (e->free_bytes >= asked)
    /* without the probe, free memory alone cannot tell a hole-ridden device from a moment's
     * shortage; a block large enough at the probe means the shortage passed */
    v = !probed                          ? GM_OOM_UNKNOWN
        : e->largest_block_bytes < asked ? GM_OOM_FRAGMENTATION
                                         : GM_OOM_TRANSIENT;
  else
    v = e->held_unused_bytes >= asked - e->free_bytes && (!probed || e->largest_block_bytes < asked)
            ? GM_OOM_FRAGMENTATION
            : GM_OOM_CAPACITY;
  /* stream-ordered: the pool held enough unused memory, yet could not place the request */
  if (v != GM_OOM_UNKNOWN && e->pool_sampled && e->pool_reserved_bytes >= e->pool_used_bytes &&
      e->pool_reserved_bytes - e->pool_used_bytes >= asked)
    v = GM_OOM_FRAGMENTATION;
  return v;
}

gm_oom_verdict gm_oom_judge(const gm_toom *e) {
  /* a file from before the runtime recorded the held figure: its own verdict is all there is */
  if (!e->has_held_unused && e->has_recorded_verdict)
    return e->recorded_verdict;
  return from_figures(e);
}
