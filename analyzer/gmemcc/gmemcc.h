/* What the files of gmemcc, the compile wrapper, share: error and allocation helpers, argument
 * vectors, the command line as read (cmdline.c), where the runtime is (locate.c) and the static
 * pass (lint.c). Private to analyzer/gmemcc/. */
#ifndef GMEMCC_GMEMCC_H
#define GMEMCC_GMEMCC_H

#include <stdbool.h>
#include <stddef.h>

#define PROG "gmemcc"
#define EXIT_GMEMCC 2   /* gmemcc's own errors: usage, missing runtime */
#define EXIT_NOEXEC 126 /* as a shell: the compiler exists but cannot be run */
#define EXIT_NOTFOUND 127

/* ---- helpers (util.c) ---- */

void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable, NULL-terminated argument vector. The strings are never freed: gmemcc execs. */
typedef struct {
  const char **v;
  size_t n, cap;
} strvec;
void push(strvec *s, const char *x);

bool env_on(const char *name);
bool is_file(const char *path);
bool is_executable(const char *path);
const char *base_name(const char *path);
const char *suffix(const char *path);
bool in_list(const char *s, const char *const *list);
/* Prints cmd to standard error, quoted for a shell (GMEMCC_VERBOSE). */
void print_command(const strvec *cmd);

/* ---- the command line (cmdline.c) ---- */

typedef enum { CC_NVCC, CC_GCC } cc_kind; /* CC_GCC: gcc, clang and compatible drivers */

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

/* The first argument names the compiler unless it is an option or an input file. */
bool names_compiler(const char *arg);
cc_kind kind_of(const char *compiler);
/* Reads argv as the compiler will. keep: the arguments are the command line's own (copied to
 * c->args), not a response file's. */
void scan(cmdline *c, char **argv, size_t argc, bool keep, int depth);
void add_input(cmdline *c, const char *path, const char *lang);

/* ---- where things are (locate.c) ---- */

char *self_path(void);
char *dir_name(const char *path);
char *find_on_path(const char *name, const char *self);

typedef struct {
  const char *lib;     /* libgmemrt.a */
  const char *header;  /* gmem_forced.h */
  const char *lib_how; /* how the paths were chosen, for the error message */
  const char *header_how;
} runtime_paths;
runtime_paths locate_runtime(const char *self);
const char *toolkit_include_dir(const cmdline *c, const char *program);
const char *public_include_dir(const char *header);
void add_runtime_libs(strvec *out, const cmdline *c, const char *lib);

/* ---- the static pass, --gmem-lint (lint.c) ---- */

void lint_source(const cmdline *c, const char *gmemlint, const char *source, bool verbose);
char *find_gmemlint(const char *self);

/* ---- what a built binary holds, --gmem-check (check.c) ---- */

/* Prints whether each file is instrumented; returns 0 if all are, 1 if one is not, 2 if one
 * cannot be read. */
int check_binaries(const char *const *files, size_t nfiles);

#endif
