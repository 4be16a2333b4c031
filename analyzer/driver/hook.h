/* gmemlint --install-hook: writes a git pre-commit hook (a bash script) that lints the staged
 * C, C++ and CUDA files with this gmemlint and the other options given, and refuses the commit
 * when gmemlint exits non-zero. */
#ifndef GM_HOOK_H
#define GM_HOOK_H

#include "driver/options.h"

/* Installs the hook for the repository around the working directory; argv is the whole command
 * line (its options other than --install-hook and --force go into the hook). Returns an exit
 * status: GM_EXIT_CLEAN, or GM_EXIT_USAGE after printing `gmemlint: error: ...`. */
int gm_install_hook(const gm_options *opt, int argc, char **argv);

#endif
