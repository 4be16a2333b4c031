#include "torch_view.h"
#include "internal.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The executable is an interpreter (python3, python3.12, pypy3): a symlink is resolved by the
 * kernel, so a venv's python names the real one. */
static int python_process(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return 0;
  exe[n] = 0;
  const char *base = basename(exe);
  return strncmp(base, "python", 6) == 0 || strncmp(base, "pypy", 4) == 0;
}

/* Why the view is off, or NULL when gmemrun put the shim on PYTHONPATH. */
static const char *off_reason(void) {
  const char *said = gmemrt_opt.torch_view;
  if (!said || !*said)
    return "the process was not started by gmemrun, which puts the shim on PYTHONPATH";
  if (strcmp(said, "on") == 0)
    return NULL;
  if (strncmp(said, "off: ", 5) == 0)
    return said + 5;
  return said;
}

void gmemrt_torch_view_check(void) {
  const char *why = python_process() ? off_reason() : NULL;
  /* --no-torch is the user's own choice: recorded, not warned about */
  if (why && !strstr(why, "--no-torch"))
    fprintf(stderr,
            "gmemrt: warning: the PyTorch view is off in this Python process (%s): only the "
            "CUDA calls are recorded, not the caching allocator's tensors\n",
            why);
}

json_t *gmemrt_torch_view_json(void) {
  if (!python_process())
    return NULL;
  const char *why = off_reason();
  return json_pack("{s:s, s:s}", "state", why ? "off" : "on", "reason", why ? why : "");
}
