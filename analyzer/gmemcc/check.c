/* gmemcc --gmem-check FILE...: says whether a built object, archive, program or shared library is
 * instrumented, and how. A build can look right and still bypass gmemcc (a Makefile whose
 * compiler variable is not NVCC, a launcher that only reaches the CUDA compiles), so this reads
 * what the binary holds rather than how it was built:
 *   - the units compiled with gmem_forced.h: each names itself in the gmemrt_units section,
 *     which the linker concatenates into the program or library;
 *   - libgmemrt: its hooks (gmemrt_<api>) defined in the file, or referenced and left to be
 *     resolved elsewhere (an instrumented shared library loaded by an instrumented program).
 * ELF is read with libelf; archives member by member. */
#include "gmemcc/gmemcc.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define UNITS_SECTION "gmemrt_units" /* gmem_forced.h's */

typedef struct {
  strvec units;       /* the sources compiled with gmem_forced.h */
  bool defines_hooks; /* libgmemrt is linked in */
  bool needs_hooks;   /* calls hooks it does not define */
  bool has_symtab;    /* not stripped */
  size_t objects;     /* ELF files read (archive members) */
  GElf_Half type;     /* ET_REL, ET_EXEC, ET_DYN of the last one */
  bool interp;        /* has a program interpreter: an executable, PIE or not */
} findings;

/* gmemrt_ functions and objects of the runtime; gmem_forced.h's own unit marker is local and
 * gmemrt.h's gmemrt_step/gmemrt_dump are weak references that need no runtime. */
static void read_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, findings *f) {
  Elf_Data *data = elf_getdata(scn, NULL);
  if (!data || !sh->sh_entsize)
    return;
  size_t n = sh->sh_size / sh->sh_entsize;
  for (size_t i = 0; i < n; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)i, &sym))
      continue;
    const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
    int bind = GELF_ST_BIND(sym.st_info);
    if (!name || strncmp(name, "gmemrt_", 7) != 0 || bind == STB_LOCAL)
      continue;
    if (sym.st_shndx != SHN_UNDEF)
      f->defines_hooks = true;
    else if (bind != STB_WEAK)
      f->needs_hooks = true;
  }
}

static bool has_unit(const findings *f, const char *name, size_t len) {
  for (size_t i = 0; i < f->units.n; i++)
    if (strlen(f->units.v[i]) == len && memcmp(f->units.v[i], name, len) == 0)
      return true;
  return false;
}

static void read_units(Elf_Scn *scn, findings *f) {
  Elf_Data *data = NULL;
  while ((data = elf_getdata(scn, data)) != NULL) {
    const char *p = data->d_buf, *end = p + data->d_size;
    if (!p)
      continue; /* SHT_NOBITS */
    while (p < end) {
      size_t len = strnlen(p, (size_t)(end - p));
      if (len && !has_unit(f, p, len))
        push(&f->units, xasprintf("%.*s", (int)len, p));
      p += len + 1; /* the NUL, and the padding of aligned units */
    }
  }
}

/* One ELF file (or archive member). Returns false if libelf cannot read it. */
static bool read_elf(Elf *elf, findings *f) {
  GElf_Ehdr eh;
  size_t shstrndx;
  if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx) != 0)
    return false;
  f->objects++;
  f->type = eh.e_type;
  size_t nph = 0;
  if (elf_getphdrnum(elf, &nph) == 0)
    for (size_t i = 0; i < nph; i++) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
        f->interp = true;
    }
  for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
      continue;
    const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
    if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
      f->has_symtab |= sh.sh_type == SHT_SYMTAB;
      read_symbols(elf, scn, &sh, f);
    } else if (name && strcmp(name, UNITS_SECTION) == 0) {
      read_units(scn, f);
    }
  }
  return true;
}

static const char *plural(size_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* Prints the verdict for one file; returns 0 (instrumented), 1 (not) or 2 (cannot read it). */
static int check_file(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(stderr, PROG ": error: %s: cannot open: %m\n", path);
    return EXIT_GMEMCC;
  }
  findings f = {0};
  Elf *top = elf_begin(fd, ELF_C_READ, NULL);
  Elf_Kind kind = top ? elf_kind(top) : ELF_K_NONE;
  bool ok = true;
  if (kind == ELF_K_AR) {
    Elf *member;
    while ((member = elf_begin(fd, ELF_C_READ, top)) != NULL) {
      if (elf_kind(member) == ELF_K_ELF)
        read_elf(member, &f);
      Elf_Cmd next = elf_next(member);
      elf_end(member);
      if (next == ELF_C_NULL)
        break;
    }
  } else if (kind == ELF_K_ELF) {
    ok = read_elf(top, &f);
  } else {
    ok = false;
  }
  if (top)
    elf_end(top);
  close(fd);
  if (!ok || (kind == ELF_K_AR && f.objects == 0)) {
    fprintf(stderr, PROG ": error: %s: not an ELF object, archive, program or shared library\n",
            path);
    return EXIT_GMEMCC;
  }

  size_t n = f.units.n;
  const char *units = plural(n, "unit", "units");
  bool object = kind == ELF_K_AR || f.type == ET_REL;
  bool library = f.type == ET_DYN && !f.interp; /* a PIE has an interpreter */
  int status = 0;
  if (n == 0 && f.defines_hooks) {
    printf("%s: not instrumented: libgmemrt is linked in, but no unit was compiled with "
           "gmem_forced.h, so no allocation site is recorded\n",
           path);
    status = 1;
  } else if (n == 0 && f.needs_hooks) {
    printf("%s: instrumented, but names no unit (compiled with a gmem_forced.h older than this "
           "gmemcc): it calls libgmemrt's hooks%s\n",
           path, object || library ? "" : " through a shared library it loads");
  } else if (n == 0) {
    printf("%s: not instrumented: no unit was compiled with gmem_forced.h%s\n", path,
           object ? "" : " and libgmemrt is not linked in");
    status = 1;
  } else if (object) {
    printf("%s: instrumented: %zu %s compiled with gmem_forced.h; libgmemrt comes with the link\n",
           path, n, units);
  } else if (f.defines_hooks) {
    printf("%s: instrumented: %zu %s compiled with gmem_forced.h, libgmemrt linked in\n", path, n,
           units);
  } else if (f.needs_hooks && library) {
    printf("%s: instrumented: %zu %s compiled with gmem_forced.h; libgmemrt is not linked in: "
           "the program that loads this library must provide it\n",
           path, n, units);
  } else if (f.needs_hooks) {
    printf("%s: instrumented: %zu %s compiled with gmem_forced.h; libgmemrt comes from a shared "
           "library it loads\n",
           path, n, units);
  } else {
    printf("%s: instrumented: %zu %s compiled with gmem_forced.h; whether libgmemrt is linked in "
           "cannot be told (no symbol table: stripped)\n",
           path, n, units);
  }
  for (size_t i = 0; i < n; i++)
    printf("  unit: %s\n", f.units.v[i]);
  return status;
}

int check_binaries(const char *const *files, size_t nfiles) {
  if (nfiles == 0)
    die(EXIT_GMEMCC, "--gmem-check needs the files to check (gmemcc --gmem-check ./app)");
  if (elf_version(EV_CURRENT) == EV_NONE)
    die(EXIT_GMEMCC, "libelf: %s", elf_errmsg(-1));
  int status = 0;
  for (size_t i = 0; i < nfiles; i++) {
    int s = check_file(files[i]);
    if (s > status)
      status = s;
  }
  return status;
}
