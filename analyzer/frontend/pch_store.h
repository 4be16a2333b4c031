/* The preamble store: shared preambles (pch.h) kept between runs, in a directory of the result
 * cache (driver: <cache dir>/preambles), so that a later run, a pre-commit hook or an editor
 * linting one file does not pay for the CUDA headers again.
 *
 * An entry is named by a key of everything that decides a preamble's content: gmemlint's build
 * and clang's version, the text of the headers gmemlint holds in memory (nvcc_compat.h, the copy
 * of clang's CUDA wrapper), the working directory and clang's include-path environment, the
 * parser flags, the headers in order, and the shape of the chain below it. An entry is three
 * files: KEY.cu (its source, which clang checks on every use), KEY-HASH.pch (the preamble, named
 * by a hash of its bytes) and KEY.dep, a manifest written last (atomically) that names the PCH
 * with its size and hash and lists every file the preamble read with its size and modification
 * time. A manifest is trusted only when each of those files is unchanged, the source is the very
 * path the PCH was built from (the PCH names it, and clang refuses the PCH where it is missing:
 * a store moved or copied elsewhere) and the PCH reads back whole: clang does not check a system
 * header's time, and would otherwise use a stale preamble; anything else (a changed header, a
 * truncated or corrupt PCH, another preamble below) is a miss and the preamble is built again.
 * An entry clang still cannot use is dropped (gm_pch_store_drop), built again by a later run.
 * Files are published without replacing what another run may be reading (link(2), or a new PCH
 * name); two runs building one key both succeed.
 *
 * Using an entry touches its manifest; at the end of a run that stored one, the least recently
 * used entries go until the store is within its bound (never those this run used), with the
 * leftovers of runs that died. A store that cannot be written is reported once and the run goes
 * on with preambles of its own. Thread-safe. */
#ifndef GM_PCH_STORE_H
#define GM_PCH_STORE_H

#include "support/util.h"

#include <stdint.h>
#include <stdio.h>

/* The default bound on the store's size, and the variable that changes it (--pch-store-max). */
#define GM_PCH_STORE_DEFAULT_MAX ((uint64_t)2 << 30)
#define GM_PCH_STORE_MAX_ENV "GMEMLINT_PCH_STORE_MAX"

/* Turns the store on for this run: dir (created when first written), what identifies this
 * gmemlint build (hashed into every key) and the bound in bytes. Without it, no store. */
void gm_pch_store_open(const char *dir, const uint64_t identity[2], uint64_t max_bytes);
int gm_pch_store_enabled(void);

typedef struct gm_pch_key {
  uint64_t h[2];
} gm_pch_key;

/* The key of a preamble of these flags and headers, built on a preamble of `below_headers` of
 * them (-1: none, the base). */
gm_pch_key gm_pch_store_key(const char *const *args, int nargs, char *const *headers, size_t n,
                            long below_headers);

/* A valid entry of key whose PCH was built on below_path (NULL: none): returns its PCH's path
 * (malloc'd) and appends the files it read to includes; NULL on a miss. Touches the entry. */
char *gm_pch_store_find(gm_pch_key key, const char *below_path, gm_str_vec *includes);

/* Where to build the entry of key: its source (holding text, created once) and a temporary
 * path beside it for the PCH. 0 when the store cannot be written (warned once on msg). */
int gm_pch_store_prepare(gm_pch_key key, const char *text, char **source, char **temp, FILE *msg);

/* Publishes a PCH built at temp from source on below_path, having read includes: returns the
 * stored PCH's path (malloc'd), or NULL (temp is then still there for this run alone). */
char *gm_pch_store_publish(gm_pch_key key, const char *temp, const char *source,
                           const char *below_path, const gm_str_vec *includes);

/* Drops the entry of key whose PCH is pch (its manifest goes; another run's newer one of the
 * key stays): clang could not use it, for a reason its checks do not see. */
void gm_pch_store_drop(gm_pch_key key, const char *pch);

/* Prints the --cache-stats line for the store on out (when asked), evicts beyond the bound and
 * turns the store off. */
void gm_pch_store_close(FILE *stats);

#endif
