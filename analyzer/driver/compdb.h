/* compile_commands.json: each file's own flags, as clang-tidy's -p takes them. The database is
 * validated with jansson (so a broken file gets a message with its line and column) and read
 * through libclang's compilation-database API; each entry's arguments are then read as its build
 * reads them (driver/compdb_args.h): response files (@file, nvcc's --options-file), nvcc's long
 * spellings and -Xcompiler lists, -x. Flags that matter to parsing are kept (-I, -isystem,
 * -iquote, -idirafter, -include, -D, -U, -std, also after -Xclang; an -include-pch becomes an
 * -include of the header the PCH was made from); code-generation flags are dropped with their
 * values. */
#ifndef GM_COMPDB_H
#define GM_COMPDB_H

#include "support/util.h"

#include <stddef.h>
#include <stdio.h>

typedef struct gm_compdb gm_compdb;

/* The language an entry's -x gives its file (nvcc's -x cu, clang's -x cuda, -x c++, -x c). */
typedef enum gm_compdb_lang {
  GM_COMPDB_LANG_UNSET, /* no -x: the file's extension decides */
  GM_COMPDB_LANG_CUDA,
  GM_COMPDB_LANG_C,
  GM_COMPDB_LANG_CXX,
} gm_compdb_lang;

/* where is a build directory or its compile_commands.json. NULL with a message in err when the
 * database is missing or malformed. */
gm_compdb *gm_compdb_open(const char *where, char *err, size_t errlen);
void gm_compdb_close(gm_compdb *db);

/* The parser flags for file: returns 1 from its own entry, 2 inferred from a similar entry
 * (libclang interpolates, as clang-tidy does), 0 if none. Thread-safe. *lang (when not NULL)
 * from the file's own entry's -x (UNSET for a similar entry's, which names another file's
 * language); a response file that cannot be read is a warning on warn (when not NULL) naming
 * the file and the response file. */
int gm_compdb_lookup(gm_compdb *db, const char *file, gm_str_vec *flags, gm_compdb_lang *lang,
                     FILE *warn);

/* Every source file named in the database that exists here (absolute paths, each once), for
 * `gmemlint -p dir` alone; gm_compdb_missing counts the others. */
size_t gm_compdb_files(gm_compdb *db, char ***files);

/* How many of the files the database names do not exist on this machine; *moved of them are
 * outside an existing build directory (the database was written elsewhere), the others inside
 * one (sources the build generates, not built yet). */
size_t gm_compdb_missing(const gm_compdb *db, size_t *moved);

/* How many entries came from the nvcc scripts of CMake's FindCUDA module for .cu files the
 * database lacks (driver/compdb_findcuda.h), the first script (for the note that says so), and
 * whether there was no compile_commands.json at all (a build of such targets alone). */
size_t gm_compdb_findcuda(const gm_compdb *db, const char **example, int *alone);

/* The database's path as given to -p (DIR/compile_commands.json), for messages. */
const char *gm_compdb_path(const gm_compdb *db);

#endif
