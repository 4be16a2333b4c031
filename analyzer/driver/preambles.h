/* Private to the driver: which shared preamble each file of a pass parses with, and in what
 * order the workers build the preambles and parse the files (driver.c's worker pool). */
#ifndef GM_PREAMBLES_H
#define GM_PREAMBLES_H

#include "driver/options.h"
#include "frontend/include_run.h"
#include "frontend/pch.h"

/* A run of leading includes gets its own preamble when at least this many files of the pass
 * begin with it and no longer shared run serves them: building one costs about one and a half
 * parses of its headers, each file that uses it saves one. */
enum { PREAMBLE_MIN_SHARE = 2 };

/* Turns the preamble store (frontend/pch_store.h) on for this run, in the cache directory's
 * preambles/, unless --pch=never, --no-pch-store or --verify (whose tests stay within their own
 * directories) say otherwise; --no-cache leaves it on. */
void preamble_store_open(const gm_options *opt);
/* Prints its --cache-stats line, evicts beyond its bound and turns it off. */
void preamble_store_close(const gm_options *opt);

/* One file to parse with a preamble: its flags and leading includes. */
typedef struct preamble_file {
  char *const *args;
  int nargs;
  const gm_include_run *run;
} preamble_file;

/* The files of a pass that need a parse, and the order of the work: each preamble is built
 * before the files that use it are parsed, preambles before files, so that no worker waits on
 * another's build while there is something else to do. */
typedef struct parse_queue {
  size_t n;
  gm_preamble **pch; /* per file: the preamble planned, NULL: none (not CUDA, or --pch=never) */
  char *taken;
  size_t first;                 /* files before it are all taken */
  GM_VEC(gm_preamble *) builds; /* every preamble planned, each after the one it is built on */
} parse_queue;

/* A queue of n files, none with a preamble yet. */
void parse_queue_init(parse_queue *q, size_t n);
/* Plans the preambles of files[k] for the listed k (CUDA files, when preambles are used): the
 * base of their flags, or the preamble of the longest run of leading includes that at least
 * PREAMBLE_MIN_SHARE of them begin with and a longer one does not serve (with the preamble store
 * on, each file's whole run as well: later runs take it ready-made). A run is taken in one
 * canonical order (library directories' headers, then the C++ library's, then C headers; the
 * more files include one, the earlier) unless a header of it is in the flags' own include
 * directories: then in the file's. */
void parse_queue_plan(parse_queue *q, const preamble_file *files, const size_t *which, size_t n);

enum parse_task { TASK_BUILD, TASK_PARSE, TASK_WAIT, TASK_DONE };
/* The next task, under the lock of the pool that shares the queue: a preamble to build (*pch:
 * claimed for the caller), a file to parse (*file, and *pch: the preamble to parse it with, the
 * one below the planned one where that failed, or NULL), nothing until another worker's build
 * ends (wait, then ask again), or nothing left. */
enum parse_task parse_queue_next(parse_queue *q, size_t *file, gm_preamble **pch);
void parse_queue_free(parse_queue *q);

#endif
