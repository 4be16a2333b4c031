/* The preambles' registry and their builds (pch.h): entries keyed by flags and headers, each a
 * small source of `#include` lines in a temporary directory, precompiled on the preamble below
 * it, checked, and removed at cleanup. */
#include "frontend/pch.h"

#include "frontend/cuda_wrapper.h"
#include "frontend/nvcc_compat.h"
#include "frontend/pch_store.h"
#include "support/interrupt.h"
#include "support/timing.h"
#include "support/util.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct gm_preamble {
  char *key;
  char **args; /* the flags, copied: the entry is built later, on any worker */
  int nargs;
  char **headers;
  size_t nheaders;
  gm_preamble *below;
  size_t number; /* names its files: preambleN.cu, preambleN.pch */
  char *path;    /* once built; NULL when building failed */
  int kept;      /* path is in the preamble store (pch_store.h): it stays there at cleanup */
  /* its entry there, when kept */
  gm_pch_key store_key;
  enum gm_pch_state state;
  gm_str_vec includes; /* what it holds: a parse with it does not list them itself */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static GM_VEC(gm_preamble *) entries;
static char *dir;
static int dir_slot = -1; /* among the paths a signal removes (support/interrupt.h) */

static char *key_of(const char *const *args, int nargs, char *const *headers, size_t n) {
  gm_strbuf sb = {0};
  for (int i = 0; i < nargs; i++) {
    gm_sb_append(&sb, args[i]);
    gm_sb_appendn(&sb, "\x1f", 1);
  }
  for (size_t i = 0; i < n; i++) {
    gm_sb_appendn(&sb, "\x1e", 1);
    gm_sb_append(&sb, headers[i]);
  }
  return gm_sb_take(&sb);
}

gm_preamble *gm_pch_get(const char *const *args, int nargs, char *const *headers, size_t n,
                        gm_preamble *below) {
  char *key = key_of(args, nargs, headers, n);
  pthread_mutex_lock(&lock);
  gm_preamble *p = NULL;
  for (size_t i = 0; i < entries.len && !p; i++)
    if (strcmp(entries.items[i]->key, key) == 0)
      p = entries.items[i];
  if (!p) {
    p = gm_xcalloc(1, sizeof *p);
    p->key = key;
    key = NULL;
    p->nargs = nargs;
    p->args = gm_xcalloc((size_t)nargs + 1, sizeof(char *));
    for (int i = 0; i < nargs; i++)
      p->args[i] = gm_xstrdup(args[i]);
    p->nheaders = n;
    p->headers = gm_xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++)
      p->headers[i] = gm_xstrdup(headers[i]);
    p->below = n ? below : NULL;
    p->number = entries.len;
    GM_PUSH(entries, p);
  }
  pthread_mutex_unlock(&lock);
  free(key);
  return p;
}

gm_preamble *gm_pch_below(const gm_preamble *p) {
  return p->below;
}

size_t gm_pch_headers(const gm_preamble *p) {
  return p->nheaders;
}

char *const *gm_pch_header_names(const gm_preamble *p) {
  return p->headers;
}

enum gm_pch_state gm_pch_state_of(const gm_preamble *p) {
  pthread_mutex_lock(&lock);
  enum gm_pch_state s = p->state;
  pthread_mutex_unlock(&lock);
  return s;
}

int gm_pch_claim(gm_preamble *p) {
  pthread_mutex_lock(&lock);
  int claimed = 0;
  if (p->state == GM_PCH_UNBUILT) {
    enum gm_pch_state base = p->below ? p->below->state : GM_PCH_READY;
    if (base == GM_PCH_FAILED)
      p->state = GM_PCH_FAILED;
    else if (base == GM_PCH_READY)
      claimed = 1, p->state = GM_PCH_BUILDING;
  }
  pthread_mutex_unlock(&lock);
  return claimed;
}

const char *gm_pch_path(const gm_preamble *p) {
  return p->path;
}

const gm_str_vec *gm_pch_includes(const gm_preamble *p) {
  return &p->includes;
}

/* ---- building ---- */

struct build_ctx {
  CXTranslationUnit tu;
  gm_preamble *p;
  int chained_ok; /* a chained preamble's headers: all system headers, none of the macros */
};

/* Whether a header names a macro that expands otherwise in a preamble than in the file. */
static int names_context_macro(const char *path) {
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text)
    return 1;
  static const char *const names[] = {"__BASE_FILE__", "__DATE__", "__TIME__"};
  int found = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !found; i++)
    found = memmem(text, len, names[i], strlen(names[i])) != NULL;
  free(text);
  return found;
}

static void on_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  struct build_ctx *c = data;
  if (depth == 0)
    return; /* the preamble source itself, removed at cleanup */
  CXString name = clang_getFileName(file);
  const char *s = clang_getCString(name);
  /* nvcc_compat.h is in memory: nothing on disk for the cache to check */
  if (s && *s && !gm_nvcc_compat_is(s) && !gm_str_vec_has(&c->p->includes, s)) {
    GM_PUSH(c->p->includes, gm_xstrdup(s));
    if (c->p->below && c->chained_ok) {
      CXSourceLocation at = clang_getLocationForOffset(c->tu, file, 0);
      c->chained_ok = clang_Location_isInSystemHeader(at) && !names_context_macro(s);
    }
  }
  clang_disposeString(name);
}

static int no_errors(CXTranslationUnit tu) {
  int ok = 1;
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu) && ok; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    ok = clang_getDiagnosticSeverity(d) < CXDiagnostic_Error;
    clang_disposeDiagnostic(d);
  }
  return ok;
}

/* A run's directory is TMPDIR/gmemlint-pch-PID-NS-XXXXXX: its process id and pid namespace
 * (containers that share /tmp have their own), so that a later run tells the directory of a
 * run that died (SIGKILL leaves it, 8-50 MB) from a live run's. */
static unsigned long pid_namespace(void) {
  struct stat st;
  return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

/* Removes the directories of this user's runs in this namespace whose process is gone. */
static void remove_dead_runs_dirs(const char *tmp, unsigned long ns) {
  DIR *d = opendir(tmp);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    int pid = 0, end = 0;
    unsigned long owner_ns = 0;
    if (sscanf(e->d_name, "gmemlint-pch-%d-%lu-%n", &pid, &owner_ns, &end) != 2 || !end ||
        owner_ns != ns || pid <= 0 || pid == (int)getpid())
      continue;
    if (kill(pid, 0) == 0 || errno != ESRCH) /* EPERM: alive, another user's */
      continue;
    char *path = gm_xasprintf("%s/%s", tmp, e->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
      gm_remove_flat_dir(path);
    free(path);
  }
  closedir(d);
}

/* The preamble's source: the headers the preamble below holds are in it already, so only the
 * rest, in order. */
static char *source_text(const gm_preamble *p) {
  gm_strbuf sb = {0};
  gm_sb_append(&sb, "");
  for (size_t i = p->below ? p->below->nheaders : 0; i < p->nheaders; i++)
    gm_sb_printf(&sb, "#include <%s>\n", p->headers[i]);
  return gm_sb_take(&sb);
}

/* The files of this run's own preambles, in its temporary directory: *src and *out. 0 when the
 * directory cannot be made. */
static int run_files(const gm_preamble *p, const char *text, char **src, char **out) {
  pthread_mutex_lock(&lock);
  if (!dir) {
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    unsigned long ns = pid_namespace();
    remove_dead_runs_dirs(tmp, ns);
    char *templ = gm_xasprintf("%s/gmemlint-pch-%d-%lu-XXXXXX", tmp, (int)getpid(), ns);
    dir = mkdtemp(templ);
    if (dir)
      dir_slot = gm_interrupt_remember(dir);
    else
      free(templ);
  }
  pthread_mutex_unlock(&lock);
  if (!dir)
    return 0;
  *src = gm_xasprintf("%s/preamble%zu.cu", dir, p->number);
  *out = gm_xasprintf("%s/preamble%zu.pch", dir, p->number);
  FILE *f = fopen(*src, "w");
  if (f) {
    fputs(text, f);
    if (fclose(f) == 0)
      return 1;
  }
  free(*src);
  free(*out);
  return 0;
}

/* Takes the preamble from the store, or writes its source and precompiles it (into the store
 * when it is on and the preamble below is there too, else into the run's directory); returns
 * the PCH's path or NULL, *reused: whether it came from the store. */
static char *build(CXIndex index, gm_preamble *p, int *reused) {
  char *text = source_text(p), *src = NULL, *out = NULL;
  const char *below_path = p->below ? p->below->path : NULL;
  gm_pch_key key = {{0, 0}};
  int stored = gm_pch_store_enabled() && (!p->below || p->below->kept);
  if (stored) {
    key = gm_pch_store_key((const char *const *)p->args, p->nargs, p->headers, p->nheaders,
                           p->below ? (long)p->below->nheaders : -1);
    p->store_key = key;
    char *found = gm_pch_store_find(key, below_path, &p->includes);
    if (found) {
      free(text);
      p->kept = *reused = 1;
      return found;
    }
    stored = gm_pch_store_prepare(key, text, &src, &out, stderr);
  }
  int ok = stored || run_files(p, text, &src, &out);
  free(text);
  if (!ok)
    return NULL;
  const char **args = gm_xcalloc((size_t)p->nargs + 3, sizeof(char *));
  int nargs = 0;
  for (int i = 0; i < p->nargs; i++)
    args[nargs++] = p->args[i];
  if (p->below) {
    args[nargs++] = "-include-pch";
    args[nargs++] = p->below->path;
    for (size_t i = 0; i < p->below->includes.len; i++)
      GM_PUSH(p->includes, gm_xstrdup(p->below->includes.items[i]));
  }
  CXTranslationUnit tu = NULL;
  /* The headers' function bodies are skipped (a preamble holds system headers only, and the
   * model never reads their bodies; a file parses as an incomplete unit, so no template body is
   * instantiated; constexpr functions and deduced return types keep theirs): builds take 60% of
   * the time. The compat header goes into the base like any -include; the key (the flags)
   * names it, so a preamble built with it serves only parses that include it. */
  struct CXUnsavedFile compat[2] = {gm_nvcc_compat_unsaved()};
  unsigned ncompat = 1 + (unsigned)gm_cuda_wrapper_unsaved(&compat[1]); /* where args name it */
  if (ok)
    ok = clang_parseTranslationUnit2(index, src, args, nargs, compat, ncompat,
                                     CXTranslationUnit_Incomplete |
                                         CXTranslationUnit_ForSerialization |
                                         CXTranslationUnit_SkipFunctionBodies,
                                     &tu) == CXError_Success &&
         tu;
  free(args);
  /* a preamble with errors (bad include paths, say) would only spread them */
  ok = ok && no_errors(tu);
  if (ok) {
    struct build_ctx c = {tu, p, 1};
    clang_getInclusions(tu, on_inclusion, &c);
    int slot = stored ? gm_interrupt_remember(out) : -1; /* the run's directory holds the rest */
    ok = c.chained_ok &&
         clang_saveTranslationUnit(tu, out, clang_defaultSaveOptions(tu)) == CXSaveError_None;
    gm_interrupt_forget(slot);
    char *published =
        ok && stored ? gm_pch_store_publish(key, out, src, below_path, &p->includes) : NULL;
    if (published) {
      free(out);
      out = published;
      p->kept = 1;
    }
  }
  if (tu)
    clang_disposeTranslationUnit(tu);
  free(src); /* the PCH records its source: it stays until cleanup, or in the store */
  if (!ok) {
    remove(out);
    free(out);
    return NULL;
  }
  return out;
}

void gm_pch_build(CXIndex index, gm_preamble *p) {
  double start = gm_timing_start();
  int reused = 0;
  /* a base discarded since it was claimed on (gm_pch_discard) would only fail clang again */
  char *path =
      p->below && gm_pch_state_of(p->below) == GM_PCH_FAILED ? NULL : build(index, p, &reused);
  gm_timing_stop(GM_STAGE_PREAMBLE, start);
  if (!reused) /* a preamble taken from the store is not a build */
    gm_timing_count(GM_STAGE_PREAMBLE);
  pthread_mutex_lock(&lock);
  p->path = path;
  p->state = path ? GM_PCH_READY : GM_PCH_FAILED;
  pthread_mutex_unlock(&lock);
}

void gm_pch_discard(gm_preamble *p) {
  pthread_mutex_lock(&lock);
  int was_ready = p->state == GM_PCH_READY;
  if (was_ready)
    p->state = GM_PCH_FAILED; /* its path stays, for the parses using it now and for cleanup */
  pthread_mutex_unlock(&lock);
  if (was_ready && p->kept)
    gm_pch_store_drop(p->store_key, p->path);
}

void gm_pch_cleanup(void) {
  for (size_t i = 0; i < entries.len; i++) {
    gm_preamble *p = entries.items[i];
    char *src = gm_xasprintf("%s/preamble%zu.cu", dir ? dir : ".", p->number);
    if (dir)
      remove(src);
    free(src);
    if (p->path && !p->kept)
      remove(p->path);
    free(p->path);
    free(p->key);
    for (int k = 0; k < p->nargs; k++)
      free(p->args[k]);
    free(p->args);
    for (size_t k = 0; k < p->nheaders; k++)
      free(p->headers[k]);
    free(p->headers);
    for (size_t k = 0; k < p->includes.len; k++)
      free(p->includes.items[k]);
    GM_VEC_FREE(p->includes);
    free(p);
  }
  GM_VEC_FREE(entries);
  if (dir) {
    rmdir(dir);
    gm_interrupt_forget(dir_slot); /* before the name is freed: the handler may read it */
    dir_slot = -1;
    free(dir);
    dir = NULL;
  }
}
