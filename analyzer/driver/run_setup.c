/* What a run takes from the command line before any file is read, the same for linting and for
 * gmemlint report: the rules --enable and --disable select, and the CUDA toolkit's place. */
#include "driver/config.h"
#include "driver/driver.h"
#include "runtime_view/join.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int gm_run_select_rules(gm_run *run, const gm_options *opt) {
  char bad[128];
  for (size_t i = 0; i < opt->enable.len; i++)
    if (!gm_rules_parse_list(opt->enable.items[i], &run->cli_enabled, bad, sizeof bad)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --enable (see --list-rules)\n",
              bad);
      return 0;
    }
  for (size_t i = 0; i < opt->disable.len; i++)
    if (!gm_rules_parse_list(opt->disable.items[i], &run->cli_disabled, bad, sizeof bad)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --disable (see --list-rules)\n",
              bad);
      return 0;
    }
  return 1;
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
