#include "driver/own_include.h"

#include "support/util.h"

#include <libgen.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

static pthread_once_t own_include_once = PTHREAD_ONCE_INIT;
static char *own_include;

static int holds_public_header(const char *dir) {
  char *path = gm_xasprintf("%s/gmemlint/gmemrt.h", dir);
  struct stat st;
  int found = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  free(path);
  return found;
}

static void find_own_include(void) {
  char *self = realpath("/proc/self/exe", NULL);
  if (self) {
    /* <prefix>/bin/gmemlint with <prefix>/<includedir>/gmemlint/gmemrt.h */
    char *installed = gm_xasprintf("%s/%s", dirname(dirname(self)), GM_INSTALL_INCLUDE_DIR);
    own_include = realpath(installed, NULL);
    free(installed);
    free(self);
    if (own_include && !holds_public_header(own_include)) {
      free(own_include);
      own_include = NULL;
    }
  }
  if (!own_include && holds_public_header(GM_SOURCE_INCLUDE_DIR))
    own_include = gm_xstrdup(GM_SOURCE_INCLUDE_DIR);
}

const char *gm_own_include_dir(void) {
  pthread_once(&own_include_once, find_own_include);
  return own_include;
}
