/* Where things are: gmemcc itself, a compiler on PATH, the runtime library and its forced-include
 * header; and the runtime's link items, spelled for the compiler that links. */
#include "gmemcc/gmemcc.h"
#include "gmemcc_config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *self_path(void) {
  char *p = realpath("/proc/self/exe", NULL);
  return p ? p : xstrdup("");
}

char *dir_name(const char *path) {
  char *d = xstrdup(path), *slash = strrchr(d, '/');
  if (!slash)
    return xstrdup(".");
  if (slash == d)
    slash[1] = '\0';
  else
    *slash = '\0';
  return d;
}

/* The first `name` on PATH that is not gmemcc itself (a PATH may put gmemcc first under the
 * compiler's name, as ccache's masquerade does); NULL if there is none. */
char *find_on_path(const char *name, const char *self) {
  const char *path = getenv("PATH");
  if (!path || !*path)
    path = "/usr/local/bin:/usr/bin:/bin";
  char *copy = xstrdup(path), *save = NULL;
  char *found = NULL;
  for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
    char *cand = xasprintf("%s/%s", *dir ? dir : ".", name);
    char *real = is_executable(cand) ? realpath(cand, NULL) : NULL;
    if (real && strcmp(real, self) != 0)
      found = cand;
    else
      free(cand);
    free(real);
  }
  free(copy);
  return found;
}

/* GMEMCC_RUNTIME_DIR / GMEMCC_INCLUDE_DIR if set; else an installed tree around gmemcc
 * (<prefix>/bin/gmemcc with <prefix>/lib/libgmemrt.a) if there is one; else the build tree that
 * built gmemcc. */
runtime_paths locate_runtime(const char *self) {
  runtime_paths r = {GMEMCC_BUILD_RUNTIME_LIB, GMEMCC_BUILD_INCLUDE_DIR "/gmem_forced.h",
                     "the build tree", "the build tree"};
  char *prefix = dir_name(self);
  prefix = dir_name(prefix);
  char *installed_lib = xasprintf("%s/%s", prefix, GMEMCC_INSTALL_RUNTIME_LIB);
  if (is_file(installed_lib)) {
    r.lib = installed_lib;
    r.header = xasprintf("%s/%s/gmem_forced.h", prefix, GMEMCC_INSTALL_INCLUDE_DIR);
    r.lib_how = r.header_how = "the installed tree";
  }
  const char *dir = getenv("GMEMCC_RUNTIME_DIR");
  if (dir && *dir) {
    r.lib = xasprintf("%s/libgmemrt.a", dir);
    r.lib_how = "GMEMCC_RUNTIME_DIR";
  }
  dir = getenv("GMEMCC_INCLUDE_DIR");
  if (dir && *dir) {
    r.header = xasprintf("%s/gmem_forced.h", dir);
    r.header_how = "GMEMCC_INCLUDE_DIR";
  }
  return r;
}

/* Whether dir holds the CUDA toolkit's headers (cuda.h next to cuda_runtime_api.h). */
static bool is_toolkit_include(const char *dir) {
  return is_file(xasprintf("%s/cuda.h", dir)) && is_file(xasprintf("%s/cuda_runtime_api.h", dir));
}

/* The CUDA toolkit's include directory for this step: nvcc's own (<bin>/../include); for other
 * compilers an -I or -isystem directory of the step that holds the toolkit's headers; else the
 * one gmemcc was configured with. NULL when none has them. */
const char *toolkit_include_dir(const cmdline *c, const char *program) {
  if (c->kind == CC_NVCC && program) {
    char *real = realpath(program, NULL);
    if (real) {
      char *dir = xasprintf("%s/../include", dir_name(real));
      char *canonical = realpath(dir, NULL);
      if (canonical && is_toolkit_include(canonical))
        return canonical;
    }
  }
  for (size_t i = 0; c->kind == CC_GCC && i < c->lint_flags.n; i++) {
    const char *f = c->lint_flags.v[i], *dir = NULL;
    if (strncmp(f, "-I", 2) == 0)
      dir = f + 2;
    else if (strcmp(f, "-isystem") == 0 && i + 1 < c->lint_flags.n)
      dir = c->lint_flags.v[++i];
    else if (strcmp(f, "-include") == 0 || strcmp(f, "-iquote") == 0 ||
             strcmp(f, "-idirafter") == 0)
      i++; /* a value, not a flag */
    if (dir && *dir && is_toolkit_include(dir))
      return dir;
  }
  return *GMEMCC_CUDA_INCLUDE_DIR && is_toolkit_include(GMEMCC_CUDA_INCLUDE_DIR)
             ? GMEMCC_CUDA_INCLUDE_DIR
             : NULL;
}

/* The directory to search for <gmemlint/gmemrt.h>: the one above the forced header's, when it
 * holds gmemlint/gmemrt.h (the source tree's include/, or <prefix>/include). */
const char *public_include_dir(const char *header) {
  char *dir = dir_name(dir_name(header));
  return is_file(xasprintf("%s/gmemlint/gmemrt.h", dir)) ? dir : NULL;
}

/* A dependency recorded as an absolute path that this machine lacks (gmemcc built elsewhere, or
 * an installed tree copied to another machine): "-lNAME" instead, which the linker looks up on
 * its usual path and LIBRARY_PATH. NULL when the path exists or names no library. */
static char *missing_library_as_flag(const char *dep) {
  if (dep[0] != '/' || access(dep, F_OK) == 0)
    return NULL;
  const char *base = strrchr(dep, '/') + 1;
  const char *ext = strstr(base, ".so");
  if (!ext)
    ext = strstr(base, ".a");
  if (strncmp(base, "lib", 3) != 0 || !ext || ext == base + 3)
    return NULL;
  return xasprintf("-l%.*s", (int)(ext - base - 3), base + 3);
}

/* libgmemrt.a and its dependencies, spelled for the compiler that links. nvcc takes .a and .so
 * files and -l/-L; anything else goes to the host linker or host compiler through -X. */
void add_runtime_libs(strvec *out, const cmdline *c, const char *lib) {
  static const char *const deps[] = {GMEMCC_RUNTIME_DEPS NULL};
  push(out, lib);
  for (size_t i = 0; i < c->cudart_libs.n; i++)
    push(out, c->cudart_libs.v[i]); /* the runtime calls cudaMalloc & co: resolve them after it */
  for (size_t i = 0; deps[i]; i++) {
    const char *d = deps[i];
    if (!*d)
      continue; /* a generator expression that came out empty */
    char *by_name = missing_library_as_flag(d);
    if (by_name) {
      push(out, by_name);
      continue;
    }
    if (d[0] != '-' && d[0] != '/') {
      push(out, xasprintf("-l%s", d));
    } else if (c->kind == CC_GCC || strncmp(d, "-l", 2) == 0 || strncmp(d, "-L", 2) == 0 ||
               (d[0] == '/' && in_list(suffix(d), (const char *const[]){".a", ".so", NULL}))) {
      push(out, d);
    } else if (d[0] == '/') {
      push(out, "-Xlinker");
      push(out, d);
    } else if (strncmp(d, "-Wl,", 4) == 0) {
      push(out, "-Xlinker");
      push(out, d + 4);
    } else {
      push(out, "-Xcompiler");
      push(out, d);
    }
  }
}
