/* CMake's old FindCUDA module (cuda_add_executable, cuda_add_library) compiles each .cu file
 * through a script it generates under the build tree, CMakeFiles/TARGET.dir/.../
 * TARGET_generated_FILE.cu.o.cmake, and leaves those files out of compile_commands.json. The
 * script states nvcc's command as CMake variables: `set(source_file "...")`,
 * `set(CUDA_NVCC_EXECUTABLE "...")`, `set(CUDA_NVCC_FLAGS a;b)`, `set(nvcc_flags -m64)`,
 * `set(CUDA_NVCC_INCLUDE_DIRS [==[d1;d2]==])`, `set(CUDA_NVCC_COMPILE_DEFINITIONS [==[X=1]==])`.
 * Those are read back into compile-database entries. */
#include "driver/compdb_findcuda.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A generated script is small; a bigger file of that name is not one. */
#define SCRIPT_MAX_BYTES (1 << 20)
/* CMakeFiles/TARGET.dir/ then the source's own folders below the build tree. */
#define SEARCH_DEPTH 12

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The value of `set(NAME value)` on a line of text, without a trailing `# comment`, quotes or
 * lua brackets; NULL when the line sets another variable. */
static char *set_value(const char *line, const char *name) {
  while (*line == ' ' || *line == '\t')
    line++;
  size_t n = strlen(name);
  if (strncmp(line, "set(", 4) != 0 || strncmp(line + 4, name, n) != 0 ||
      (line[4 + n] != ' ' && line[4 + n] != ')'))
    return NULL;
  const char *v = line + 4 + n;
  while (*v == ' ')
    v++;
  const char *end;
  if (strncmp(v, "[==[", 4) == 0) {
    v += 4;
    end = strstr(v, "]==]");
  } else if (*v == '"') {
    v++;
    end = strchr(v, '"');
  } else {
    end = strrchr(v, ')');
  }
  if (!end)
    return NULL;
  return gm_xasprintf("%.*s", (int)(end - v), v);
}

/* Appends a CMake list's items (`a;b ;; c`) to args, each with prefix; empty items dropped. */
static void add_list(gm_str_vec *args, const char *list, const char *prefix) {
  const char *p = list;
  while (p && *p) {
    const char *end = strchr(p, ';');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    while (len && (p[0] == ' ' || p[0] == '\t'))
      p++, len--;
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
      len--;
    if (len)
      GM_PUSH(*args, gm_xasprintf("%s%.*s", prefix, (int)len, p));
    p = end ? end + 1 : NULL;
  }
}

/* The entry of one script: {"directory", "arguments", "file"}; NULL when it names no source. */
static json_t *script_entry(const char *path, const char *build_dir) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SCRIPT_MAX_BYTES)
    return NULL;
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char *source = NULL, *nvcc = NULL, *flags = NULL, *nvcc_flags = NULL, *includes = NULL,
       *defines = NULL;
  struct {
    const char *name;
    char **value;
  } wanted[] = {{"source_file", &source},
                {"CUDA_NVCC_EXECUTABLE", &nvcc},
                {"CUDA_NVCC_FLAGS", &flags},
                {"nvcc_flags", &nvcc_flags},
                {"CUDA_NVCC_INCLUDE_DIRS", &includes},
                {"CUDA_NVCC_COMPILE_DEFINITIONS", &defines}};
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0)
    for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
      if (!*wanted[i].value)
        *wanted[i].value = set_value(line, wanted[i].name);
  free(line);
  fclose(f);
  json_t *entry = NULL;
  if (source && *source) {
    gm_str_vec args = {0};
    GM_PUSH(args, gm_xstrdup(nvcc && *nvcc ? nvcc : "nvcc"));
    add_list(&args, nvcc_flags, "");
    add_list(&args, flags, "");
    add_list(&args, includes, "-I");
    add_list(&args, defines, "-D");
    GM_PUSH(args, gm_xstrdup("-c"));
    GM_PUSH(args, gm_xstrdup(source));
    json_t *arr = json_array();
    for (size_t i = 0; i < args.len; i++) {
      json_array_append_new(arr, json_string(args.items[i]));
      free(args.items[i]);
    }
    GM_VEC_FREE(args);
    entry = json_pack("{s:s,s:o,s:s}", "directory", build_dir, "arguments", arr, "file", source);
  }
  for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
    free(*wanted[i].value);
  return entry;
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir, int depth, const char *build_dir, json_t *out,
                 gm_str_vec *scripts) {
  DIR *d = depth < SEARCH_DEPTH ? opendir(dir) : NULL;
  if (!d)
    return;
  struct dirent *e;
  GM_VEC(char *) names = {0};
  while ((e = readdir(d)))
    if (e->d_name[0] != '.')
      GM_PUSH(names, gm_xstrdup(e->d_name));
  closedir(d);
  qsort(names.items, names.len, sizeof *names.items, name_cmp); /* the same order every run */
  for (size_t i = 0; i < names.len; i++) {
    char *path = gm_xasprintf("%s/%s", dir, names.items[i]);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      walk(path, depth + 1, build_dir, out, scripts);
    } else if (S_ISREG(st.st_mode) && strstr(names.items[i], "_generated_") &&
               ends_with(names.items[i], ".o.cmake")) {
      json_t *entry = script_entry(path, build_dir);
      if (entry) {
        json_array_append_new(out, entry);
        GM_PUSH(*scripts, path);
        path = NULL;
      }
    }
    free(path);
    free(names.items[i]);
  }
  GM_VEC_FREE(names);
}

json_t *gm_findcuda_entries(const char *build_dir, gm_str_vec *scripts) {
  json_t *out = json_array();
  char *cmake_files = gm_xasprintf("%s/CMakeFiles", build_dir);
  walk(cmake_files, 0, build_dir, out, scripts);
  free(cmake_files);
  return out;
}
