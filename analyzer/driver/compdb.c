#include "driver/compdb.h"

#include "driver/compdb_args.h"
#include "driver/compdb_findcuda.h"
#include "support/interrupt.h"

#include <clang-c/CXCompilationDatabase.h>
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct gm_compdb {
  CXCompilationDatabase db;
  pthread_mutex_t lock;
  char *path;   /* DIR/compile_commands.json, for messages */
  char **files; /* every file named, absolute, once each */
  char *status; /* of each file: FILE_PRESENT, FILE_GENERATED or FILE_MOVED */
  size_t nfiles;
  char **present; /* the files that exist here, in the database's order */
  size_t npresent;
  CXCompileCommands all; /* every entry, read when a similar entry must be found whole */
  int has_at_file;       /* some entry names an @file, which libclang expands (and complains) */
  int no_file;           /* no compile_commands.json: the FindCUDA scripts' entries alone */
  size_t findcuda_added; /* entries read from FindCUDA scripts, and the first script */
  char *findcuda_example;
};

enum { FILE_PRESENT = 'p', FILE_GENERATED = 'g', FILE_MOVED = 'm' };

/* A missing file inside its entry's build directory is one the build generates and has not yet;
 * one elsewhere, or whose build directory is missing too, was named on another machine or in
 * another checkout. */
static char missing_status(const char *dir, const char *abs) {
  char real_dir[PATH_MAX];
  if (!realpath(dir, real_dir))
    return FILE_MOVED;
  size_t n = strlen(dir), rn = strlen(real_dir);
  int inside = (strncmp(abs, dir, n) == 0 && abs[n] == '/') ||
               (strncmp(abs, real_dir, rn) == 0 && abs[rn] == '/');
  return inside ? FILE_GENERATED : FILE_MOVED;
}

/* A file compiled by two targets has two entries: it is analysed once (libclang gives the first
 * entry's flags). Then the list of those that exist. */
static void keep_first_of_each(gm_compdb *db) {
  char *dup = gm_mark_repeats(db->files, db->nfiles);
  size_t w = 0;
  for (size_t i = 0; i < db->nfiles; i++) {
    if (dup[i]) {
      free(db->files[i]);
      continue;
    }
    db->status[w] = db->status[i];
    db->files[w++] = db->files[i];
  }
  db->nfiles = w;
  db->present = gm_xcalloc(w + 1, sizeof(char *));
  for (size_t i = 0; i < w; i++)
    if (db->status[i] == FILE_PRESENT)
      db->present[db->npresent++] = db->files[i];
  free(dup);
}

/* Whether an entry's command or arguments may name a response file as GCC does (`@FILE`). */
static int names_at_file(json_t *cmd, json_t *args) {
  if (json_is_string(cmd)) {
    return strchr(json_string_value(cmd), '@') != NULL; /* quoted or not: never too few */
  }
  size_t i;
  json_t *arg;
  json_array_foreach(args, i, arg) {
    if (json_is_string(arg) && json_string_value(arg)[0] == '@')
      return 1;
  }
  return 0;
}

/* An entry's compiler command, when it names one: a non-empty "arguments" (libclang reads it
 * before "command"), else a "command" with more than blanks. */
static int has_command(json_t *cmd, json_t *args) {
  if (json_is_array(args))
    return json_array_size(args) > 0;
  for (const char *p = json_string_value(cmd); *p; p++)
    if (!isspace((unsigned char)*p))
      return 1;
  return 0;
}

/* An entry's "directory", absolute: a relative one is taken from the database's own directory
 * (db_dir, absolute), not from wherever gmemlint runs. */
static char *entry_dir(const char *d, const char *db_dir) {
  if (d[0] == '/')
    return gm_xstrdup(d);
  char *joined = gm_xasprintf("%s/%s", db_dir, d), real[PATH_MAX];
  if (!realpath(joined, real))
    return joined;
  free(joined);
  return gm_xstrdup(real);
}

/* Checks the database and lists its files; relative directories are made absolute in *root,
 * which *rewritten then says. */
static int validate(gm_compdb *db, const char *path, const char *db_dir, json_t **root_out,
                    int *rewritten, char *err, size_t errlen) {
  json_t *root = *root_out;
  if (!root) {
    json_error_t jerr;
    root = json_load_file(path, 0, &jerr);
    if (!root) {
      if (jerr.line < 0)
        snprintf(err, errlen, "%s: %s", path, jerr.text);
      else
        snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column,
                 jerr.text);
      return 0;
    }
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
    if (!has_command(cmd, args)) {
      snprintf(err, errlen, "%s: entry %zu (%s) has an empty \"%s\": no compiler command to read",
               path, i + 1, json_string_value(file), json_is_array(args) ? "arguments" : "command");
      ok = 0;
      break;
    }
    char *d = entry_dir(json_string_value(dir), db_dir);
    struct stat st;
    if (stat(d, &st) == 0 && !S_ISDIR(st.st_mode)) {
      const char *given = json_string_value(dir);
      snprintf(err, errlen, "%s: entry %zu (%s): its \"directory\" %s%s%s%s is not a directory",
               path, i + 1, json_string_value(file), given, given[0] == '/' ? "" : " (",
               given[0] == '/' ? "" : d, given[0] == '/' ? "" : ")");
      free(d);
      ok = 0;
      break;
    }
    if (strcmp(d, json_string_value(dir)) != 0) {
      json_object_set_new(entry, "directory", json_string(d));
      *rewritten = 1;
    }
    db->has_at_file |= names_at_file(cmd, args);
    const char *f = json_string_value(file);
    char *abs = f[0] == '/' ? gm_xstrdup(f) : gm_xasprintf("%s/%s", d, f);
    char real[PATH_MAX];
    char status = realpath(abs, real) ? FILE_PRESENT : missing_status(d, abs);
    if (status == FILE_PRESENT) {
      free(abs);
      abs = gm_xstrdup(real);
    }
    db->files = gm_xrealloc(db->files, sizeof(char *) * (db->nfiles + 1));
    db->status = gm_xrealloc(db->status, db->nfiles + 1);
    db->status[db->nfiles] = status;
    db->files[db->nfiles++] = abs;
    free(d);
  }
  if (ok)
    keep_first_of_each(db);
  *root_out = root;
  return ok;
}

/* The FindCUDA scripts' entries for files the database lacks: appended to it (and to its
 * files), counted, with the first script kept for the note that says so. */
static void add_findcuda(gm_compdb *db, json_t *root, json_t *findcuda, const gm_str_vec *scripts,
                         int *rewritten) {
  size_t i;
  json_t *entry;
  json_array_foreach(findcuda, i, entry) {
    const char *f = json_string_value(json_object_get(entry, "file"));
    char real[PATH_MAX];
    const char *abs = realpath(f, real) ? real : f;
    size_t k = 0;
    while (k < db->nfiles && strcmp(db->files[k], abs) != 0)
      k++;
    if (k < db->nfiles)
      continue; /* the database has it (a CMake that lists them, or a file built both ways) */
    json_array_append(root, entry);
    db->files = gm_xrealloc(db->files, sizeof(char *) * (db->nfiles + 1));
    db->status = gm_xrealloc(db->status, db->nfiles + 1);
    db->status[db->nfiles] = realpath(f, real) ? FILE_PRESENT : FILE_MOVED;
    db->files[db->nfiles++] = gm_xstrdup(abs);
    if (!db->findcuda_added++)
      db->findcuda_example = gm_xstrdup(scripts->items[i]);
    *rewritten = 1;
  }
  if (db->findcuda_added) {
    free(db->present); /* listed again with the scripts' files */
    db->present = NULL;
    db->npresent = 0;
    keep_first_of_each(db);
  }
}

/* libclang reads a database from a directory: one with relative directories is handed over
 * with them made absolute, as a copy in a private temporary directory removed once read (or by
 * the interrupt handler, should a signal end the run while it exists). */
static CXCompilationDatabase load_absolute(json_t *root, CXCompilationDatabase_Error *cerr) {
  const char *tmp = getenv("TMPDIR");
  char *dir = gm_xasprintf("%s/gmemlint-compdb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  CXCompilationDatabase loaded = NULL;
  *cerr = CXCompilationDatabase_CanNotLoadDatabase;
  if (mkdtemp(dir)) {
    int slot = gm_interrupt_remember(dir);
    char *file = gm_xasprintf("%s/compile_commands.json", dir);
    if (json_dump_file(root, file, JSON_COMPACT) == 0)
      loaded = clang_CompilationDatabase_fromDirectory(dir, cerr);
    unlink(file);
    rmdir(dir);
    gm_interrupt_forget(slot);
    free(file);
  }
  free(dir);
  return loaded;
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
  char real_dir[PATH_MAX];
  const char *build_dir = realpath(dir, real_dir) ? real_dir : dir;
  gm_str_vec scripts = {0};
  json_t *findcuda = gm_findcuda_entries(build_dir, &scripts);
  json_t *root = NULL;
  FILE *probe = fopen(path, "r");
  if (probe) {
    fclose(probe);
  } else if (json_array_size(findcuda)) { /* a build of FindCUDA targets alone writes none */
    root = json_array();
  } else {
    snprintf(err, errlen, "%s: cannot open compile database (is %s a build directory?)", path, dir);
    json_decref(findcuda);
    free(path);
    free(dir);
    return NULL;
  }
  gm_compdb *db = gm_xcalloc(1, sizeof *db);
  db->path = path;
  db->no_file = !probe;
  int rewritten = 0;
  if (!validate(db, path, build_dir, &root, &rewritten, err, errlen)) {
    json_decref(root);
    json_decref(findcuda);
    for (size_t i = 0; i < scripts.len; i++)
      free(scripts.items[i]);
    GM_VEC_FREE(scripts);
    free(dir);
    gm_compdb_close(db);
    return NULL;
  }
  add_findcuda(db, root, findcuda, &scripts, &rewritten);
  json_decref(findcuda);
  for (size_t i = 0; i < scripts.len; i++)
    free(scripts.items[i]);
  GM_VEC_FREE(scripts);
  CXCompilationDatabase_Error cerr;
  db->db =
      rewritten ? load_absolute(root, &cerr) : clang_CompilationDatabase_fromDirectory(dir, &cerr);
  json_decref(root);
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
  if (db->all)
    clang_CompileCommands_dispose(db->all);
  if (db->db)
    clang_CompilationDatabase_dispose(db->db);
  for (size_t i = 0; i < db->nfiles; i++)
    free(db->files[i]);
  free(db->files);
  free(db->status);
  free(db->present);
  free(db->path);
  free(db->findcuda_example);
  free(db);
}

size_t gm_compdb_findcuda(const gm_compdb *db, const char **example, int *alone) {
  *example = db->findcuda_example;
  *alone = db->no_file;
  return db->findcuda_added;
}

size_t gm_compdb_files(gm_compdb *db, char ***files) {
  *files = db->present;
  return db->npresent;
}

size_t gm_compdb_missing(const gm_compdb *db, size_t *moved) {
  *moved = 0;
  for (size_t i = 0; i < db->nfiles; i++)
    *moved += db->status[i] == FILE_MOVED;
  return db->nfiles - db->npresent;
}

const char *gm_compdb_path(const gm_compdb *db) {
  return db->path;
}

static char *command_dir(CXCompileCommand cmd) {
  CXString s = clang_CompileCommand_getDirectory(cmd);
  char *dir = gm_xstrdup(clang_getCString(s));
  clang_disposeString(s);
  return dir;
}

static void command_args(CXCompileCommand cmd, gm_str_vec *args) {
  unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
  for (unsigned i = 0; i < nargs; i++) {
    CXString s = clang_CompileCommand_getArg(cmd, i);
    GM_PUSH(*args, gm_xstrdup(clang_getCString(s)));
    clang_disposeString(s);
  }
}

static void free_args(gm_str_vec *args) {
  for (size_t i = 0; i < args->len; i++)
    free(args->items[i]);
  GM_VEC_FREE(*args);
}

/* libclang's interpolation keeps a similar entry's flags but drops its positional arguments, and
 * with them the file of nvcc's --options-file (clang does not know that it takes one). */
static int lost_options_file(const gm_str_vec *args) {
  for (size_t i = 1; i < args->len; i++)
    if (strcmp(args->items[i], "--options-file") == 0 || strcmp(args->items[i], "-optf") == 0)
      return 1;
  return 0;
}

/* The entry an interpolated command came from, read whole: one in the same directory holding
 * every flag the interpolation kept (the file named, "--" and the -x it adds for a header aside),
 * the one whose file shares the longest path with key. Called with db->lock held. */
static void whole_similar_entry(gm_compdb *db, const char *dir, const char *key, gm_str_vec *args) {
  if (!db->all)
    db->all = clang_CompilationDatabase_getAllCompileCommands(db->db);
  unsigned n = db->all ? clang_CompileCommands_getSize(db->all) : 0;
  gm_str_vec best = {0};
  size_t best_shared = 0;
  for (unsigned k = 0; k < n; k++) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(db->all, k);
    char *cdir = command_dir(cmd);
    int same_dir = strcmp(cdir, dir) == 0;
    free(cdir);
    if (!same_dir)
      continue;
    gm_str_vec entry = {0};
    command_args(cmd, &entry);
    int holds = 1;
    for (size_t i = 1; i + 1 < args->len && holds; i++) {
      if (strcmp(args->items[i], "-x") == 0) /* added for a header, with its value */
        i++;
      else
        holds = strcmp(args->items[i], "--") == 0 || gm_str_vec_has(&entry, args->items[i]);
    }
    CXString fs = clang_CompileCommand_getFilename(cmd);
    const char *f = clang_getCString(fs);
    size_t shared = 0;
    while (f[shared] && f[shared] == key[shared])
      shared++;
    clang_disposeString(fs);
    if (holds && (!best.len || shared > best_shared)) {
      free_args(&best);
      best = entry;
      best_shared = shared;
    } else {
      free_args(&entry);
    }
  }
  if (best.len) {
    free_args(args);
    *args = best;
  }
}

/* libclang expands an entry's @file itself and prints what goes wrong to stderr bare, without
 * the program's name or a newline: its fd 2 is caught around the calls that expand. Each of its
 * messages is about an @file it then leaves unexpanded (a cycle, one it cannot read), which
 * gm_compdb_expand reads again and reports with the entry named, so they are dropped; what other
 * threads wrote meanwhile goes back to stderr as it was. */
typedef struct stderr_catch {
  int saved;
  FILE *tmp;
} stderr_catch;

static void catch_stderr(stderr_catch *c) {
  fflush(stderr);
  c->tmp = tmpfile();
  c->saved = c->tmp ? dup(STDERR_FILENO) : -1;
  if (c->saved >= 0 && dup2(fileno(c->tmp), STDERR_FILENO) < 0) {
    close(c->saved);
    c->saved = -1;
  }
}

static const char *const libclang_messages[] = {"recursive expansion of: '",
                                                "cannot open file: ", "cannot not open file '"};

static int libclang_message(const char *p) {
  for (size_t k = 0; k < sizeof libclang_messages / sizeof libclang_messages[0]; k++)
    if (strncmp(p, libclang_messages[k], strlen(libclang_messages[k])) == 0)
      return 1;
  return 0;
}

static void release_stderr(stderr_catch *c) {
  if (c->saved < 0) {
    if (c->tmp)
      fclose(c->tmp);
    return;
  }
  fflush(stderr);
  dup2(c->saved, STDERR_FILENO);
  close(c->saved);
  gm_strbuf text = {0};
  char chunk[4096];
  size_t n;
  rewind(c->tmp);
  while ((n = fread(chunk, 1, sizeof chunk, c->tmp)) > 0)
    gm_sb_appendn(&text, chunk, n);
  fclose(c->tmp);
  for (const char *p = text.data; p && *p;) {
    const char *next = NULL;
    if (libclang_message(p)) { /* it runs to a newline or the next message that is gmemlint's */
      const char *nl = strchr(p, '\n'), *ours = strstr(p, GM_PROGRAM ":");
      next = nl && (!ours || nl < ours) ? nl + 1 : ours ? ours : p + strlen(p);
    } else {
      const char *nl = strchr(p, '\n');
      next = nl ? nl + 1 : p + strlen(p);
      fwrite(p, 1, (size_t)(next - p), stderr);
    }
    p = next;
  }
  free(text.data);
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
  stderr_catch caught = {-1, NULL}; /* a file per lookup: only where libclang may complain */
  if (db->has_at_file)
    catch_stderr(&caught);
  CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db->db, key);
  if (cmds && clang_CompileCommands_getSize(cmds) > 0) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    dir = command_dir(cmd);
    command_args(cmd, &args);
    if (!listed && lost_options_file(&args))
      whole_similar_entry(db, dir, key, &args);
  }
  if (cmds)
    clang_CompileCommands_dispose(cmds);
  release_stderr(&caught);
  pthread_mutex_unlock(&db->lock);
  gm_compdb_lang entry_lang = GM_COMPDB_LANG_UNSET;
  if (dir) {
    gm_compdb_expand(&args, dir, file, warn);
    entry_lang = gm_compdb_parser_flags(args.items, args.len, dir, file, warn, flags);
  }
  if (lang) /* a similar entry's -x is the language of the file it was written for */
    *lang = listed ? entry_lang : GM_COMPDB_LANG_UNSET;
  free_args(&args);
  int found = dir != NULL;
  free(dir);
  return !found ? 0 : listed ? 1 : 2;
}
