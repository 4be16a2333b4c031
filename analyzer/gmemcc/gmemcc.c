/* gmemcc: the compile wrapper for instrumented builds, in the manner of ccache or sparse's cgcc.
 *
 *   gmemcc [compiler] <compiler arguments...>
 *
 * runs the compiler (nvcc by default) with its arguments unchanged, except that a step that
 * compiles from source gets `-include gmem_forced.h` (the hooks that route the CUDA allocation
 * calls to libgmemrt with their site) and a step that links an executable or a shared library
 * gets libgmemrt.a and its dependencies. Which steps compile and which link is read from the
 * options the way the compiler reads them (nvcc's grammar or GCC/clang's). gmemcc then replaces
 * itself with the compiler (execv, no shell), so the output and exit status are the compiler's.
 * This file decides which steps compile and which link and builds the command (main); cmdline.c
 * reads the arguments, locate.c finds the runtime, lint.c runs the static pass, util.c helps. */
#include "gmemcc/gmemcc.h"
#include "gmemcc_config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read by AddressSanitizer in the sanitizer build, unused otherwise. gmemcc runs once per compile
 * and ends in execv or exit, its memory returned whole: LeakSanitizer's report at exit would only
 * turn each error exit (2) into 1. ASAN_OPTIONS=detect_leaks=1 still turns it on. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "detect_leaks=0";
}

static void usage(void) {
  printf(
      "usage: gmemcc [--gmem-options] [compiler] <compiler arguments...>\n"
      "       gmemcc --gmem-check FILE...\n"
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
      "  --gmem-check FILE...  say whether each program, shared library, object or archive\n"
      "                     is instrumented: the units compiled with gmem_forced.h and\n"
      "                     whether libgmemrt is linked in; exit 1 if one is not\n"
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
      "or is not found. --gmem-check: 0 when every file is instrumented, 1 when one is not,\n"
      "2 when one cannot be read.\n"
      "\n"
      "CMake (an installed gmemlint): find_package(gmemlint) and "
      "gmemlint_instrument(<target>...),\n"
      "or, the project left as it is,\n"
      "  -DCMAKE_PROJECT_INCLUDE=<prefix>/lib/cmake/gmemlint/instrument-all.cmake\n"
      "Make: set the variable the Makefile runs nvcc through (make -n shows the commands):\n"
      "make NVCC=gmemcc. Then check the result: gmemcc --gmem-check ./app. See docs/gmemcc.md.\n");
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--gmem-check") == 0) { /* every other argument is a file to check */
      const char **files = xrealloc(NULL, (size_t)argc * sizeof *files);
      size_t n = 0;
      for (int j = 1; j < argc; j++)
        if (j != i)
          files[n++] = argv[j];
      return check_binaries(files, n);
    }
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
    /* Returned, not exited: what main holds is freed so that LeakSanitizer stays quiet in the
     * sanitizer build, which generates the man page from this help. */
    strvec *owned[] = {&c.args, &c.sources, &c.positionals, &c.lint_flags, &c.cudart_libs};
    for (size_t i = 0; i < sizeof owned / sizeof *owned; i++)
      free(owned[i]->v);
    free(program);
    free(args);
    free(self);
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
    /* The toolkit's cuda.h by its path first: gmem_forced.h's own #include <cuda.h> would
     * find a project header of that name on the -I path before it (its include guard then
     * skips it). */
    const char *cuda_inc = toolkit_include_dir(&c, program);
    if (cuda_inc) {
      push(&cmd, "-include");
      push(&cmd, xasprintf("%s/cuda.h", cuda_inc));
    }
    push(&cmd, "-include");
    push(&cmd, rt.header);
    /* gmem_forced.h includes cuda_runtime.h; a host compiler may not know where it is. The
     * public headers' directory makes <gmemlint/gmemrt.h> (gmem_step) work. Both are searched
     * after the user's directories (nvcc has no -idirafter: -isystem comes after every -I), so
     * they never override a header of the user's own. */
    const char *after = c.kind == CC_GCC ? "-idirafter" : "-isystem";
    if (c.kind == CC_GCC && cuda_inc) {
      push(&cmd, after);
      push(&cmd, cuda_inc);
    }
    const char *public_inc = public_include_dir(rt.header);
    if (public_inc) {
      push(&cmd, after);
      push(&cmd, public_inc);
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
