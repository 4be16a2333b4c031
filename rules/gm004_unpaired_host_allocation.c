/* GM004 unpaired-host-allocation
 *
 * Flags host heap memory (malloc, calloc, strdup, realloc, new, new[], or a same-file wrapper
 * around one) that some path leaves without freeing: GM001's analysis, applied to the host heap.
 * Off by default (--enable=GM004, --only=GM004, --enable=all, or `enable = GM004` in .gmemlint):
 * host leaks are what ASan, cppcheck and the Clang Static Analyzer already find, and on real CUDA
 * code they drowned the GPU leaks GM001 is for.
 *
 *   bad:  char *name = strdup(s); if (!valid(name)) return -1;  // name leaks
 *   good: ... if (!valid(name)) { free(name); return -1; }
 *
 * Not raised when ownership leaves the function (as GM001). The runtime records CUDA calls
 * only, so there is no runtime verdict. */
#include "rules/rules.h"

extern const gm_rule gm004_unpaired_host_allocation;

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind == GM_FACT_LEAK && f->family && f->family->heap)
      gm_report_leak(ctx, &gm004_unpaired_host_allocation, f);
  }
}

static void check_program(const gm_program_ctx *ctx) {
  gm_report_member_leaks(ctx, &gm004_unpaired_host_allocation, 1);
  gm_report_global_leaks(ctx, &gm004_unpaired_host_allocation, 1);
}

const gm_rule gm004_unpaired_host_allocation = {
    .id = "GM004",
    .name = "unpaired-host-allocation",
    .summary = "A host heap allocation has a path out of its owner without a matching free (off "
               "by default).",
    .description =
        "Host heap memory (malloc, calloc, strdup, realloc, new, new[], or a same-file wrapper "
        "around one) can leave the function that owns it without being freed: an early return "
        "on an error path, a free in only one branch, or the only pointer overwritten in a loop. "
        "This is GM001's analysis applied to the host heap; it is off by default because "
        "sanitizers and general-purpose analyzers already find host leaks.",
    .fix = "Free the memory on every path (a single cleanup label, or an owner such as "
           "std::unique_ptr or std::vector), or hand ownership on explicitly.",
    .check = check,
    .check_program = check_program,
    .judge = NULL, /* the runtime records CUDA calls only */
    .off_by_default = 1,
};
