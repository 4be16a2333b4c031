#include "driver/compdb_args.h"

#include "support/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file that names itself is caught by the chain of files being expanded; these bound what is
 * left: nesting deeper than any build writes, and a file named again and again (each mention is
 * read, so an entry's files multiply). */
enum { MAX_NESTING = 16, MAX_READS = 256 };

static void push_dup(gm_str_vec *v, const char *s) {
  GM_PUSH(*v, gm_xstrdup(s));
}

/* libiberty's buildargv, which GCC and nvcc use for response files: whitespace separates,
 * quotes group, and a backslash escapes the next character inside quotes too. */
static void split_response(const char *text, gm_str_vec *out) {
  gm_strbuf arg = {0};
  int in_arg = 0, squote = 0, dquote = 0, escaped = 0;
  for (const char *p = text; *p; p++) {
    if (escaped) {
      escaped = 0;
    } else if (*p == '\\') {
      escaped = in_arg = 1;
      continue;
    } else if (squote || dquote) {
      if (*p == (squote ? '\'' : '"')) {
        squote = dquote = 0;
        continue;
      }
    } else if (*p == '\'' || *p == '"') {
      squote = *p == '\'';
      dquote = *p == '"';
      in_arg = 1;
      continue;
    } else if (isspace((unsigned char)*p)) {
      if (in_arg)
        GM_PUSH(*out, gm_sb_take(&arg));
      in_arg = 0;
      continue;
    }
    gm_sb_appendn(&arg, p, 1);
    in_arg = 1;
  }
  if (in_arg)
    GM_PUSH(*out, gm_sb_take(&arg));
  free(arg.data);
}

static char *path_in(const char *dir, const char *name) {
  return name[0] == '/' || !dir || !dir[0] ? gm_xstrdup(name) : gm_xasprintf("%s/%s", dir, name);
}

typedef struct expansion {
  const char *dir, *source;
  FILE *warn;
  gm_str_vec *out;
  gm_str_vec chain; /* the real paths of the files being expanded, outermost first */
  size_t reads;
  int warned_cycle, warned_reads; /* once per entry: every later mention repeats the first */
} expansion;

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static void warn_cycle(expansion *x, const char *path, size_t from) {
  if (!x->warn || x->warned_cycle++)
    return;
  gm_strbuf names = {0};
  for (size_t i = from; i < x->chain.len; i++) {
    gm_sb_append(&names, base_name(x->chain.items[i]));
    gm_sb_append(&names, " -> ");
  }
  gm_sb_append(&names, base_name(path));
  fprintf(x->warn,
          GM_PROGRAM ": warning: %s: response file %s includes itself (%s); that mention is "
                     "left out, the rest of its flags are read\n",
          x->source, path, names.data);
  free(names.data);
}

static void expand_list(expansion *x, char *const *items, size_t n, size_t first, int depth);

static void expand_file(expansion *x, const char *name, int depth) {
  char *path = path_in(x->dir, name);
  if (depth >= MAX_NESTING) {
    if (x->warn)
      fprintf(x->warn,
              GM_PROGRAM ": warning: %s: response file %s is nested more than %d deep; its flags "
                         "are left out\n",
              x->source, path, MAX_NESTING);
    free(path);
    return;
  }
  char real[PATH_MAX];
  int resolved = realpath(path, real) != NULL;
  if (resolved) {
    for (size_t i = 0; i < x->chain.len; i++) {
      if (strcmp(x->chain.items[i], real) == 0) {
        warn_cycle(x, path, i);
        free(path);
        return;
      }
    }
  }
  if (x->reads++ >= MAX_READS) {
    if (x->warn && !x->warned_reads++)
      fprintf(x->warn,
              GM_PROGRAM ": warning: %s: its entry in compile_commands.json names response files "
                         "more than %d times; %s and those after it are left out\n",
              x->source, MAX_READS, path);
    free(path);
    return;
  }
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text) {
    if (x->warn)
      fprintf(x->warn,
              GM_PROGRAM ": warning: %s: cannot read response file %s, named by its entry in "
                         "compile_commands.json: %s; parsing without the flags it holds\n",
              x->source, path, strerror(errno));
    free(path);
    return;
  }
  gm_str_vec held = {0};
  split_response(text, &held);
  push_dup(&x->chain, resolved ? real : path);
  expand_list(x, held.items, held.len, 0, depth + 1);
  free(x->chain.items[--x->chain.len]);
  for (size_t i = 0; i < held.len; i++)
    free(held.items[i]);
  GM_VEC_FREE(held);
  free(text);
  free(path);
}

/* nvcc's --options-file takes a comma-separated list of files. */
static void expand_options_files(expansion *x, const char *list, int depth) {
  char *copy = gm_xstrdup(list), *save = NULL;
  for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
    expand_file(x, name, depth);
  free(copy);
}

static void expand_list(expansion *x, char *const *items, size_t n, size_t first, int depth) {
  static const char *const options_file[] = {"--options-file", "-optf"};
  for (size_t i = 0; i < n; i++) {
    const char *a = items[i];
    if (i < first) {
      push_dup(x->out, a);
      continue;
    }
    if (a[0] == '@' && a[1]) {
      expand_file(x, a + 1, depth);
      continue;
    }
    int taken = 0;
    for (size_t k = 0; k < sizeof options_file / sizeof options_file[0] && !taken; k++) {
      size_t len = strlen(options_file[k]);
      if (strcmp(a, options_file[k]) == 0) {
        /* a flag after it is not its file: a command that lost it (libclang's interpolation) */
        if (i + 1 < n && items[i + 1][0] != '-')
          expand_options_files(x, items[++i], depth);
        taken = 1;
      } else if (strncmp(a, options_file[k], len) == 0 && a[len] == '=') {
        expand_options_files(x, a + len + 1, depth);
        taken = 1;
      }
    }
    if (!taken)
      push_dup(x->out, a);
  }
}

void gm_compdb_expand(gm_str_vec *args, const char *dir, const char *source, FILE *warn) {
  gm_str_vec out = {0};
  expansion x = {dir, source, warn, &out, {0}, 0, 0, 0};
  expand_list(&x, args->items, args->len, 1, 0);
  GM_VEC_FREE(x.chain);
  for (size_t i = 0; i < args->len; i++)
    free(args->items[i]);
  GM_VEC_FREE(*args);
  *args = out;
}

typedef enum flag_kind {
  FLAG_PATH,      /* an include directory: made absolute */
  FLAG_INCLUDE,   /* a forced include: absolute when it is there relative to the directory */
  FLAG_PCH,       /* -include-pch: the build's PCH, replaced by the header it was made from */
  FLAG_MACRO,     /* -D, -U */
  FLAG_STD,       /* the language standard */
  FLAG_LANG,      /* -x */
  FLAG_HOST_LIST, /* nvcc's -Xcompiler: flags for the host compiler, comma-separated */
  FLAG_SKIP,      /* takes a separate value that is neither a file nor a flag */
} flag_kind;

typedef struct flag_spec {
  const char *name;
  const char *clang; /* clang's spelling of a kept flag */
  flag_kind kind;
} flag_spec;

/* Each flag in every spelling nvcc, clang or GCC accepts: a separate value, NAME=VALUE, and for
 * the short ones that GCC writes so, the value joined on (-Idir, -DX, -xcu). */
static const flag_spec flag_specs[] = {
    {"-I", "-I", FLAG_PATH},
    {"--include-path", "-I", FLAG_PATH},
    {"-isystem", "-isystem", FLAG_PATH},
    {"--system-include", "-isystem", FLAG_PATH},
    {"-iquote", "-iquote", FLAG_PATH},
    {"-idirafter", "-idirafter", FLAG_PATH},
    {"-include", "-include", FLAG_INCLUDE},
    {"--pre-include", "-include", FLAG_INCLUDE},
    {"-D", "-D", FLAG_MACRO},
    {"--define-macro", "-D", FLAG_MACRO},
    {"-U", "-U", FLAG_MACRO},
    {"--undefine-macro", "-U", FLAG_MACRO},
    {"-std", "-std=", FLAG_STD},
    {"--std", "-std=", FLAG_STD},
    {"-x", NULL, FLAG_LANG},
    {"--x", NULL, FLAG_LANG},
    {"-Xcompiler", NULL, FLAG_HOST_LIST},
    {"--compiler-options", NULL, FLAG_HOST_LIST},
    /* nvcc */
    {"-ccbin", NULL, FLAG_SKIP},
    {"--compiler-bindir", NULL, FLAG_SKIP},
    {"-o", NULL, FLAG_SKIP},
    {"--output-file", NULL, FLAG_SKIP},
    {"-odir", NULL, FLAG_SKIP},
    {"--output-directory", NULL, FLAG_SKIP},
    {"-arch", NULL, FLAG_SKIP},
    {"--gpu-architecture", NULL, FLAG_SKIP},
    {"-code", NULL, FLAG_SKIP},
    {"--gpu-code", NULL, FLAG_SKIP},
    {"-gencode", NULL, FLAG_SKIP},
    {"--generate-code", NULL, FLAG_SKIP},
    {"-rdc", NULL, FLAG_SKIP},
    {"--relocatable-device-code", NULL, FLAG_SKIP},
    {"-default-stream", NULL, FLAG_SKIP},
    {"--default-stream", NULL, FLAG_SKIP},
    {"-Xptxas", NULL, FLAG_SKIP},
    {"--ptxas-options", NULL, FLAG_SKIP},
    {"-Xnvlink", NULL, FLAG_SKIP},
    {"--nvlink-options", NULL, FLAG_SKIP},
    {"-Xfatbin", NULL, FLAG_SKIP},
    {"--fatbin-options", NULL, FLAG_SKIP},
    {"-Xarchive", NULL, FLAG_SKIP},
    {"--archive-options", NULL, FLAG_SKIP},
    {"-Xlinker", NULL, FLAG_SKIP},
    {"--linker-options", NULL, FLAG_SKIP},
    {"-maxrregcount", NULL, FLAG_SKIP},
    {"--maxrregcount", NULL, FLAG_SKIP},
    {"-ftz", NULL, FLAG_SKIP},
    {"--ftz", NULL, FLAG_SKIP},
    {"-prec-div", NULL, FLAG_SKIP},
    {"--prec-div", NULL, FLAG_SKIP},
    {"-prec-sqrt", NULL, FLAG_SKIP},
    {"--prec-sqrt", NULL, FLAG_SKIP},
    {"-fmad", NULL, FLAG_SKIP},
    {"--fmad", NULL, FLAG_SKIP},
    {"-cudart", NULL, FLAG_SKIP},
    {"--cudart", NULL, FLAG_SKIP},
    {"-cudadevrt", NULL, FLAG_SKIP},
    {"--cudadevrt", NULL, FLAG_SKIP},
    {"-t", NULL, FLAG_SKIP},
    {"--threads", NULL, FLAG_SKIP},
    {"-split-compile", NULL, FLAG_SKIP},
    {"--split-compile", NULL, FLAG_SKIP},
    {"-diag-suppress", NULL, FLAG_SKIP},
    {"--diag-suppress", NULL, FLAG_SKIP},
    {"-diag-error", NULL, FLAG_SKIP},
    {"--diag-error", NULL, FLAG_SKIP},
    {"-diag-warn", NULL, FLAG_SKIP},
    {"--diag-warn", NULL, FLAG_SKIP},
    {"-keep-dir", NULL, FLAG_SKIP},
    {"--keep-dir", NULL, FLAG_SKIP},
    {"-target-dir", NULL, FLAG_SKIP},
    {"--target-directory", NULL, FLAG_SKIP},
    {"-m", NULL, FLAG_SKIP},
    {"--machine", NULL, FLAG_SKIP},
    {"-l", NULL, FLAG_SKIP},
    {"--library", NULL, FLAG_SKIP},
    {"-L", NULL, FLAG_SKIP},
    {"--library-path", NULL, FLAG_SKIP},
    {"-run-args", NULL, FLAG_SKIP},
    {"--run-args", NULL, FLAG_SKIP},
    {"--dependency-output", NULL, FLAG_SKIP},
    /* clang and GCC */
    {"-MF", NULL, FLAG_SKIP},
    {"-MT", NULL, FLAG_SKIP},
    {"-MQ", NULL, FLAG_SKIP},
    {"-MJ", NULL, FLAG_SKIP},
    {"-Xpreprocessor", NULL, FLAG_SKIP},
    {"-Xassembler", NULL, FLAG_SKIP},
    {"-target", NULL, FLAG_SKIP},
    {"-isysroot", NULL, FLAG_SKIP},
    {"--sysroot", NULL, FLAG_SKIP},
    {"-imacros", NULL, FLAG_SKIP},
    {"-include-pch", "-include", FLAG_PCH},
    {"-aux-info", NULL, FLAG_SKIP},
};

/* The value of args[*i] for spec, moving *i past a separate value; NULL when it does not match
 * (or a separate value is missing at the end). */
static const char *flag_value(const flag_spec *spec, char *const *args, size_t n, size_t *i) {
  const char *a = args[*i];
  size_t len = strlen(spec->name);
  if (strcmp(a, spec->name) == 0)
    return *i + 1 < n ? args[++*i] : NULL;
  if (strncmp(a, spec->name, len) != 0)
    return NULL;
  if (a[len] == '=')
    return a + len + 1;
  /* joined: -Idir, -DX, -xcu, -isystemdir (not -std, whose -stdlib= is another flag; not a
   * joined value that is itself a flag: -include-pch) */
  int joinable = spec->name[1] != '-' && spec->kind != FLAG_STD && spec->kind != FLAG_SKIP &&
                 spec->kind != FLAG_HOST_LIST;
  return joinable && a[len] && a[len] != '-' ? a + len : NULL;
}

static gm_compdb_lang lang_named(const char *value) {
  if (strcmp(value, "cu") == 0 || strcmp(value, "cuda") == 0)
    return GM_COMPDB_LANG_CUDA;
  if (strcmp(value, "c++") == 0 || strcmp(value, "c++-header") == 0)
    return GM_COMPDB_LANG_CXX;
  if (strcmp(value, "c") == 0 || strcmp(value, "c-header") == 0)
    return GM_COMPDB_LANG_C;
  return GM_COMPDB_LANG_UNSET; /* -x none, and what the parser cannot take */
}

/* A compiler's own builtin headers (GCC's <prefix>/lib/gcc/<target>/<version>/include and
 * include-fixed, another clang's lib/clang/<version>/include): written for that compiler's
 * builtins (GCC's mmintrin.h calls __builtin_ia32_* clang lacks), so never the parser's, as
 * clangd drops them. Projects put them in a database through
 * CMAKE_<LANG>_STANDARD_INCLUDE_DIRECTORIES or by copying the implicit directories. */
static int compiler_builtin_dir(const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/')
    len--;
  int builtin_tail = (len >= 8 && strncmp(path + len - 8, "/include", 8) == 0) ||
                     (len >= 14 && strncmp(path + len - 14, "/include-fixed", 14) == 0);
  return builtin_tail && (strstr(path, "/lib/gcc/") || strstr(path, "/lib/gcc-cross/") ||
                          strstr(path, "/lib/clang/"));
}

/* What reading one entry's flags remembers across them. */
typedef struct flag_state {
  const char *source; /* the entry's file, for warnings */
  FILE *warn;         /* where they go; NULL for none */
  char *pch_header;   /* the header an -include-pch stands for, already included in its place */
} flag_state;

/* The header a PCH was made from, there beside it: HEADER.pch or HEADER.gch (as GCC, clang and
 * CMake's cmake_pch.hxx.pch name them), else NAME.pch made from NAME.h, .hpp, .hxx or .cuh;
 * NULL when none is there. */
static char *pch_source_header(const char *pch) {
  size_t len = strlen(pch);
  if (len <= 4 || (strcmp(pch + len - 4, ".pch") != 0 && strcmp(pch + len - 4, ".gch") != 0))
    return NULL;
  static const char *const suffixes[] = {"", ".h", ".hpp", ".hxx", ".cuh"};
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
    char *header = gm_xasprintf("%.*s%s", (int)(len - 4), pch, suffixes[i]);
    if (access(header, F_OK) == 0)
      return header;
    free(header);
  }
  return NULL;
}

static void keep_flag(const flag_spec *spec, const char *value, const char *dir, gm_str_vec *flags,
                      flag_state *state) {
  switch (spec->kind) {
  case FLAG_PATH: {
    char *path = path_in(dir, value);
    if (compiler_builtin_dir(path)) {
      free(path);
      break;
    }
    if (strcmp(spec->clang, "-I") == 0) {
      GM_PUSH(*flags, gm_xasprintf("-I%s", path));
      free(path);
    } else {
      push_dup(flags, spec->clang);
      GM_PUSH(*flags, path);
    }
    break;
  }
  case FLAG_PCH: {
    /* a PCH is tied to the compiler that wrote it, and gmemlint builds its own preambles: the
     * header it was made from is included instead, as its first forced include */
    char *pch = path_in(dir, value);
    char *header = pch_source_header(pch);
    if (header && !state->pch_header) {
      push_dup(flags, spec->clang);
      push_dup(flags, header);
      state->pch_header = header;
    } else {
      free(header);
    }
    if (!header && state->warn)
      fprintf(state->warn,
              GM_PROGRAM ": warning: %s: precompiled header %s, named by its entry in "
                         "compile_commands.json, is the build compiler's and the header it was "
                         "made from is not beside it; parsing without it\n",
              state->source, pch);
    free(pch);
    break;
  }
  case FLAG_INCLUDE: {
    /* as GCC does: the file relative to the working directory, else found on the include path */
    char *path = path_in(dir, value);
    if (state->pch_header && strcmp(path, state->pch_header) == 0) {
      free(path); /* CMake names the PCH's header again after it: it is already included */
      break;
    }
    push_dup(flags, spec->clang);
    if (access(path, F_OK) == 0) {
      GM_PUSH(*flags, path);
    } else {
      push_dup(flags, value);
      free(path);
    }
    break;
  }
  case FLAG_MACRO:
  case FLAG_STD:
    GM_PUSH(*flags, gm_xasprintf("%s%s", spec->clang, value));
    break;
  default:
    break;
  }
}

static gm_compdb_lang parser_flags(char *const *args, size_t n, size_t first, const char *dir,
                                   gm_str_vec *flags, flag_state *state, int host_list);

/* -Xcompiler -DX,-Iinc or "-DX -Iinc": split on commas and whitespace, then read as flags. */
static void host_list_flags(const char *list, const char *dir, gm_str_vec *flags,
                            flag_state *state) {
  gm_str_vec items = {0};
  char *copy = gm_xstrdup(list), *save = NULL;
  for (char *item = strtok_r(copy, ", \t", &save); item; item = strtok_r(NULL, ", \t", &save))
    push_dup(&items, item);
  free(copy);
  parser_flags(items.items, items.len, 0, dir, flags, state, 1);
  for (size_t i = 0; i < items.len; i++)
    free(items.items[i]);
  GM_VEC_FREE(items);
}

static gm_compdb_lang parser_flags(char *const *args, size_t n, size_t first, const char *dir,
                                   gm_str_vec *flags, flag_state *state, int host_list) {
  gm_compdb_lang lang = GM_COMPDB_LANG_UNSET;
  for (size_t i = first; i < n; i++) {
    for (size_t k = 0; k < sizeof flag_specs / sizeof flag_specs[0]; k++) {
      const flag_spec *spec = &flag_specs[k];
      const char *value = flag_value(spec, args, n, &i);
      if (!value)
        continue;
      if (spec->kind == FLAG_LANG)
        lang = host_list ? lang : lang_named(value);
      else if (spec->kind == FLAG_HOST_LIST && !host_list)
        host_list_flags(value, dir, flags, state);
      else if (value[0])
        keep_flag(spec, value, dir, flags, state);
      break;
    }
  }
  return lang;
}

gm_compdb_lang gm_compdb_parser_flags(char *const *args, size_t nargs, const char *dir,
                                      const char *source, FILE *warn, gm_str_vec *flags) {
  /* -Xclang hands one argument to clang's front end, whose -include, -include-pch, -I, -D, ...
   * mean what the driver's do (CMake writes its precompiled header for clang as -Xclang
   * -include-pch -Xclang PCH -Xclang -include -Xclang HEADER): read unwrapped */
  gm_str_vec unwrapped = {0};
  for (size_t i = 0; i < nargs; i++)
    GM_PUSH(unwrapped,
            strcmp(args[i], "-Xclang") == 0 && i > 0 && i + 1 < nargs ? args[++i] : args[i]);
  flag_state state = {source, warn, NULL};
  const gm_str_vec *wrapper = nargs ? gm_compdb_wrapper_flags(args[0]) : NULL;
  if (wrapper && wrapper->len)
    parser_flags(wrapper->items, wrapper->len, 0, dir, flags, &state, 0);
  gm_compdb_lang lang = parser_flags(unwrapped.items, unwrapped.len, 1, dir, flags, &state, 0);
  free(state.pch_header);
  GM_VEC_FREE(unwrapped);
  return lang;
}
