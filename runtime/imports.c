/* Loaded objects as the injected runtime (inject.c) reads them in memory. Which of them call a
 * driver function directly, through their own relocations (linked with -lcuda), rather than
 * through an entry point fetched with cuGetProcAddress: CUPTI's driver callbacks are needed only
 * for those; read from the objects' dynamic sections, new objects noticed by the link map
 * growing. And where in an object's data the driver's entry points are kept: the CUDA runtime
 * fetches them before the driver loads this library. */
#include "imports.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct scan {
  const char *const *symbols;
  size_t count;
  const char **importer; /* per symbol: the first object linking it, or NULL */
  const char *object;    /* the object being read */
  size_t index, skip;    /* objects come in load order: those read before are skipped */
  unsigned long long subs;
} scan;

/* What the last scan covered: objects are appended to the link map, so unless one was unloaded
 * since (dlpi_subs), the first `objects_read` need no second reading. */
static size_t objects_read;
static unsigned long long subs_read;

static int skipped(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  /* the driver defines them; this runtime reaches them on its own, unrecorded */
  return strncmp(base, "libcuda.so", 10) == 0 || strncmp(base, "libgmemrt", 9) == 0 ||
         strncmp(base, "linux-vdso", 10) == 0;
}

/* A dynamic entry's address: glibc relocates most of them in place, but not everywhere. */
static const void *dyn_ptr(const struct dl_phdr_info *info, ElfW(Addr) value) {
  return (const void *)(value < info->dlpi_addr ? value + info->dlpi_addr : value);
}

static void match_relocations(const scan *s, const ElfW(Rela) * rel, size_t bytes,
                              const ElfW(Sym) * symtab, const char *strtab) {
  for (size_t i = 0; i < bytes / sizeof *rel; i++) {
    size_t sym = ELF64_R_SYM(rel[i].r_info);
    if (!sym || symtab[sym].st_shndx != SHN_UNDEF)
      continue;
    const char *name = strtab + symtab[sym].st_name;
    if (name[0] != 'c' || name[1] != 'u')
      continue;
    for (size_t k = 0; k < s->count; k++)
      if (!s->importer[k] && strcmp(name, s->symbols[k]) == 0)
        s->importer[k] = s->object;
  }
}

static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  scan *s = data;
  s->subs = info->dlpi_subs;
  if (s->index++ < s->skip || skipped(info->dlpi_name))
    return 0;
  s->object = info->dlpi_name;
  const ElfW(Dyn) *dyn = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (!dyn)
    return 0;
  const ElfW(Sym) *symtab = NULL;
  const char *strtab = NULL;
  const ElfW(Rela) *rela = NULL, *jmprel = NULL;
  size_t rela_bytes = 0, jmprel_bytes = 0;
  int plt_rela = 1;
  for (; dyn->d_tag != DT_NULL; dyn++) {
    switch (dyn->d_tag) {
    case DT_SYMTAB:
      symtab = dyn_ptr(info, dyn->d_un.d_ptr);
      break;
    case DT_STRTAB:
      strtab = dyn_ptr(info, dyn->d_un.d_ptr);
      break;
    case DT_RELA:
      rela = dyn_ptr(info, dyn->d_un.d_ptr);
      break;
    case DT_RELASZ:
      rela_bytes = dyn->d_un.d_val;
      break;
    case DT_JMPREL:
      jmprel = dyn_ptr(info, dyn->d_un.d_ptr);
      break;
    case DT_PLTRELSZ:
      jmprel_bytes = dyn->d_un.d_val;
      break;
    case DT_PLTREL:
      plt_rela = dyn->d_un.d_val == DT_RELA;
      break;
    }
  }
  if (!symtab || !strtab)
    return 0;
  if (rela)
    match_relocations(s, rela, rela_bytes, symtab, strtab);
  if (jmprel && plt_rela)
    match_relocations(s, jmprel, jmprel_bytes, symtab, strtab);
  return 0;
}

struct link_map *gmemrt_last_object_seen;

static struct link_map *link_map_tail(void) {
  struct link_map *m = _r_debug.r_map;
  while (m && m->l_next)
    m = m->l_next;
  return m;
}

void gmemrt_scan_imports(const char *const *symbols, size_t count, const char **importer) {
  scan s = {symbols, count, importer, NULL, 0, objects_read, 0};
  dl_iterate_phdr(scan_object, &s);
  if (s.subs != subs_read) { /* something was unloaded: positions moved, read everything again */
    s.index = s.skip = 0;
    dl_iterate_phdr(scan_object, &s);
  }
  objects_read = s.index;
  subs_read = s.subs;
  __atomic_store_n(&gmemrt_last_object_seen, link_map_tail(), __ATOMIC_RELAXED);
}

/* ---- words equal to given values in an object's writable data ---- */

enum { MAX_RANGES = 16 };
typedef struct object_ranges {
  uintptr_t pc;
  const char *name;
  int found;
  size_t n;
  uintptr_t start[MAX_RANGES], end[MAX_RANGES];
} object_ranges;

/* The object holding pc and its writable segments (less the part made read-only after
 * relocation). */
static int find_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  object_ranges *o = data;
  int holds = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t at = info->dlpi_addr + ph->p_vaddr;
    holds |= ph->p_type == PT_LOAD && o->pc >= at && o->pc < at + ph->p_memsz;
  }
  if (!holds)
    return 0;
  o->found = 1;
  o->name = info->dlpi_name;
  uintptr_t relro_start = 0, relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
      relro_start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
      relro_end = relro_start + info->dlpi_phdr[i].p_memsz;
    }
  for (int i = 0; i < info->dlpi_phnum && o->n < MAX_RANGES - 1; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
      continue;
    uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
    if (relro_end > start && relro_start < end) { /* RELRO sits at the segment's start */
      if (relro_start > start) {
        o->start[o->n] = start;
        o->end[o->n++] = relro_start;
      }
      start = relro_end > start ? relro_end : start;
    }
    if (end > start) {
      o->start[o->n] = start;
      o->end[o->n++] = end;
    }
  }
  return 1;
}

static void scan_resident_words(uintptr_t start, uintptr_t end, const uintptr_t *values,
                                size_t count, uintptr_t low, uintptr_t high,
                                void (*found)(uintptr_t *word, size_t which, void *ctx),
                                void *ctx) {
  start = (start + sizeof(uintptr_t) - 1) & ~(uintptr_t)(sizeof(uintptr_t) - 1);
  for (uintptr_t *w = (uintptr_t *)start; (uintptr_t)(w + 1) <= end; w++) {
    uintptr_t v = __atomic_load_n(w, __ATOMIC_RELAXED);
    if (v < low || v > high)
      continue;
    for (size_t k = 0; k < count; k++)
      if (v == values[k]) {
        found(w, k, ctx);
        break;
      }
  }
}

/* Only the pages in memory: pointers the runtime stored are, and a program's large untouched
 * static arrays are neither read nor faulted in. */
static void scan_words(uintptr_t start, uintptr_t end, const uintptr_t *values, size_t count,
                       uintptr_t low, uintptr_t high,
                       void (*found)(uintptr_t *word, size_t which, void *ctx), void *ctx) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  enum { BATCH = 256 };
  unsigned char resident[BATCH];
  for (uintptr_t at = start & ~(page - 1); at < end; at += BATCH * page) {
    uintptr_t batch_end = at + BATCH * page < end ? at + BATCH * page : end;
    size_t pages = (batch_end - at + page - 1) / page;
    int known = mincore((void *)at, batch_end - at, resident) == 0;
    for (size_t i = 0; i < pages; i++) {
      if (known && !(resident[i] & 1))
        continue;
      uintptr_t from = at + i * page, to = from + page;
      scan_resident_words(from > start ? from : start, to < end ? to : end, values, count, low,
                          high, found, ctx);
    }
  }
}

const char *gmemrt_find_words(uintptr_t pc, const uintptr_t *values, size_t count,
                              void (*found)(uintptr_t *word, size_t which, void *ctx), void *ctx) {
  object_ranges o = {.pc = pc};
  dl_iterate_phdr(find_object, &o);
  if (!o.found || !count)
    return o.found ? o.name : NULL;
  uintptr_t low = UINTPTR_MAX, high = 0;
  for (size_t k = 0; k < count; k++) {
    low = values[k] < low ? values[k] : low;
    high = values[k] > high ? values[k] : high;
  }
  /* only pages mapped writable now: the program may have protected some of its data itself */
  FILE *maps = fopen("/proc/self/maps", "re");
  if (!maps)
    return o.name;
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, maps) > 0) {
    unsigned long start, end;
    char perms[5];
    if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3 || perms[1] != 'w')
      continue;
    for (size_t r = 0; r < o.n; r++) {
      uintptr_t from = start > o.start[r] ? start : o.start[r];
      uintptr_t to = end < o.end[r] ? end : o.end[r];
      if (from < to)
        scan_words(from, to, values, count, low, high, found, ctx);
    }
  }
  free(line);
  fclose(maps);
  return o.name;
}
