/* The result cache: what analysing a source produced (findings with their notes, fix-its and
 * fingerprints, notices such as a function cut short, the unit summary that whole-program analysis
 * joins, and the messages printed after the parse) is
 * stored under a key made of what decides it: the file's text and name, the parser flags, the
 * .gmemlint in force, the rule selection, --werror, the working directory, the parser's
 * environment, this gmemlint build and libclang's version. An entry also lists every file the parse
 * read (clang_getInclusions) with a hash of its contents; a changed header turns the entry into a
 * miss. So an unchanged file is not parsed again, and a hit prints exactly what the parse would
 * have.
 *
 * Entries live in --cache-dir, else $XDG_CACHE_HOME/gmemlint, else ~/.cache/gmemlint; --no-cache
 * turns the cache off. Anything wrong with the cache (unreadable, corrupt, unwritable, an entry
 * stored under another key, anything but a regular file of bounded size) costs a parse, never a
 * result, and never blocks. */
#ifndef GM_CACHE_H
#define GM_CACHE_H

#include "driver/options.h"
#include "findings/report.h"
#include "program/unit.h"

#include <stdint.h>
#include <stdio.h>

typedef struct gm_cache gm_cache;

typedef struct gm_cache_key {
  uint64_t h[2];
} gm_cache_key;

/* The cache directory (malloc'd), NULL when there is none; the preamble store is under it. */
char *gm_cache_dir(const gm_options *opt);
/* What identifies this gmemlint build (its version and the executable's build id). */
void gm_cache_identity(uint64_t out[2]);

/* The cache for one run; NULL when it is off (--no-cache, or no directory to use). `enabled`
 * and `disabled` are the command line's rule selection (gm_run). */
gm_cache *gm_cache_open(const gm_options *opt, uint64_t only, uint64_t enabled, uint64_t disabled);
/* Prints the --cache-stats line to stderr when asked, and frees c (NULL is fine). */
void gm_cache_close(gm_cache *c, const gm_options *opt);

/* The key of one source: its name as given, its text, the parser flags (before any PCH) and the
 * .gmemlint that applies (NULL for none). */
gm_cache_key gm_cache_key_for(gm_cache *c, const char *path, const char *text, size_t len,
                              const char *const *args, size_t nargs, const char *config_path);
/* A key that also depends on `text`: whole-program pass two keys a file's result by the other
 * files' summaries its analysis used. */
gm_cache_key gm_cache_key_mix(gm_cache_key key, const char *text);

/* On a hit: appends the stored findings and notices to report, sets *unit to the stored unit
 * summary of `source` (NULL when it had none), writes the stored messages to msg and returns 1.
 * Returns 0 on a miss (no entry, a file it read has changed, an unreadable entry). */
int gm_cache_load(gm_cache *c, const gm_cache_key *key, const char *source, gm_report *report,
                  gm_unit **unit, FILE *msg);

/* Stores a result: the files the parse read (`includes`, and `more` for those of a PCH; either
 * may be NULL), the findings and notices, the unit summary for whole-program analysis (may be
 * NULL), and the messages printed since the key was made. A
 * failure to write is reported once per run, as a warning on msg. */
void gm_cache_store(gm_cache *c, const gm_cache_key *key, const gm_str_vec *includes,
                    const gm_str_vec *more, const gm_report *report, const gm_unit *unit,
                    const char *messages, size_t messages_len, FILE *msg);

#endif
