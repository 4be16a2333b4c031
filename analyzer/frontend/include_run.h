/* A source's leading run of system includes: the `#include <...>` lines before anything but
 * blank lines, comments and `#pragma once`. A shared preamble (pch.h) may hold some of them in
 * the file's place: the file is then parsed with those directives blanked out (spaces, so every
 * offset, line and column stays), and clang reads the headers the file includes and no other. */
#ifndef GM_INCLUDE_RUN_H
#define GM_INCLUDE_RUN_H

#include <stddef.h>

typedef struct gm_include_run {
  size_t n;            /* directives in the run */
  char **headers;      /* each as spelled between its angle brackets */
  size_t *start, *end; /* each directive's bytes, from its '#' to its '>' */
} gm_include_run;

/* Scans the start of text. The run stops at anything it cannot prove a plain directive on a
 * line of its own (a line continuation, a comment running past the line, a macro name, another
 * directive); a run that a conditional directive follows (#if, #ifdef, #ifndef) gives up its
 * last include, so that the blanked file never begins with that conditional (clang would take it
 * for the file's include guard). */
void gm_include_run_scan(const char *text, size_t len, gm_include_run *run);
/* The same, and where the run stops at `#include "H"` (H found as clang would: the file's
 * directory, then the flags' -iquote and -I directories), H's own leading system includes,
 * through its `#pragma once` or include guard, and so on down a chain of such headers: what
 * clang reads first, before any other token. Those are not the file's directives (start == end:
 * nothing to blank): the file includes H, which includes them again, each a no-op after the
 * preamble (their guards), so the file reads the same declarations in the same order. */
void gm_include_run_scan_through(const char *path, const char *text, size_t len, char *const *args,
                                 size_t nargs, gm_include_run *run);
void gm_include_run_free(gm_include_run *run);

/* A copy of text (len bytes and a NUL) with, for each of headers[0..n) (what a preamble holds),
 * the first directive of run naming it that is not blanked already made spaces. */
char *gm_include_run_blank(const char *text, size_t len, const gm_include_run *run,
                           char *const *headers, size_t n);

#endif
