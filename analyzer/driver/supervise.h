/* Private to the driver: a lint run that survives what crashes the parser. The process forks
 * before any thread or libclang starts; the child does the run and tells the parent, through a
 * pipe, which files it is analysing and which it has printed. When the child dies of a crash
 * (SIGSEGV from a stack the parser overflowed, SIGABRT or SIGKILL from the memory bound), the
 * parent runs it again: a file that was alone in flight is then reported as not analysed (an
 * input error, in every format and the exit status), several in flight are analysed one at a
 * time to find which, and a preamble build in flight turns preambles off. Files already printed
 * are not printed twice; the other files' results stand. */
#ifndef GM_SUPERVISE_H
#define GM_SUPERVISE_H

#include "driver/options.h"

#include <stddef.h>

/* Runs lint(opt) under a supervising parent (or directly with --no-isolation) and returns its
 * exit status; the child's address space is bounded by --max-memory. */
int gm_supervise(gm_options *opt, int (*lint)(gm_options *));

/* In the child (each a no-op when the run is not supervised): file i's analysis begins or ends;
 * a preamble build begins or ends; file i's findings and messages were printed. */
void gm_supervised_begin(size_t file);
void gm_supervised_end(size_t file);
void gm_supervised_preamble(int building);
void gm_supervised_printed(size_t file);

/* Whether an earlier child crashed on file i: then *why says how ("the parser crashed on it
 * (SIGSEGV)"), and the file is not analysed again. */
int gm_supervised_skip(size_t file, char *why, size_t len);
/* Whether an earlier child printed file i already. */
int gm_supervised_was_printed(size_t file);

#endif
