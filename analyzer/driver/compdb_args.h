/* Shared only inside driver/ (compdb.c): a compile command's arguments read as its compiler
 * reads them. Response files are expanded first, then the flags that matter to parsing are
 * picked out of what nvcc, clang or GCC accept, in any of their spellings. */
#ifndef GM_COMPDB_ARGS_H
#define GM_COMPDB_ARGS_H

#include "driver/compdb.h"

#include <stdio.h>

/* Replaces each @FILE, --options-file FILE (=FILE, nvcc's comma list) and -optf FILE in args
 * (argument 0, the compiler, excepted) by the arguments the file holds, split by GCC's
 * response-file rules (whitespace; single and double quotes; a backslash escapes the next
 * character), nested. A relative name is taken from dir, the entry's directory, as the compiler
 * run there would. A file that cannot be read, or that is met again inside its own expansion, is
 * left out, with a warning on warn naming source (the entry's file) and the response file. */
void gm_compdb_expand(gm_str_vec *args, const char *dir, const char *source, FILE *warn);

/* Appends to flags the parser flags among args (expanded; argument 0 is the compiler):
 * -I, -isystem, -iquote, -idirafter, -include, -D, -U, -std, in clang's spelling with relative
 * paths made absolute against dir, from their nvcc, clang and GCC spellings, from
 * -Xcompiler/--compiler-options lists and after -Xclang; an -include-pch becomes an -include of
 * the header the PCH was made from, or a warning on warn (when not NULL) naming source when that
 * is not beside it. Returns the language -x gives. */
gm_compdb_lang gm_compdb_parser_flags(char *const *args, size_t nargs, const char *dir,
                                      const char *source, FILE *warn, gm_str_vec *flags);

/* The flags an MPI compiler wrapper adds (its include directories), asked once per wrapper
 * (compdb_wrapper.c); NULL when compiler is no MPI wrapper. */
const gm_str_vec *gm_compdb_wrapper_flags(const char *compiler);

#endif
