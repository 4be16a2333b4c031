/* gmemcc: the compile wrapper for instrumented builds, in the manner of ccache or sparse's cgcc.
 *
 *   gmemcc [compiler] <compiler arguments...>
 *
 * runs the compiler (nvcc by default) with its arguments unchanged, except that a step that
 * compiles from source gets `-include gmem_forced.h` (the hooks that route the CUDA allocation
 * calls to libgmemrt with their site) and a step that links an executable or a shared library
 * gets libgmemrt.a and its dependencies. Which steps compile and which link is read from the
 * options the way the compiler reads them (nvcc's grammar or GCC/clang's). gmemcc then replaces
 * itself with the compiler (execv, no shell), so the output and exit status are the compiler's. */
#include "gmemcc_config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROG "gmemcc"
#define EXIT_GMEMCC 2   /* gmemcc's own errors: usage, missing runtime */
#define EXIT_NOEXEC 126 /* as a shell: the compiler exists but cannot be run */
#define EXIT_NOTFOUND 127

static void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": error: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(status);
}

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": warning: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    die(EXIT_GMEMCC, "out of memory");
  return p;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xrealloc(NULL, n), s, n);
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    die(EXIT_GMEMCC, "out of memory");
  va_end(ap);
  return s;
}

/* A growable, NULL-terminated argument vector. The strings are never freed: gmemcc execs. */
typedef struct {
  const char **v;
  size_t n, cap;
} strvec;

static void push(strvec *s, const char *x) {
  if (s->n + 2 > s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = x;
  s->v[s->n] = NULL;
}

static bool env_on(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_executable(const char *path) {
  return is_file(path) && access(path, X_OK) == 0;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static const char *suffix(const char *path) {
  const char *base = base_name(path), *dot = strrchr(base, '.');
  return dot && dot != base ? dot : "";
}

static bool in_list(const char *s, const char *const *list) {
  for (; *list; list++)
    if (strcmp(s, *list) == 0)
      return true;
  return false;
}

/* ---- input files ---- */

static const char *const source_suffixes[] = {".cu",  ".c",   ".cc", ".cp",  ".cpp",
                                              ".cxx", ".c++", ".C",  ".CPP", NULL};
static const char *const preprocessed_suffixes[] = {".i", ".ii", NULL};
static const char *const header_suffixes[] = {".h", ".hh",  ".hpp", ".hxx", ".h++",
                                              ".H", ".cuh", ".tcc", ".inl", NULL};
static const char *const object_suffixes[] = {".o", ".obj", ".a", ".so", ".lo", ".lib", NULL};
/* nvcc's device inputs, and assembly: compiled, but nothing for the forced header to hook */
static const char *const other_code_suffixes[] = {".ptx",     ".cubin", ".fatbin", ".gpu", ".ltoir",
                                                  ".optixir", ".s",     ".S",      ".sx",  NULL};

static bool is_object(const char *path) {
  if (in_list(suffix(path), object_suffixes))
    return true;
  const char *so = strstr(base_name(path), ".so.");
  return so && strspn(so + 4, "0123456789.") == strlen(so + 4); /* libfoo.so.1.2 */
}

/* The first argument names the compiler unless it is an option or an input file. */
static bool names_compiler(const char *arg) {
  const char *suf = suffix(arg);
  return arg[0] != '-' && arg[0] != '@' && !in_list(suf, source_suffixes) &&
         !in_list(suf, preprocessed_suffixes) && !in_list(suf, header_suffixes) &&
         !in_list(suf, other_code_suffixes) && !is_object(arg);
}

typedef enum { IN_SOURCE, IN_PREPROCESSED, IN_HEADER, IN_OTHER } input_kind;

/* ---- the compiler's option grammar ---- */

typedef enum { CC_NVCC, CC_GCC } cc_kind; /* CC_GCC: gcc, clang and compatible drivers */

typedef struct {
  const char *name, *alias; /* nvcc's long and short spellings */
  bool value;               /* takes a value: `-o f`, `-o=f`, `--output-file f` */
} nvcc_option;

/* From `nvcc --help` (CUDA 13.0). Knowing every option, not only the ones gmemcc cares about, is
 * what keeps `-lineinfo` from reading as `-l ineinfo` and option values from reading as inputs. */
static const nvcc_option nvcc_options[] = {
    {"--cuda", "-cuda", 0},
    {"--cubin", "-cubin", 0},
    {"--fatbin", "-fatbin", 0},
    {"--ptx", "-ptx", 0},
    {"--optix-ir", "-optix-ir", 0},
    {"--ltoir", "-ltoir", 0},
    {"--preprocess", "-E", 0},
    {"--generate-dependencies", "-M", 0},
    {"--generate-nonsystem-dependencies", "-MM", 0},
    {"--generate-dependencies-with-compile", "-MD", 0},
    {"--generate-nonsystem-dependencies-with-compile", "-MMD", 0},
    {"--dependency-output", "-MF", 1},
    {"--generate-dependency-targets", "-MP", 0},
    {"--compile", "-c", 0},
    {"--device-c", "-dc", 0},
    {"--device-w", "-dw", 0},
    {"--device-link", "-dlink", 0},
    {"--link", "-link", 0},
    {"--lib", "-lib", 0},
    {"--run", "-run", 0},
    {"--output-file", "-o", 1},
    {"--pre-include", "-include", 1},
    {"--objdir-as-tempdir", "-objtemp", 0},
    {"--library", "-l", 1},
    {"--define-macro", "-D", 1},
    {"--undefine-macro", "-U", 1},
    {"--include-path", "-I", 1},
    {"--system-include", "-isystem", 1},
    {"--library-path", "-L", 1},
    {"--output-directory", "-odir", 1},
    {"--compiler-bindir", "-ccbin", 1},
    {"--allow-unsupported-compiler", "-allow-unsupported-compiler", 0},
    {"--archiver-binary", "-arbin", 1},
    {"--cudart", "-cudart", 1},
    {"--cudadevrt", "-cudadevrt", 1},
    {"--libdevice-directory", "-ldir", 1},
    {"--target-directory", "-target-dir", 1},
    {"--use-local-env", "-use-local-env", 0},
    {"--force-cl-env-setup", "-force-cl-env-setup", 0},
    {"--profile", "-pg", 0},
    {"--debug", "-g", 0},
    {"--device-debug", "-G", 0},
    {"--generate-line-info", "-lineinfo", 0},
    {"--optimization-info", "-opt-info", 1},
    {"--optimize", "-O", 1},
    {"--Ofast-compile", "-Ofc", 1},
    {"--dopt", "-dopt", 1},
    {"--dlink-time-opt", "-dlto", 0},
    {"--lto", "-lto", 0},
    {"--gen-opt-lto", "-gen-opt-lto", 0},
    {"--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", 1},
    {"--ftemplate-depth", "-ftemplate-depth", 1},
    {"--no-exceptions", "-noeh", 0},
    {"--shared", "-shared", 0},
    {"--x", "-x", 1},
    {"--std", "-std", 1},
    {"--no-host-device-initializer-list", "-nohdinitlist", 0},
    {"--no-host-device-move-forward", "-nohdmoveforward", 0},
    {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", 0},
    {"--extended-lambda", "-extended-lambda", 0},
    {"--expt-extended-lambda", "-expt-extended-lambda", 0},
    {"--machine", "-m", 1},
    {"--m64", "-m64", 0},
    {"--compiler-options", "-Xcompiler", 1},
    {"--linker-options", "-Xlinker", 1},
    {"--archive-options", "-Xarchive", 1},
    {"--ptxas-options", "-Xptxas", 1},
    {"--nvlink-options", "-Xnvlink", 1},
    {"--static-global-template-stub", "-static-global-template-stub", 1},
    {"--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility", 1},
    {"--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler", 0},
    {"--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker", 0},
    {"--forward-unknown-opts", "-forward-unknown-opts", 0},
    {"--dont-use-profile", "-noprof", 0},
    {"--dryrun", "-dryrun", 0},
    {"--verbose", "-v", 0},
    {"--threads", "-t", 1},
    {"--split-compile", "-split-compile", 1},
    {"--split-compile-extended", "-split-compile-extended", 1},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", 0},
    {"--fdevice-time-trace", "-fdevice-time-trace", 1},
    {"--keep", "-keep", 0},
    {"--keep-dir", "-keep-dir", 1},
    {"--save-temps", "-save-temps", 0},
    {"--clean-targets", "-clean", 0},
    {"--time", "-time", 1},
    {"--run-args", "-run-args", 1},
    {"--input-drive-prefix", "-idp", 1},
    {"--dependency-drive-prefix", "-ddp", 1},
    {"--drive-prefix", "-dp", 1},
    {"--dependency-target-name", "-MT", 1},
    {"--no-align-double", "--no-align-double", 0},
    {"--no-device-link", "-nodlink", 0},
    {"--gpu-architecture", "-arch", 1},
    {"--gpu-code", "-code", 1},
    {"--generate-code", "-gencode", 1},
    {"--relocatable-device-code", "-rdc", 1},
    {"--entries", "-e", 1},
    {"--maxrregcount", "-maxrregcount", 1},
    {"--use_fast_math", "-use_fast_math", 0},
    {"--ftz", "-ftz", 1},
    {"--prec-div", "-prec-div", 1},
    {"--prec-sqrt", "-prec-sqrt", 1},
    {"--fmad", "-fmad", 1},
    {"--extra-device-vectorization", "-extra-device-vectorization", 0},
    {"--default-stream", "-default-stream", 1},
    {"--disable-warnings", "-w", 0},
    {"--keep-device-functions", "-keep-device-functions", 0},
    {"--source-in-ptx", "-src-in-ptx", 0},
    {"--restrict", "-restrict", 0},
    {"--Wreorder", "-Wreorder", 0},
    {"--Wdefault-stream-launch", "-Wdefault-stream-launch", 0},
    {"--Wmissing-launch-bounds", "-Wmissing-launch-bounds", 0},
    {"--Wext-lambda-captures-this", "-Wext-lambda-captures-this", 0},
    {"--Wno-deprecated-declarations", "-Wno-deprecated-declarations", 0},
    {"--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", 0},
    {"--Werror", "-Werror", 1},
    {"--resource-usage", "-res-usage", 0},
    {"--extensible-whole-program", "-ewp", 0},
    {"--no-compress", "-no-compress", 0},
    {"--qpp-config", "-qpp-config", 1},
    {"--compile-as-tools-patch", "-astoolspatch", 0},
    {"--list-gpu-code", "-code-ls", 0},
    {"--list-gpu-arch", "-arch-ls", 0},
    {"--display-error-number", "-err-no", 0},
    {"--no-display-error-number", "-no-err-no", 0},
    {"--diag-error", "-diag-error", 1},
    {"--diag-suppress", "-diag-suppress", 1},
    {"--diag-warn", "-diag-warn", 1},
    {"--host-linker-script", "-hls", 1},
    {"--augment-host-linker-script", "-aug-hls", 0},
    {"--relocatable-link", "-r", 0},
    {"--brief-diagnostics", "-brief-diag", 1},
    {"--jump-table-density", "-jtd", 1},
    {"--relocatable-ptx", "-reloc-ptx", 0},
    {"--device-stack-protector", "-device-stack-protector", 1},
    {"--compress-mode", "-compress-mode", 1},
    {"--frandom-seed", "-frandom-seed", 1},
    {"--sanitize", "-sanitize", 1},
    {"--jobserver", "-jobserver", 0},
    {"--help", "-h", 0},
    {"--version", "-V", 0},
    {"--options-file", "-optf", 1},
};

static const nvcc_option *nvcc_lookup(const char *arg, size_t len) {
  for (size_t i = 0; i < sizeof nvcc_options / sizeof *nvcc_options; i++) {
    const nvcc_option *o = &nvcc_options[i];
    if ((strlen(o->name) == len && strncmp(arg, o->name, len) == 0) ||
        (strlen(o->alias) == len && strncmp(arg, o->alias, len) == 0))
      return o;
  }
  return NULL;
}

/* GCC/clang options whose value may be the next argument, each between spaces. */
static const char gcc_value_options[] =
    " -o -I -D -U -include -imacros -isystem -idirafter -iquote -iprefix -iwithprefix "
    "-iwithprefixbefore -isysroot -imultilib -MF -MT -MQ -x -L -l -Xlinker -Xassembler "
    "-Xpreprocessor -Xclang -Xcuda-fatbinary -Xcuda-ptxas -Xarch_host -Xarch_device "
    "-Xopenmp-target -Xoffload-linker -u -T -z -e --param -aux-info -target -arch "
    "-dumpbase -dumpbase-ext -dumpdir -ivfsoverlay -cxx-isystem -include-pch -mllvm -B "
    "--sysroot -gcc-toolchain -resource-dir -specs ";

static bool gcc_takes_value(const char *arg) {
  char *word = xasprintf(" %s ", arg);
  bool found = strstr(gcc_value_options, word) != NULL;
  free(word);
  return found;
}

/* ---- reading a command line ---- */

typedef struct {
  cc_kind kind;
  strvec args; /* the user's arguments, gmemcc's own options taken out */
  bool preprocess_only, compile_only, device_only, no_runtime_link, no_build;
  size_t inputs, headers;
  strvec sources; /* compiled from source: these get the forced header */
  const char *output;
  const char *lang;   /* -x: GCC's applies to the files after it; nvcc's to all of them */
  strvec positionals; /* nvcc's files, classified once its -x is known */
  strvec lint_flags;  /* -I/-D/-U/-std/-include/-isystem, for the static pass */
  strvec cudart_libs; /* GCC links: the user's cudart, named again after libgmemrt.a */
  bool lint, help, print_link_flags;
} cmdline;

static input_kind classify(cc_kind kind, const char *path, const char *lang) {
  const char *suf = suffix(path);
  if (lang && strcmp(lang, "none") != 0) {
    if (kind == CC_NVCC && (is_object(path) || in_list(suf, other_code_suffixes)))
      return IN_OTHER; /* nvcc's -x names the language of its sources only */
    if (strstr(lang, "header"))
      return IN_HEADER;
    if (strstr(lang, "cpp-output"))
      return IN_PREPROCESSED;
    if (strncmp(lang, "assembler", 9) == 0)
      return IN_OTHER;
    return IN_SOURCE;
  }
  if (in_list(suf, source_suffixes))
    return IN_SOURCE;
  if (in_list(suf, preprocessed_suffixes))
    return IN_PREPROCESSED;
  if (in_list(suf, header_suffixes))
    return IN_HEADER;
  return IN_OTHER;
}

static void add_input(cmdline *c, const char *path, const char *lang) {
  c->inputs++;
  switch (classify(c->kind, path, lang)) {
  case IN_SOURCE:
    push(&c->sources, path);
    break;
  case IN_HEADER:
    c->headers++; /* a precompiled header: compiled, never linked */
    break;
  default:
    break;
  }
}

/* For the static pass: `flag` with `value`, in the spelling gmemlint's parser (clang) takes. */
static void add_lint_flag(cmdline *c, const char *flag, const char *value) {
  if (strcmp(flag, "-include") == 0 || strcmp(flag, "-isystem") == 0 ||
      strcmp(flag, "-iquote") == 0 || strcmp(flag, "-idirafter") == 0) {
    push(&c->lint_flags, flag);
    push(&c->lint_flags, value);
  } else {
    push(&c->lint_flags, xasprintf("%s%s", flag, value));
  }
}

/* nvcc splits the values of its list options at commas (`-I a,b`). */
static void add_lint_list(cmdline *c, const char *flag, const char *value) {
  char *copy = xstrdup(value), *save = NULL;
  for (char *v = strtok_r(copy, ",", &save); v; v = strtok_r(NULL, ",", &save))
    add_lint_flag(c, flag, xstrdup(v));
  free(copy);
}

static void scan(cmdline *c, char **argv, size_t argc, bool keep, int depth);

/* A response file (`@file`, nvcc's --options-file): read for what it holds, passed on as is. */
static void scan_response_file(cmdline *c, const char *path, int depth) {
  FILE *f = depth < 8 ? fopen(path, "r") : NULL;
  if (!f) {
    c->inputs++; /* unreadable to us, maybe not to the compiler: assume it names inputs */
    return;
  }
  strvec words = {0};
  char *word = NULL;
  size_t len = 0, cap = 0;
  bool in_word = false;
  int ch, quote = 0;
  while ((ch = fgetc(f)) != EOF) {
    if (!quote && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')) {
      if (in_word) {
        push(&words, xstrdup(word ? word : ""));
        len = 0, in_word = false;
      }
      continue;
    }
    in_word = true;
    if (ch == '\\' && quote != '\'') {
      if ((ch = fgetc(f)) == EOF)
        break;
    } else if (!quote && (ch == '\'' || ch == '"')) {
      quote = ch;
      continue;
    } else if (quote && ch == quote) {
      quote = 0;
      continue;
    }
    if (len + 2 > cap)
      word = xrealloc(word, cap = cap ? cap * 2 : 64);
    word[len++] = (char)ch;
    word[len] = '\0';
  }
  if (in_word)
    push(&words, xstrdup(word ? word : ""));
  fclose(f);
  free(word);
  scan(c, (char **)words.v, words.n, false, depth + 1);
}

static void nvcc_option_seen(cmdline *c, const char *name, const char *value, int depth) {
  static const char *const preprocess[] = {"--preprocess", "--generate-dependencies",
                                           "--generate-nonsystem-dependencies", NULL};
  static const char *const compile[] = {"--compile", "--device-c", "--device-w", "--cuda", NULL};
  static const char *const device[] = {"--ptx",      "--cubin", "--fatbin",
                                       "--optix-ir", "--ltoir", NULL};
  static const char *const no_link[] = {"--device-link", "--lib", "--relocatable-link", NULL};
  if (in_list(name, preprocess))
    c->preprocess_only = true;
  else if (in_list(name, compile))
    c->compile_only = true;
  else if (in_list(name, device))
    c->device_only = true;
  else if (in_list(name, no_link))
    c->no_runtime_link = true;
  else if (strcmp(name, "--clean-targets") == 0)
    c->no_build = true;
  if (!value)
    return;
  if (strcmp(name, "--output-file") == 0)
    c->output = value;
  else if (strcmp(name, "--x") == 0)
    c->lang = value;
  else if (strcmp(name, "--include-path") == 0)
    add_lint_list(c, "-I", value);
  else if (strcmp(name, "--define-macro") == 0)
    add_lint_list(c, "-D", value);
  else if (strcmp(name, "--undefine-macro") == 0)
    add_lint_list(c, "-U", value);
  else if (strcmp(name, "--system-include") == 0)
    add_lint_list(c, "-isystem", value);
  else if (strcmp(name, "--pre-include") == 0)
    add_lint_list(c, "-include", value);
  else if (strcmp(name, "--std") == 0)
    add_lint_flag(c, "-std=", value);
  else if (strcmp(name, "--options-file") == 0) {
    char *copy = xstrdup(value), *save = NULL;
    for (char *v = strtok_r(copy, ",", &save); v; v = strtok_r(NULL, ",", &save))
      scan_response_file(c, v, depth);
    free(copy);
  }
}

static void gcc_option_seen(cmdline *c, const char *name, const char *value) {
  static const char *const preprocess[] = {"-E", "-M", "-MM", NULL};
  static const char *const compile[] = {"-c", "-S", "-fsyntax-only", "--precompile", NULL};
  static const char *const device[] = {"--cuda-device-only", "--offload-device-only", NULL};
  static const char *const lint[] = {"-I",       "-D",      "-U",         "-include",
                                     "-isystem", "-iquote", "-idirafter", NULL};
  if (in_list(name, preprocess))
    c->preprocess_only = true;
  else if (in_list(name, compile))
    c->compile_only = true;
  else if (in_list(name, device))
    c->device_only = true;
  else if (strcmp(name, "-r") == 0)
    c->no_runtime_link = true; /* a relocatable object, not a program */
  else if (strncmp(name, "-std=", 5) == 0)
    push(&c->lint_flags, name);
  if (!value)
    return;
  if (strcmp(name, "-o") == 0)
    c->output = value;
  else if (strcmp(name, "-x") == 0)
    c->lang = value;
  else if (in_list(name, lint))
    add_lint_flag(c, name, value);
  else if (strcmp(name, "-l") == 0 && strncmp(value, "cudart", 6) == 0)
    push(&c->cudart_libs, xasprintf("-l%s", value));
}

static void gmemcc_option(cmdline *c, const char *arg) {
  if (strcmp(arg, "--gmem-lint") == 0)
    c->lint = true;
  else if (strcmp(arg, "--gmem-help") == 0)
    c->help = true;
  else if (strcmp(arg, "--gmem-link-flags") == 0)
    c->print_link_flags = true;
  else
    die(EXIT_GMEMCC, "unknown option '%s' (gmemcc --gmem-help lists gmemcc's options)", arg);
}

/* Reads argv as the compiler will. keep: the arguments are the command line's own (copied to
 * c->args), not a response file's. */
static void scan(cmdline *c, char **argv, size_t argc, bool keep, int depth) {
  for (size_t i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--gmem-", 7) == 0) {
      if (keep)
        gmemcc_option(c, a);
      continue;
    }
    if (keep)
      push(&c->args, a);
    if (a[0] == '@' && a[1] && c->kind == CC_GCC) {
      scan_response_file(c, a + 1, depth);
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') { /* an input; "-" is standard input */
      if (c->kind == CC_NVCC)
        push(&c->positionals, a); /* nvcc's -x may come later */
      else
        add_input(c, a, c->lang);
      continue;
    }
    /* An option, with its value in the next argument, after '=', or attached (-Idir). */
    const char *name = a, *value = NULL;
    bool next = false;
    if (c->kind == CC_NVCC) {
      const char *eq = strchr(a, '=');
      const nvcc_option *o = nvcc_lookup(a, strlen(a));
      if (o) {
        name = o->name, next = o->value;
      } else if (eq && (o = nvcc_lookup(a, (size_t)(eq - a))) && o->value) {
        name = o->name, value = eq + 1;
      } else if (strchr("IDUlLoOxte", a[1]) && a[2] && (o = nvcc_lookup(a, 2))) {
        name = o->name, value = a + 2;
      }
    } else {
      if (gcc_takes_value(a)) {
        next = true;
      } else if (strchr("IDUlLox", a[1]) && a[2]) {
        name = xasprintf("-%c", a[1]), value = a + 2;
      }
    }
    if (next && i + 1 < argc) {
      value = argv[++i];
      if (keep)
        push(&c->args, value);
    }
    if (c->kind == CC_NVCC)
      nvcc_option_seen(c, name, value, depth);
    else
      gcc_option_seen(c, name, value);
  }
}

/* ---- where things are ---- */

static char *self_path(void) {
  char *p = realpath("/proc/self/exe", NULL);
  return p ? p : xstrdup("");
}

static char *dir_name(const char *path) {
  char *d = xstrdup(path), *slash = strrchr(d, '/');
  if (!slash)
    return xstrdup(".");
  if (slash == d)
    slash[1] = '\0';
  else
    *slash = '\0';
  return d;
}

/* The first `name` on PATH that is not gmemcc itself (a PATH may put gmemcc first under the
 * compiler's name, as ccache's masquerade does); NULL if there is none. */
static char *find_on_path(const char *name, const char *self) {
  const char *path = getenv("PATH");
  if (!path || !*path)
    path = "/usr/local/bin:/usr/bin:/bin";
  char *copy = xstrdup(path), *save = NULL;
  char *found = NULL;
  for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
    char *cand = xasprintf("%s/%s", *dir ? dir : ".", name);
    char *real = is_executable(cand) ? realpath(cand, NULL) : NULL;
    if (real && strcmp(real, self) != 0)
      found = cand;
    else
      free(cand);
    free(real);
  }
  free(copy);
  return found;
}

typedef struct {
  const char *lib;     /* libgmemrt.a */
  const char *header;  /* gmem_forced.h */
  const char *lib_how; /* how the paths were chosen, for the error message */
  const char *header_how;
} runtime_paths;

/* GMEMCC_RUNTIME_DIR / GMEMCC_INCLUDE_DIR if set; else an installed tree around gmemcc
 * (<prefix>/bin/gmemcc with <prefix>/lib/libgmemrt.a) if there is one; else the build tree that
 * built gmemcc. */
static runtime_paths locate_runtime(const char *self) {
  runtime_paths r = {GMEMCC_BUILD_RUNTIME_LIB, GMEMCC_BUILD_INCLUDE_DIR "/gmem_forced.h",
                     "the build tree", "the build tree"};
  char *prefix = dir_name(self);
  prefix = dir_name(prefix);
  char *installed_lib = xasprintf("%s/%s", prefix, GMEMCC_INSTALL_RUNTIME_LIB);
  if (is_file(installed_lib)) {
    r.lib = installed_lib;
    r.header = xasprintf("%s/%s/gmem_forced.h", prefix, GMEMCC_INSTALL_INCLUDE_DIR);
    r.lib_how = r.header_how = "the installed tree";
  }
  const char *dir = getenv("GMEMCC_RUNTIME_DIR");
  if (dir && *dir) {
    r.lib = xasprintf("%s/libgmemrt.a", dir);
    r.lib_how = "GMEMCC_RUNTIME_DIR";
  }
  dir = getenv("GMEMCC_INCLUDE_DIR");
  if (dir && *dir) {
    r.header = xasprintf("%s/gmem_forced.h", dir);
    r.header_how = "GMEMCC_INCLUDE_DIR";
  }
  return r;
}

/* ---- running things ---- */

static void print_quoted(FILE *f, const char *s) {
  if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") ==
                strlen(s)) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (; *s; s++)
    if (*s == '\'')
      fputs("'\\''", f);
    else
      fputc(*s, f);
  fputc('\'', f);
}

static void print_command(const strvec *cmd) {
  fputs(PROG ":", stderr);
  for (size_t i = 0; i < cmd->n; i++) {
    fputc(' ', stderr);
    print_quoted(stderr, cmd->v[i]);
  }
  fputc('\n', stderr);
}

/* The object a compile of `source` writes (its static-pass report goes next to it): -o for a
 * single-source compile, else the source's name with .o in the working directory. */
static char *object_for(const cmdline *c, const char *source) {
  if (c->compile_only && c->sources.n == 1 && c->output)
    return xstrdup(c->output);
  const char *base = base_name(source), *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return xasprintf("%.*s.o", (int)stem, base);
}

/* Runs the static pass on one source before it is compiled. Findings (exit 1) are its output,
 * not an error; any failure only warns: the compile goes on. */
static void lint_source(const cmdline *c, const char *gmemlint, const char *source, bool verbose) {
  strvec cmd = {0};
  push(&cmd, gmemlint);
  push(&cmd, "--format=json");
  push(&cmd, "-o");
  push(&cmd, xasprintf("%s.gmemlint.json", object_for(c, source)));
  push(&cmd, source);
  push(&cmd, "--");
  for (size_t i = 0; i < c->lint_flags.n; i++)
    push(&cmd, c->lint_flags.v[i]);
  if (verbose)
    print_command(&cmd);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    warn("cannot run gmemlint: %s; compiling without the static pass", strerror(errno));
    return;
  }
  if (pid == 0) {
    dup2(STDERR_FILENO, STDOUT_FILENO); /* stdout stays the compiler's (-E, -M) */
    execvp(cmd.v[0], (char *const *)cmd.v);
    fprintf(stderr, PROG ": warning: cannot run '%s': %s; compiling without the static pass\n",
            cmd.v[0], strerror(errno));
    _exit(EXIT_NOTFOUND);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      warn("waiting for gmemlint: %s", strerror(errno));
      return;
    }
  if (WIFEXITED(status)) {
    int rc = WEXITSTATUS(status);
    if (rc != 0 && rc != 1 && rc != EXIT_NOTFOUND)
      warn("gmemlint could not analyse '%s' (exit status %d); compiling it anyway", source, rc);
  } else if (WIFSIGNALED(status)) {
    warn("gmemlint was killed by signal %d on '%s'; compiling it anyway", WTERMSIG(status), source);
  }
}

static char *find_gmemlint(const char *self) {
  char *next_to_us = xasprintf("%s/gmemlint", dir_name(self));
  if (is_executable(next_to_us))
    return next_to_us;
  return xstrdup("gmemlint"); /* execvp searches PATH */
}

/* A dependency recorded as an absolute path that this machine lacks (gmemcc built elsewhere, or
 * an installed tree copied to another machine): "-lNAME" instead, which the linker looks up on
 * its usual path and LIBRARY_PATH. NULL when the path exists or names no library. */
static char *missing_library_as_flag(const char *dep) {
  if (dep[0] != '/' || access(dep, F_OK) == 0)
    return NULL;
  const char *base = strrchr(dep, '/') + 1;
  const char *ext = strstr(base, ".so");
  if (!ext)
    ext = strstr(base, ".a");
  if (strncmp(base, "lib", 3) != 0 || !ext || ext == base + 3)
    return NULL;
  return xasprintf("-l%.*s", (int)(ext - base - 3), base + 3);
}

/* libgmemrt.a and its dependencies, spelled for the compiler that links. nvcc takes .a and .so
 * files and -l/-L; anything else goes to the host linker or host compiler through -X. */
static void add_runtime_libs(strvec *out, const cmdline *c, const char *lib) {
  static const char *const deps[] = {GMEMCC_RUNTIME_DEPS NULL};
  push(out, lib);
  for (size_t i = 0; i < c->cudart_libs.n; i++)
    push(out, c->cudart_libs.v[i]); /* the runtime calls cudaMalloc & co: resolve them after it */
  for (size_t i = 0; deps[i]; i++) {
    const char *d = deps[i];
    if (!*d)
      continue; /* a generator expression that came out empty */
    char *by_name = missing_library_as_flag(d);
    if (by_name) {
      push(out, by_name);
      continue;
    }
    if (d[0] != '-' && d[0] != '/') {
      push(out, xasprintf("-l%s", d));
    } else if (c->kind == CC_GCC || strncmp(d, "-l", 2) == 0 || strncmp(d, "-L", 2) == 0 ||
               (d[0] == '/' && in_list(suffix(d), (const char *const[]){".a", ".so", NULL}))) {
      push(out, d);
    } else if (d[0] == '/') {
      push(out, "-Xlinker");
      push(out, d);
    } else if (strncmp(d, "-Wl,", 4) == 0) {
      push(out, "-Xlinker");
      push(out, d + 4);
    } else {
      push(out, "-Xcompiler");
      push(out, d);
    }
  }
}

static void usage(void) {
  printf(
      "usage: gmemcc [--gmem-options] [compiler] <compiler arguments...>\n"
      "\n"
      "Builds a CUDA program instrumented for gmemlint's runtime telemetry. gmemcc runs the\n"
      "compiler with your arguments, adding to each compile from source\n"
      "  -include <include dir>/gmem_forced.h   (routes the CUDA allocation calls to libgmemrt)\n"
      "and to each link of an executable or shared library libgmemrt.a and its dependencies.\n"
      "Preprocessing (-E, -M), device-only output (-ptx, -cubin, -fatbin), static libraries\n"
      "(nvcc -lib), device links (-dlink) and --version/--help pass through unchanged.\n"
      "\n"
      "The compiler is the first argument when it names a program (nvcc, clang++, g++, a path),\n"
      "else $GMEMCC_CC, else nvcc from PATH, else /usr/local/cuda/bin/nvcc.\n"
      "\n"
      "gmemcc's own options (anywhere; taken out before the compiler runs):\n"
      "  --gmem-lint        also run the static pass on each source compiled:\n"
      "                     gmemlint --format=json -o <object>.gmemlint.json <source> -- <flags>\n"
      "  --gmem-link-flags  print what gmemcc adds to a link, and exit (for build systems that\n"
      "                     link without it, e.g. CMake before 4.1)\n"
      "  --gmem-help        print this help and exit\n"
      "\n"
      "Environment:\n"
      "  GMEMCC_CC           the compiler when none is named\n"
      "  GMEMCC_LINT=1       as --gmem-lint\n"
      "  GMEMCC_VERBOSE=1    print each command to standard error before running it\n"
      "  GMEMCC_RUNTIME_DIR  directory holding libgmemrt.a\n"
      "  GMEMCC_INCLUDE_DIR  directory holding gmem_forced.h\n"
      "Without them the runtime is looked for in the installed tree around gmemcc\n"
      "(<prefix>/bin/gmemcc, <prefix>/lib/libgmemrt.a, <prefix>/include/gmemlint), then in\n"
      "the build tree that built it:\n"
      "  " GMEMCC_BUILD_RUNTIME_LIB "\n"
      "  " GMEMCC_BUILD_INCLUDE_DIR "/gmem_forced.h\n"
      "\n"
      "Exit status: the compiler's own; 2 when gmemcc cannot do its part (unknown --gmem-\n"
      "option, runtime library or header missing); 126 or 127 when the compiler cannot be run\n"
      "or is not found.\n"
      "\n"
      "CMake: -DCMAKE_CUDA_COMPILER_LAUNCHER=gmemcc, and for the link either\n"
      "-DCMAKE_CUDA_LINKER_LAUNCHER=gmemcc (CMake 4.1 or later) or\n"
      "-DCMAKE_CUDA_STANDARD_LIBRARIES=\"$(gmemcc c++ --gmem-link-flags)\".\n"
      "Make: NVCC=gmemcc. See docs/gmemcc.md.\n");
}

static cc_kind kind_of(const char *compiler) {
  return strstr(base_name(compiler), "nvcc") ? CC_NVCC : CC_GCC;
}

int main(int argc, char **argv) {
  char *self = self_path();
  int at = 1;
  while (at < argc && strncmp(argv[at], "--gmem-", 7) == 0)
    at++; /* gmemcc's own options may come before the compiler */
  bool named = at < argc && names_compiler(argv[at]);
  char **args = xrealloc(NULL, (size_t)argc * sizeof *args);
  size_t nargs = 0;
  for (int i = 1; i < argc; i++)
    if (!named || i != at)
      args[nargs++] = argv[i];
  const char *compiler = NULL; /* argv[0] of the compiler */
  char *program = NULL;        /* the file executed */
  if (named) {
    compiler = argv[at];
    program = strchr(compiler, '/') ? xstrdup(compiler) : find_on_path(compiler, self);
  } else if (getenv("GMEMCC_CC") && *getenv("GMEMCC_CC")) {
    compiler = getenv("GMEMCC_CC");
    program = strchr(compiler, '/') ? xstrdup(compiler) : find_on_path(compiler, self);
  } else {
    program = find_on_path("nvcc", self);
    if (!program)
      program = xstrdup("/usr/local/cuda/bin/nvcc");
    compiler = program;
  }

  cmdline c = {.kind = kind_of(compiler)};
  c.lint = env_on("GMEMCC_LINT");
  scan(&c, args, nargs, true, 0);
  for (size_t i = 0; i < c.positionals.n; i++)
    add_input(&c, c.positionals.v[i], c.lang);
  if (c.help) {
    usage();
    return 0;
  }

  bool stops_early = c.preprocess_only || c.device_only || c.no_build;
  bool compiles = c.sources.n > 0 && !stops_early;
  bool links =
      c.inputs > 0 && c.headers < c.inputs && !stops_early && !c.compile_only && !c.no_runtime_link;
  runtime_paths rt = locate_runtime(self);

  if (c.print_link_flags) {
    if (!is_file(rt.lib))
      die(EXIT_GMEMCC, "runtime library not found: %s (from %s)", rt.lib, rt.lib_how);
    strvec flags = {0};
    add_runtime_libs(&flags, &c, rt.lib);
    for (size_t i = 0; i < flags.n; i++)
      printf("%s%s", i ? " " : "", flags.v[i]);
    printf("\n");
    return 0;
  }

  strvec cmd = {0};
  push(&cmd, compiler);
  if (compiles) {
    if (!is_file(rt.header))
      die(EXIT_GMEMCC, "forced-include header not found: %s (from %s)", rt.header, rt.header_how);
    push(&cmd, "-include");
    push(&cmd, rt.header);
    if (c.kind == CC_GCC && *GMEMCC_CUDA_INCLUDE_DIR) {
      /* gmem_forced.h includes cuda_runtime.h; a host compiler may not know where it is.
       * Searched last, so it never overrides the user's own CUDA headers. */
      push(&cmd, "-idirafter");
      push(&cmd, GMEMCC_CUDA_INCLUDE_DIR);
    }
  }
  for (size_t i = 0; i < c.args.n; i++)
    push(&cmd, c.args.v[i]);
  if (links) {
    if (!is_file(rt.lib))
      die(EXIT_GMEMCC, "runtime library not found: %s (from %s)", rt.lib, rt.lib_how);
    add_runtime_libs(&cmd, &c, rt.lib);
  }

  bool verbose = env_on("GMEMCC_VERBOSE");
  if (c.lint && compiles) {
    char *gmemlint = find_gmemlint(self);
    for (size_t i = 0; i < c.sources.n; i++)
      if (strcmp(c.sources.v[i], "-") != 0) /* standard input: nothing to read twice */
        lint_source(&c, gmemlint, c.sources.v[i], verbose);
  }
  if (verbose)
    print_command(&cmd);
  fflush(NULL);
  if (program)
    execv(program, (char *const *)cmd.v);
  else
    errno = ENOENT;
  int err = errno;
  fprintf(stderr, PROG ": error: cannot run '%s': %s\n", compiler, strerror(err));
  return err == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
}
