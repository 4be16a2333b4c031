/* Return addresses to functions and source lines, with elfutils' libdw: the preloaded runtime's
 * sites (the caller of cudaMalloc, joined to the static pass's file:line) and the frames of the
 * stacks it keeps. Inlined code is resolved to its call site when the line lies in a CUDA
 * header, so an inlined cudaMalloc<T> names the user's line, as the forced-include header does. */
#include "symbols.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <libunwind.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t symbols_lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *dwfl;
static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* Strings handed out outlive libdw's own (modules are re-reported after a dlopen). */
static const char *intern(const char *s) {
  static char **table;
  static size_t cap, used;
  if (!s)
    return NULL;
  uint64_t h = 1469598103934665603ULL;
  for (const char *p = s; *p; p++)
    h = (h ^ (unsigned char)*p) * 1099511628211ULL;
  if ((used + 1) * 2 > cap) {
    size_t ncap = cap ? cap * 2 : 256;
    char **t = calloc(ncap, sizeof *t);
    if (!t)
      return NULL;
    for (size_t i = 0; i < cap; i++)
      if (table[i]) {
        uint64_t g = 1469598103934665603ULL;
        for (const char *p = table[i]; *p; p++)
          g = (g ^ (unsigned char)*p) * 1099511628211ULL;
        size_t k = g & (ncap - 1);
        while (t[k])
          k = (k + 1) & (ncap - 1);
        t[k] = table[i];
      }
    free(table);
    table = t;
    cap = ncap;
  }
  size_t k = h & (cap - 1);
  for (; table[k]; k = (k + 1) & (cap - 1))
    if (!strcmp(table[k], s))
      return table[k];
  table[k] = strdup(s);
  if (table[k])
    used++;
  return table[k];
}

static int report_modules(void) {
  if (!dwfl)
    dwfl = dwfl_begin(&callbacks);
  if (!dwfl)
    return 0;
  dwfl_report_begin(dwfl);
  int rc = dwfl_linux_proc_report(dwfl, getpid());
  dwfl_report_end(dwfl, NULL, NULL);
  return rc == 0;
}

static int in_cuda_header(const char *file) {
  if (!file)
    return 0;
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  return !strcmp(base, "cuda_runtime.h") || !strcmp(base, "cuda_runtime_api.h") ||
         !strcmp(base, "cuda.h") || strstr(file, "/crt/") != NULL;
}

/* Without debug information, a C++ wrapper of cuda_runtime.h is known by its mangled name:
 * _Z10cudaMallocIfE..., _ZL14cudaMallocHostPPvmj (a name that begins "cuda"). */
int gmemrt_is_cuda_wrapper_name(const char *fn) {
  if (!fn || strncmp(fn, "_Z", 2) != 0)
    return 0;
  fn += 2;
  if (*fn == 'L')
    fn++;
  while (*fn >= '0' && *fn <= '9')
    fn++;
  return strncmp(fn, "cuda", 4) == 0;
}

static int attr_int(Dwarf_Die *die, int name) {
  Dwarf_Attribute attr;
  Dwarf_Word v;
  if (!dwarf_attr_integrate(die, name, &attr) || dwarf_formudata(&attr, &v) != 0)
    return -1;
  return (int)v;
}

/* Walks out of inlined CUDA-header code: each inlined scope's call site is where its code
 * appears in the enclosing function. */
static void leave_inlined_headers(Dwfl_Module *mod, Dwarf_Addr addr, gmemrt_symbol *out) {
  Dwarf_Addr bias = 0;
  Dwarf_Die *cudie = dwfl_module_addrdie(mod, addr, &bias);
  if (!cudie)
    return;
  Dwarf_Die *scopes = NULL;
  int n = dwarf_getscopes(cudie, addr - bias, &scopes);
  if (n > 0) {
    /* the innermost scope's whole chain out to the unit, inlined callers included (the chain by
     * address alone can stop short, e.g. in a function split into hot and cold parts) */
    Dwarf_Die innermost = scopes[0];
    Dwarf_Die *chain = NULL;
    int m = dwarf_getscopes_die(&innermost, &chain);
    if (m > n) {
      free(scopes);
      scopes = chain;
      n = m;
    } else {
      free(chain);
    }
  }
  Dwarf_Files *files = NULL;
  size_t nfiles = 0;
  if (n > 0 && dwarf_getsrcfiles(cudie, &files, &nfiles) == 0) {
    for (int i = 0; i < n && in_cuda_header(out->file); i++) {
      if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
        continue;
      int file = attr_int(&scopes[i], DW_AT_call_file);
      int line = attr_int(&scopes[i], DW_AT_call_line);
      if (file < 0 || (size_t)file >= nfiles || line < 0)
        break;
      out->file = intern(dwarf_filesrc(files, (size_t)file, NULL, NULL));
      out->line = line;
      int col = attr_int(&scopes[i], DW_AT_call_column);
      out->col = col > 0 ? col : 0;
    }
  }
  free(scopes);
}

int gmemrt_symbolise(uintptr_t pc, gmemrt_symbol *out) {
  memset(out, 0, sizeof *out);
  if (!pc)
    return 0;
  Dwarf_Addr addr = (Dwarf_Addr)pc - 1; /* inside the call instruction */
  pthread_mutex_lock(&symbols_lock);
  Dwfl_Module *mod = NULL;
  if (dwfl || report_modules()) {
    mod = dwfl_addrmodule(dwfl, addr);
    if (!mod && report_modules()) /* a library loaded since */
      mod = dwfl_addrmodule(dwfl, addr);
  }
  if (!mod) {
    pthread_mutex_unlock(&symbols_lock);
    return 0;
  }
  Dwarf_Addr start = 0;
  const char *module = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
  out->module = intern(module);
  out->module_offset = addr + 1 - start;
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char *name = dwfl_module_addrinfo(mod, addr, &offset, &sym, NULL, NULL, NULL);
  out->function = intern(name);
  out->function_offset = name ? (uint64_t)offset + 1 : 0;
  out->in_cuda_header = gmemrt_is_cuda_wrapper_name(out->function);
  Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
  if (line) {
    int lineno = 0, col = 0;
    const char *src = dwfl_lineinfo(line, NULL, &lineno, &col, NULL, NULL);
    if (src) {
      out->file = intern(src);
      out->line = lineno;
      out->col = col;
      if (in_cuda_header(out->file))
        leave_inlined_headers(mod, addr, out);
      out->in_cuda_header = in_cuda_header(out->file);
    }
  }
  pthread_mutex_unlock(&symbols_lock);
  return 1;
}

uintptr_t gmemrt_caller_of(uintptr_t pc) {
  void *frames[48];
  int n = unw_backtrace(frames, 48);
  for (int i = 0; i + 1 < n; i++)
    if ((uintptr_t)frames[i] == pc)
      return (uintptr_t)frames[i + 1];
  return 0;
}
