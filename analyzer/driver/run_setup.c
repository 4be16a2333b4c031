/* What a run takes from the command line before any file is read, the same for linting and for
 * gmemlint report: the rules --enable and --disable select, and the CUDA toolkit's place. */
#include "driver/config.h"
#include "driver/driver.h"
#include "runtime_view/join.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int parse_lists(const char *option, const char *const *lists, size_t n, uint64_t *mask) {
  char bad[128];
  for (size_t i = 0; i < n; i++)
    if (!gm_rules_parse_list(lists[i], mask, bad, sizeof bad)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --%s (see --list-rules)\n", bad,
              option);
      return 0;
    }
  return 1;
}

int gm_run_select_rules(gm_run *run, const gm_options *opt) {
  return parse_lists("only", opt->only.items, opt->only.len, &run->cli_only) &&
         parse_lists("enable", opt->enable.items, opt->enable.len, &run->cli_enabled) &&
         parse_lists("disable", opt->disable.items, opt->disable.len, &run->cli_disabled);
}

/* --cuda-path, then CUDA_PATH, then the toolkit's usual place. */
static const char *cuda_path(const gm_options *opt) {
  const char *env = getenv("CUDA_PATH");
  return opt->cuda_path ? opt->cuda_path : env && *env ? env : "/usr/local/cuda";
}

int gm_run_find_toolkit(gm_run *run, const gm_options *opt) {
  run->cuda_path = cuda_path(opt);
  char *probe = gm_xasprintf("%s/include/cuda_runtime.h", run->cuda_path);
  struct stat st;
  int sources = !opt->files.len && opt->compdb_dir;
  for (size_t i = 0; i < opt->files.len && !sources; i++)
    sources = !gm_is_findings_file(opt->files.items[i]);
  int ok = !sources || stat(probe, &st) == 0;
  if (!ok)
    fprintf(stderr,
            GM_PROGRAM ": error: no CUDA toolkit at '%s' (%s not found); set --cuda-path or "
                       "CUDA_PATH\n",
            run->cuda_path, probe);
  free(probe);
  return ok;
}
