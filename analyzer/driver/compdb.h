/* compile_commands.json: each file's own flags, as clang-tidy's -p takes them. The database is
 * validated with jansson (so a broken file gets a message with its line and column) and read
 * through libclang's compilation-database API. Flags that matter to parsing are kept (-I, -D,
 * -U, -isystem, -include, -std); nvcc's and code-generation flags are dropped. */
#ifndef GM_COMPDB_H
#define GM_COMPDB_H

#include "support/util.h"

#include <stddef.h>

typedef struct gm_compdb gm_compdb;

/* NULL with a message in err when the database is missing or malformed. */
gm_compdb *gm_compdb_open(const char *dir, char *err, size_t errlen);
void gm_compdb_close(gm_compdb *db);

/* The parser flags for file: returns 1 from its own entry, 2 inferred from a similar entry
 * (libclang interpolates, as clang-tidy does), 0 if none. Thread-safe. */
int gm_compdb_flags(gm_compdb *db, const char *file, gm_str_vec *flags);

/* Every source file named in the database (absolute paths), for `gmemlint -p dir` alone. */
size_t gm_compdb_files(gm_compdb *db, char ***files);

#endif
