#include "driver/compdb.h"

#include <clang-c/CXCompilationDatabase.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gm_compdb {
  CXCompilationDatabase db;
  pthread_mutex_t lock;
  char **files;
  size_t nfiles;
};

static int validate(const char *path, char *err, size_t errlen, char ***files, size_t *nfiles) {
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    if (jerr.line < 0)
      snprintf(err, errlen, "%s: %s", path, jerr.text);
    else
      snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column, jerr.text);
    return 0;
  }
  int ok = 1;
  if (!json_is_array(root)) {
    snprintf(err, errlen, "%s: expected a JSON array of compile commands", path);
    ok = 0;
  }
  size_t i;
  json_t *entry;
  json_array_foreach(root, i, entry) {
    if (!ok)
      break;
    json_t *dir = json_object_get(entry, "directory");
    json_t *file = json_object_get(entry, "file");
    json_t *cmd = json_object_get(entry, "command");
    json_t *args = json_object_get(entry, "arguments");
    if (!json_is_object(entry) || !json_is_string(dir) || !json_is_string(file) ||
        !(json_is_string(cmd) || json_is_array(args))) {
      snprintf(err, errlen,
               "%s: entry %zu needs \"directory\", \"file\" and \"command\" or \"arguments\"", path,
               i + 1);
      ok = 0;
      break;
    }
    const char *f = json_string_value(file);
    char *abs = f[0] == '/' ? gm_xstrdup(f) : gm_xasprintf("%s/%s", json_string_value(dir), f);
    char real[PATH_MAX];
    if (realpath(abs, real)) {
      free(abs);
      abs = gm_xstrdup(real);
    }
    *files = gm_xrealloc(*files, sizeof(char *) * (*nfiles + 1));
    (*files)[(*nfiles)++] = abs;
  }
  json_decref(root);
  return ok;
}

gm_compdb *gm_compdb_open(const char *dir, char *err, size_t errlen) {
  char *path = gm_xasprintf("%s/compile_commands.json", dir);
  FILE *probe = fopen(path, "r");
  if (!probe) {
    snprintf(err, errlen, "%s: cannot open compile database (is %s a build directory?)", path, dir);
    free(path);
    return NULL;
  }
  fclose(probe);
  gm_compdb *db = gm_xcalloc(1, sizeof *db);
  if (!validate(path, err, errlen, &db->files, &db->nfiles)) {
    free(path);
    gm_compdb_close(db);
    return NULL;
  }
  CXCompilationDatabase_Error cerr;
  db->db = clang_CompilationDatabase_fromDirectory(dir, &cerr);
  if (cerr != CXCompilationDatabase_NoError || !db->db) {
    snprintf(err, errlen, "%s: libclang could not load the compile database", path);
    free(path);
    gm_compdb_close(db);
    return NULL;
  }
  free(path);
  pthread_mutex_init(&db->lock, NULL);
  return db;
}

void gm_compdb_close(gm_compdb *db) {
  if (!db)
    return;
  if (db->db)
    clang_CompilationDatabase_dispose(db->db);
  for (size_t i = 0; i < db->nfiles; i++)
    free(db->files[i]);
  free(db->files);
  free(db);
}

size_t gm_compdb_files(gm_compdb *db, char ***files) {
  *files = db->files;
  return db->nfiles;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Pushes a path-taking flag, making a relative path absolute against the command's directory. */
static void push_path_flag(gm_str_vec *flags, const char *flag, const char *value,
                           const char *dir) {
  if (value[0] == '/' || !dir)
    GM_PUSH(*flags, gm_xasprintf("%s%s", flag, value));
  else
    GM_PUSH(*flags, gm_xasprintf("%s%s/%s", flag, dir, value));
}

int gm_compdb_flags(gm_compdb *db, const char *file, gm_str_vec *flags) {
  char real[PATH_MAX];
  const char *key = realpath(file, real) ? real : file;
  int listed = 0;
  for (size_t i = 0; i < db->nfiles && !listed; i++)
    listed = strcmp(db->files[i], key) == 0;
  pthread_mutex_lock(&db->lock);
  CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db->db, key);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  int found = n > 0;
  if (found) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    CXString dirs = clang_CompileCommand_getDirectory(cmd);
    char *dir = gm_xstrdup(clang_getCString(dirs));
    clang_disposeString(dirs);
    unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
    char **args = gm_xcalloc(nargs + 1, sizeof(char *));
    for (unsigned i = 0; i < nargs; i++) {
      CXString s = clang_CompileCommand_getArg(cmd, i);
      args[i] = gm_xstrdup(clang_getCString(s));
      clang_disposeString(s);
    }
    static const char *const path_flags[] = {"-I",         "-isystem", "-iquote",
                                             "-idirafter", "-include", "--include-path"};
    for (unsigned i = 1; i < nargs; i++) {
      const char *a = args[i];
      int handled = 0;
      for (size_t k = 0; k < sizeof path_flags / sizeof path_flags[0] && !handled; k++) {
        const char *pf = path_flags[k];
        size_t pl = strlen(pf);
        const char *canon = strcmp(pf, "--include-path") == 0 ? "-I" : pf;
        if (strcmp(a, pf) == 0 && i + 1 < nargs) {
          if (strcmp(canon, "-I") == 0)
            push_path_flag(flags, "-I", args[++i], dir);
          else {
            GM_PUSH(*flags, gm_xstrdup(canon));
            push_path_flag(flags, "", args[++i], dir);
          }
          handled = 1;
        } else if (starts(a, pf) && a[pl]) {
          const char *v = a + pl + (a[pl] == '=');
          if (strcmp(canon, "-I") == 0)
            push_path_flag(flags, "-I", v, dir);
          else {
            GM_PUSH(*flags, gm_xstrdup(canon));
            push_path_flag(flags, "", v, dir);
          }
          handled = 1;
        }
      }
      if (handled)
        continue;
      if ((strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) && i + 1 < nargs) {
        GM_PUSH(*flags, gm_xasprintf("%s%s", a, args[++i]));
      } else if (starts(a, "-D") || starts(a, "-U") || starts(a, "-std=")) {
        GM_PUSH(*flags, gm_xstrdup(a));
      } else if (starts(a, "--std=")) {
        GM_PUSH(*flags, gm_xstrdup(a + 1));
      } else if ((strcmp(a, "-std") == 0 || strcmp(a, "--std") == 0) && i + 1 < nargs) {
        GM_PUSH(*flags, gm_xasprintf("-std=%s", args[++i]));
      } else if (starts(a, "--define-macro=")) {
        GM_PUSH(*flags, gm_xasprintf("-D%s", a + 15));
      }
    }
    for (unsigned i = 0; i < nargs; i++)
      free(args[i]);
    free(args);
    free(dir);
  }
  if (cmds)
    clang_CompileCommands_dispose(cmds);
  pthread_mutex_unlock(&db->lock);
  return !found ? 0 : listed ? 1 : 2;
}
