/* MPI's compiler wrappers (mpicc, mpicxx, mpic++, mpiCC, and their .openmpi and .mpich names)
 * add MPI's include directories themselves, so a compile database built with them never shows
 * where <mpi.h> is. Each wrapper is asked once, as the build runs it: `NAME --showme:compile`
 * (Open MPI), else `NAME -compile_info` (MPICH, whose answer starts with the real compiler).
 * Only a wrapper of a known name is asked, found on PATH: never a path the database names. */
#include "driver/compdb_args.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wrapper_names[] = {"mpicc",  "mpicxx",  "mpic++", "mpiCC",
                                            "mpiicc", "mpiicpc", "mpiicpx"};

/* The wrapper's name without a directory or an implementation suffix, if it is one; else NULL. */
static const char *wrapper_of(const char *compiler, char *name, size_t size) {
  const char *base = strrchr(compiler, '/');
  base = base ? base + 1 : compiler;
  snprintf(name, size, "%s", base);
  char *dot = strchr(name, '.');
  if (dot && (strcmp(dot, ".openmpi") == 0 || strcmp(dot, ".mpich") == 0))
    *dot = 0;
  for (size_t i = 0; i < sizeof wrapper_names / sizeof wrapper_names[0]; i++)
    if (strcmp(name, wrapper_names[i]) == 0)
      return wrapper_names[i];
  return NULL;
}

static int ask(const char *wrapper, const char *option, int skip_compiler, gm_str_vec *out) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", wrapper, option);
  FILE *p = popen(cmd, "r");
  if (!p)
    return 0;
  char line[8192];
  size_t got = fread(line, 1, sizeof line - 1, p);
  line[got] = 0;
  int status = pclose(p);
  if (status != 0 || !got)
    return 0;
  char *save = NULL;
  int first = 1;
  for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
    if (!(first && skip_compiler && tok[0] != '-'))
      GM_PUSH(*out, gm_xstrdup(tok));
    first = 0;
  }
  return 1;
}

static struct wrapper_answer {
  const char *wrapper;
  gm_str_vec flags;
} answers[sizeof wrapper_names / sizeof wrapper_names[0]];
static size_t nanswers;
static pthread_mutex_t answers_lock = PTHREAD_MUTEX_INITIALIZER;

const gm_str_vec *gm_compdb_wrapper_flags(const char *compiler) {
  char name[64];
  const char *wrapper = compiler ? wrapper_of(compiler, name, sizeof name) : NULL;
  if (!wrapper)
    return NULL;
  pthread_mutex_lock(&answers_lock);
  struct wrapper_answer *a = NULL;
  for (size_t i = 0; i < nanswers && !a; i++)
    if (answers[i].wrapper == wrapper)
      a = &answers[i];
  if (!a) {
    a = &answers[nanswers++];
    a->wrapper = wrapper;
    if (!ask(wrapper, "--showme:compile", 0, &a->flags))
      ask(wrapper, "-compile_info", 1, &a->flags);
  }
  pthread_mutex_unlock(&answers_lock);
  return &a->flags;
}
