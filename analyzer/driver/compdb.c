#include "driver/compdb.h"

#include "driver/compdb_args.h"

#include <clang-c/CXCompilationDatabase.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct gm_compdb {
  CXCompilationDatabase db;
  pthread_mutex_t lock;
  char *path;   /* DIR/compile_commands.json, for messages */
  char **files; /* every file named, absolute */
  size_t nfiles;
  char **present; /* those that exist here */
  size_t npresent;
};

static int validate(gm_compdb *db, const char *path, char *err, size_t errlen) {
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
    int exists = realpath(abs, real) != NULL;
    if (exists) {
      free(abs);
      abs = gm_xstrdup(real);
    }
    db->files = gm_xrealloc(db->files, sizeof(char *) * (db->nfiles + 1));
    db->files[db->nfiles++] = abs;
    if (exists) {
      db->present = gm_xrealloc(db->present, sizeof(char *) * (db->npresent + 1));
      db->present[db->npresent++] = abs;
    }
  }
  json_decref(root);
  return ok;
}

/* -p takes a build directory or its compile_commands.json (as clang-tidy does); libclang reads
 * the database from its directory, so the file must have that name. */
static char *database_dir(const char *where, char *err, size_t errlen) {
  struct stat st;
  if (stat(where, &st) != 0 || S_ISDIR(st.st_mode))
    return gm_xstrdup(where);
  const char *slash = strrchr(where, '/');
  const char *base = slash ? slash + 1 : where;
  if (strcmp(base, "compile_commands.json") != 0) {
    snprintf(err, errlen,
             "%s: -p takes a build directory or a file named compile_commands.json, not another "
             "file",
             where);
    return NULL;
  }
  if (!slash)
    return gm_xstrdup(".");
  if (slash == where)
    return gm_xstrdup("/");
  return gm_xasprintf("%.*s", (int)(slash - where), where);
}

gm_compdb *gm_compdb_open(const char *where, char *err, size_t errlen) {
  char *dir = database_dir(where, err, errlen);
  if (!dir)
    return NULL;
  size_t dlen = strlen(dir);
  char *path = dlen && dir[dlen - 1] == '/' ? gm_xasprintf("%scompile_commands.json", dir)
                                            : gm_xasprintf("%s/compile_commands.json", dir);
  FILE *probe = fopen(path, "r");
  if (!probe) {
    snprintf(err, errlen, "%s: cannot open compile database (is %s a build directory?)", path, dir);
    free(path);
    free(dir);
    return NULL;
  }
  fclose(probe);
  gm_compdb *db = gm_xcalloc(1, sizeof *db);
  db->path = path;
  if (!validate(db, path, err, errlen)) {
    free(dir);
    gm_compdb_close(db);
    return NULL;
  }
  CXCompilationDatabase_Error cerr;
  db->db = clang_CompilationDatabase_fromDirectory(dir, &cerr);
  free(dir);
  if (cerr != CXCompilationDatabase_NoError || !db->db) {
    snprintf(err, errlen, "%s: libclang could not load the compile database", path);
    gm_compdb_close(db);
    return NULL;
  }
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
  free(db->present);
  free(db->path);
  free(db);
}

size_t gm_compdb_files(gm_compdb *db, char ***files) {
  *files = db->present;
  return db->npresent;
}

size_t gm_compdb_missing(const gm_compdb *db) {
  return db->nfiles - db->npresent;
}

const char *gm_compdb_path(const gm_compdb *db) {
  return db->path;
}

int gm_compdb_lookup(gm_compdb *db, const char *file, gm_str_vec *flags, gm_compdb_lang *lang,
                     FILE *warn) {
  char real[PATH_MAX];
  const char *key = realpath(file, real) ? real : file;
  int listed = 0;
  for (size_t i = 0; i < db->nfiles && !listed; i++)
    listed = strcmp(db->files[i], key) == 0;
  gm_str_vec args = {0};
  char *dir = NULL;
  pthread_mutex_lock(&db->lock);
  CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db->db, key);
  if (cmds && clang_CompileCommands_getSize(cmds) > 0) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    CXString dirs = clang_CompileCommand_getDirectory(cmd);
    dir = gm_xstrdup(clang_getCString(dirs));
    clang_disposeString(dirs);
    unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned i = 0; i < nargs; i++) {
      CXString s = clang_CompileCommand_getArg(cmd, i);
      GM_PUSH(args, gm_xstrdup(clang_getCString(s)));
      clang_disposeString(s);
    }
  }
  if (cmds)
    clang_CompileCommands_dispose(cmds);
  pthread_mutex_unlock(&db->lock);
  gm_compdb_lang entry_lang = GM_COMPDB_LANG_UNSET;
  if (dir) {
    gm_compdb_expand(&args, dir, file, warn);
    entry_lang = gm_compdb_parser_flags(args.items, args.len, dir, flags);
  }
  if (lang) /* a similar entry's -x is the language of the file it was written for */
    *lang = listed ? entry_lang : GM_COMPDB_LANG_UNSET;
  for (size_t i = 0; i < args.len; i++)
    free(args.items[i]);
  GM_VEC_FREE(args);
  int found = dir != NULL;
  free(dir);
  return !found ? 0 : listed ? 1 : 2;
}

int gm_compdb_flags(gm_compdb *db, const char *file, gm_str_vec *flags) {
  return gm_compdb_lookup(db, file, flags, NULL, NULL);
}
