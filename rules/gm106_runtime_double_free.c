/* GM106 runtime-double-free (runtime only)
 *
 * The runtime saw an address from this allocation site freed again after it had been freed,
 * where the static pass raised no GM003. */
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>

extern const gm_rule gm106_runtime_double_free;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    if (s->kind != GM_SITE_ALLOC || !s->double_frees || gm_runtime_covered(c, s, "GM003"))
      continue;
    gm_finding *f = gm_runtime_add(
        c, &gm106_runtime_double_free, s->file, s->line, s->column,
        "memory from %s was freed twice at run time; a second free can release a buffer that "
        "reused the address: free each allocation once and set the pointer to null after it",
        s->api);
    char *frees = gm_site_frees_text(s);
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f, "%llu double %s (threshold: 1) of %llu %s (frees by API: %s)%s",
                        (unsigned long long)s->double_frees,
                        gm_plural(s->double_frees, "free", "frees"), (unsigned long long)s->calls,
                        gm_plural(s->calls, "allocation", "allocations"), frees, stack);
    free(frees);
    free(stack);
  }
}

const gm_rule gm106_runtime_double_free = {
    .id = "GM106",
    .name = "runtime-double-free",
    .summary = "Runtime: memory from a site was freed twice (no static finding).",
    .description =
        "The telemetry shows an address from this allocation site freed again after it had "
        "already been freed, and the static pass raised no GM003 (the two frees are on paths it "
        "cannot connect: different functions or files, shared ownership). If the address was "
        "handed out again in between, the second free releases someone else's buffer.",
    .fix = "Give each allocation one owner that frees it once, and set pointers to null after "
           "freeing them.",
    .runtime = runtime,
};
