/* The copy of clang's CUDA runtime wrapper whose toolkit includes cannot be shadowed
 * (cuda_wrapper.h). */
#include "frontend/cuda_wrapper.h"

#include "frontend/nvcc_compat.h"
#include "support/util.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int tried;
static char *text;          /* the copy, once built */
static gm_str_vec shadowed; /* the toolkit headers it includes by name */
static char *toolkit_inc;   /* the toolkit's include directory, resolved */

static int exists(const char *dir, const char *name) {
  char *path = gm_xasprintf("%s/%s", dir, name);
  struct stat st;
  int found = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  free(path);
  return found;
}

/* Reads clang's wrapper and writes each `#include "NAME"` with the absolute path of the file it
 * means: clang's own header (resource directory) or the toolkit's. */
static void build(const char *cuda_path) {
  const char *rd = gm_clang_resource_dir();
  if (!rd)
    return;
  char *inc = gm_xasprintf("%s/include", rd);
  char *cuda_inc = gm_xasprintf("%s/include", cuda_path);
  char *path = gm_xasprintf("%s/__clang_cuda_runtime_wrapper.h", inc);
  size_t len;
  char *src = gm_read_file(path, &len);
  free(path);
  if (src) {
    gm_strbuf sb = {0};
    gm_sb_append(&sb, "#pragma clang system_header\n");
    for (char *line = src; *line;) {
      char *nl = strchr(line, '\n');
      size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
      char *p = line;
      while (*p == ' ' || *p == '\t')
        p++;
      char name[256];
      int consumed = 0;
      if (sscanf(p, "#include \"%255[^\"]\"%n", name, &consumed) == 1 && consumed > 0) {
        const char *dir = exists(inc, name) ? inc : exists(cuda_inc, name) ? cuda_inc : NULL;
        if (dir == cuda_inc)
          GM_PUSH(shadowed, gm_xstrdup(name));
        if (dir)
          gm_sb_printf(&sb, "#include \"%s/%s\"%.*s", dir, name,
                       (int)(n - (size_t)(p - line)) - consumed, p + consumed);
        else
          gm_sb_appendn(&sb, line, n);
      } else {
        gm_sb_appendn(&sb, line, n);
      }
      line += n;
    }
    text = gm_sb_take(&sb);
    free(src);
  }
  toolkit_inc = realpath(cuda_inc, NULL);
  free(inc);
  free(cuda_inc);
}

/* A directory of the flags that is the toolkit's own (-I/usr/local/cuda/include) shadows
 * nothing. */
static int is_toolkit(const char *dir) {
  char *real = realpath(dir, NULL);
  int same = real && toolkit_inc && strcmp(real, toolkit_inc) == 0;
  free(real);
  return same;
}

/* The directory an include flag at args[i] names (joined or the next argument), or NULL. */
static const char *include_dir(char *const *args, size_t n, size_t i) {
  static const char *const flags[] = {"-I", "-iquote", "-isystem"};
  for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
    size_t len = strlen(flags[f]);
    if (strncmp(args[i], flags[f], len) != 0)
      continue;
    if (args[i][len])
      return args[i] + len;
    return i + 1 < n ? args[i + 1] : NULL;
  }
  return NULL;
}

int gm_cuda_wrapper_needed(char *const *args, size_t n, const char *cuda_path) {
  pthread_mutex_lock(&lock);
  if (!tried) {
    tried = 1;
    build(cuda_path);
  }
  int needed = 0;
  for (size_t i = 0; i < n && text && !needed; i++) {
    const char *dir = include_dir(args, n, i);
    if (dir && is_toolkit(dir))
      continue;
    for (size_t k = 0; dir && k < shadowed.len && !needed; k++)
      needed = exists(dir, shadowed.items[k]);
  }
  pthread_mutex_unlock(&lock);
  return needed;
}

int gm_cuda_wrapper_unsaved(struct CXUnsavedFile *out) {
  pthread_mutex_lock(&lock);
  const char *t = text;
  pthread_mutex_unlock(&lock);
  if (!t)
    return 0;
  *out = (struct CXUnsavedFile){GM_CUDA_WRAPPER_PATH, t, strlen(t)};
  return 1;
}
