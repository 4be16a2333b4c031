/* Symbols (symbols.c, libdw): return addresses to functions and source lines. Private to runtime/.
 */
#ifndef GMEMRT_SYMBOLS_H
#define GMEMRT_SYMBOLS_H

#include <stdint.h>

typedef struct gmemrt_symbol {
  const char *function; /* NULL when the symbol table lacks it */
  uint64_t function_offset;
  const char *module; /* the object file's path */
  uint64_t module_offset;
  const char *file; /* NULL without debug info */
  int line, col;
  int in_cuda_header; /* the location is inside the CUDA toolkit's headers */
} gmemrt_symbol;
/* Describes a return address (the call instruction before it). Strings are interned and live
 * as long as the process. Returns 0 when pc is in no known module. */
int gmemrt_symbolise(uintptr_t pc, gmemrt_symbol *out);
int gmemrt_is_cuda_wrapper_name(const char *function);
/* The caller of the frame whose return address is pc, by unwinding the current stack; 0 if pc
 * is not on it. */
uintptr_t gmemrt_caller_of(uintptr_t pc);

#endif
