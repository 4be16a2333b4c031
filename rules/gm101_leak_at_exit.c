/* GM101 leak-at-exit (runtime only)
 *
 * An allocation site whose memory is still live when the program exits normally, where the
 * static pass raised no GM001 (nor GM005, when enabled): a leak it missed (ownership through a path
 * it cannot follow, a wrapper in another file, memory kept in a global and never released). Sites
 * with wrong-family frees are left to GM002's verdict and GM105 (the failed wrong free is why the
 * memory stays live). A run that ended on a signal or wrote its file with gmem_dump() is not
 * counted: what is live then is not a leak. PyTorch's caching allocator (libc10_cuda) keeps what it
 * allocated until exit by design: in a run with a PyTorch view that caches, its sites are the
 * cache, and the view's rules (GM150-GM154) judge the tensors in it. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_view.h"

#include <stdlib.h>

extern const gm_rule gm101_leak_at_exit;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    /* a GM001 or GM005 there has the verdict; after a wrong-family free the memory stays live
     * because that free failed, and GM002's verdict or GM105 says so */
    if (s->kind != GM_SITE_ALLOC || !s->live_count_exit || s->wrong_family_frees ||
        gm_runtime_covered(c, s, "GM001") || gm_runtime_covered(c, s, "GM005") ||
        gm_runtime_covered(c, s, "GM002") || gm_torch_caches_site(c->telemetry, s) ||
        gm_torch_framework_site(c->telemetry, s))
      continue;
    gm_finding *f = gm_runtime_add(
        c, &gm101_leak_at_exit, s->file, s->line, s->column,
        "memory from %s is still allocated when the program exits: %llu %s never freed; free "
        "it when it is no longer needed (a long-running process loses this much each time)",
        s->api, (unsigned long long)s->live_count_exit,
        gm_plural(s->live_count_exit, "allocation was", "allocations were"));
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f,
                        "%llu of %llu %s, %s still live at exit (threshold: any block live at a "
                        "normal exit; site peak %s)%s",
                        (unsigned long long)s->live_count_exit, (unsigned long long)s->calls,
                        gm_plural(s->calls, "allocation", "allocations"),
                        gm_bytes(s->live_bytes_exit).s, gm_bytes(s->peak_live_bytes).s, stack);
    free(stack);
  }
}

const gm_rule gm101_leak_at_exit = {
    .id = "GM101",
    .name = "leak-at-exit",
    .summary = "Runtime: memory from a site is still allocated at exit (no static finding).",
    .description =
        "The telemetry of an instrumented run shows allocations from this site still live when "
        "the program exited normally, and the static pass raised no GM001 there. Device and "
        "pinned memory that is never freed stays allocated for the life of the process: in a "
        "service or a training loop it adds up until an allocation fails.",
    .fix = "Free each allocation when it is no longer needed (cudaFree, cudaFreeHost, ...), or "
           "give it an owner that frees it (an RAII class, a cleanup function called at exit).",
    .runtime = runtime,
};
