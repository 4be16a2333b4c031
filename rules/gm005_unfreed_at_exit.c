/* GM005 unfreed-at-exit
 *
 * Flags GPU memory still allocated on a path that ends the process: a return from main (the
 * error paths' returns too), the end of main, or exit(0) in any function. Off by default
 * (--enable=GM005, --only=GM005, --enable=all): the system releases the memory when the process
 * ends, and on real code these were most leak findings, at the very end of main, which a reader had
 * to get past to reach the leaks that matter: in functions that return to a caller, or by overwrite
 * in a loop that keeps running (GM001's, in main too). Worth enabling to keep a program clean for
 * memory checkers (compute-sanitizer --leak-check full reports such blocks at exit).
 *
 *   bad:  int main() { cudaMalloc(&d, n); run(d); return 0; }  // d still allocated
 *   good: ... run(d); cudaFree(d); return 0; }
 *
 * exit(1), or an exit whose status is unknown, ends a failed run as abort() does: not checked
 * (on six real projects 201 of 219 such leaks were at a check macro's exit(1), in main or a
 * helper, with the program's every buffer still held). Host heap memory is GM004's. */
#include "rules/rules.h"

#include <stdlib.h>

extern const gm_rule gm005_unfreed_at_exit;

static void report(const gm_check_ctx *ctx, const gm_fact *f) {
  char *what = gm_describe_allocation(f);
  const char *free_fn = f->family ? f->family->free_fn : "the matching free";
  const char *fn = ctx->fn->name;
  const char *q = f->var ? "'" : "", *var = f->var ? f->var : "it";
  int err = f->error_path;
  gm_finding *out;
  if (f->exit == GM_EXIT_PROCESS) {
    out = gm_report_add(ctx->report, &gm005_unfreed_at_exit, f->alloc->loc, fn,
                        err ? "%s is not freed on an error path before '%s' ends the program "
                              "with a success status; call %s before exiting"
                            : "%s is not freed before '%s' ends the program with a success status; "
                              "call %s before exiting",
                        what, fn, free_fn);
    gm_finding_note(out, f->at->loc, "this call to '%s' ends the program without freeing %s%s%s",
                    gm_call_display_name(f->at), q, var, q);
  } else if (f->exit == GM_EXIT_RETURN) {
    out = gm_report_add(ctx->report, &gm005_unfreed_at_exit, f->alloc->loc, fn,
                        err ? "%s is not freed on an error path before the program ends: a return "
                              "after a failed call leaves '%s' without releasing it; call %s "
                              "before returning"
                            : "%s is not freed before the program ends: a return leaves '%s' "
                              "without releasing it; call %s before returning",
                        what, fn, free_fn);
    if (err)
      gm_finding_note(out, f->at->loc,
                      "this return after a failed call ends the program without freeing %s%s%s", q,
                      var, q);
    else
      gm_finding_note(out, f->at->loc,
                      "this return from '%s' ends the program without freeing %s%s%s", fn, q, var,
                      q);
  } else {
    out = gm_report_add(ctx->report, &gm005_unfreed_at_exit, f->alloc->loc, fn,
                        err ? "%s is not freed on an error path before the program ends: after a "
                              "failed call '%s' ends without releasing it; call %s when it is no "
                              "longer needed"
                            : "%s is not freed before the program ends: '%s' ends without "
                              "releasing it; call %s when it is no longer needed",
                        what, fn, free_fn);
    gm_finding_note(out, f->at->loc,
                    err ? "after a failed call '%s' ends here, and the program with it, without "
                          "freeing %s%s%s"
                        : "'%s' ends here, and the program with it, without freeing %s%s%s",
                    fn, q, var, q);
  }
  out->path = err ? GM_PATH_ERROR : GM_PATH_NORMAL;
  free(what);
}

/* The engine decides which leaks end the process (gm_fact.ends_process); GM001 takes the others. */
static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if (f->kind == GM_FACT_LEAK && f->ends_process && !(f->family && f->family->heap))
      report(ctx, f);
  }
}

const gm_rule gm005_unfreed_at_exit = {
    .id = "GM005",
    .name = "unfreed-at-exit",
    .summary = "GPU memory is still allocated where the process ends: main returns or exit(0) "
               "is called (off by default).",
    .description =
        "A GPU allocation (cudaMalloc, cudaMallocHost, cudaMallocManaged, cuMemAlloc, or a "
        "same-file wrapper around one) is not freed on a path that ends the process: a return "
        "from main (after a failed call too) or its end, or exit(0) in any function. The system "
        "releases the memory when the "
        "process ends, so this is off by default; enable it to keep a program clean for "
        "memory-checking tools, or when main's body may become a function that others call.",
    .fix = "Free the memory before returning from main or exiting (a single cleanup path), or "
           "give it an owner whose destructor runs first.",
    .check = check,
    .judge = gm_judge_leak,
    .off_by_default = 1,
    .level = GM_LEVEL_NOTE,
};
