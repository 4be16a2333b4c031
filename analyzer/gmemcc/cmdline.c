/* Reading the compiler's command line the way the compiler reads it (nvcc's option grammar or
 * GCC/clang's): which arguments are inputs and of what kind, which options stop before a link,
 * and the flags the static pass needs. */
#include "gmemcc/gmemcc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool names_compiler(const char *arg) {
  const char *suf = suffix(arg);
  return arg[0] != '-' && arg[0] != '@' && !in_list(suf, source_suffixes) &&
         !in_list(suf, preprocessed_suffixes) && !in_list(suf, header_suffixes) &&
         !in_list(suf, other_code_suffixes) && !is_object(arg);
}

typedef enum { IN_SOURCE, IN_PREPROCESSED, IN_HEADER, IN_OTHER } input_kind;

/* ---- the compiler's option grammar ---- */

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

void add_input(cmdline *c, const char *path, const char *lang) {
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

void scan(cmdline *c, char **argv, size_t argc, bool keep, int depth) {
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

cc_kind kind_of(const char *compiler) {
  return strstr(base_name(compiler), "nvcc") ? CC_NVCC : CC_GCC;
}
