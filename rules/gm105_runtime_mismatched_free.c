/* GM105 runtime-mismatched-free (runtime only)
 *
 * The runtime saw memory from this allocation site released by a free of another family
 * (cudaFree on cudaMallocHost memory, ...) where the static pass raised no GM002. */
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>

extern const gm_rule gm105_runtime_mismatched_free;

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    if (s->kind != GM_SITE_ALLOC || !s->wrong_family_frees || gm_runtime_covered(c, s, "GM002"))
      continue;
    const gm_family *fam = gm_site_family(s);
    gm_finding *f = gm_runtime_add(
        c, &gm105_runtime_mismatched_free, s->file, s->line, s->column,
        "memory from %s was released by a free of another family at run time; the wrong free "
        "fails and the memory stays allocated: release it with %s",
        s->api, fam && fam->free_fn ? fam->free_fn : "its own family's free");
    char *frees = gm_site_frees_text(s);
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f,
                        "%llu wrong-family %s (threshold: 1; frees by API: %s), %s still live at "
                        "exit%s",
                        (unsigned long long)s->wrong_family_frees,
                        gm_plural(s->wrong_family_frees, "free", "frees"), frees,
                        gm_bytes(s->live_bytes_exit).s, stack);
    free(frees);
    free(stack);
  }
}

const gm_rule gm105_runtime_mismatched_free = {
    .id = "GM105",
    .name = "runtime-mismatched-free",
    .summary = "Runtime: memory from a site was freed by the wrong family (no static finding).",
    .description =
        "The telemetry shows memory from this allocation site passed to a free of another "
        "allocator family (cudaFree on pinned memory from cudaMallocHost, cudaFreeHost on "
        "device memory, ...), and the static pass raised no GM002: the free happens on a path "
        "it cannot follow (another file, a function pointer, a container). The wrong free "
        "fails and the memory stays allocated.",
    .fix = "Release each allocation with its own family's free; the stacks in the telemetry "
           "show where the memory came from.",
    .runtime = runtime,
};
