/* Whole-program analysis in the driver: after pass one, the files' unit summaries are joined;
 * files that call functions other files define are analysed again with those functions'
 * summaries (pass two: on the model pass one kept, else parsed again through the worker pool);
 * then the rules' program-wide checks report into the files that hold their findings. */
#include "driver/passes.h"
#include "driver/supervise.h"

#include "frontend/frontend.h"
#include "program/program.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "support/timing.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The files a program is made of: results[files[0..count)]. */
struct program_files {
  gm_run *run;
  const size_t *files;
  size_t count;
};

static gm_report *program_report_for(void *arg, size_t unit, const gm_rule *rule) {
  const struct program_files *files = arg;
  gm_run *run = files->run;
  gm_file_result *r = &run->results[files->files[unit]];
  size_t k = 0;
  while (k < gm_rule_count && gm_rules[k] != rule)
    k++;
  if (!r->cfg || k == gm_rule_count || !driver_rule_enabled(run, r->cfg, k))
    return NULL;
  return &r->report;
}

static const gm_thresholds *program_limits_for(void *arg, size_t unit) {
  const struct program_files *files = arg;
  const gm_file_result *r = &files->run->results[files->files[unit]];
  return r->cfg ? &r->cfg->thresholds : NULL;
}

/* The program of these files' unit summaries as they stand (files with none are NULL); free the
 * returned array after gm_program_free. */
static gm_unit **join_units(const struct program_files *files, gm_program *program) {
  gm_unit **units = gm_xcalloc(files->count + 1, sizeof *units);
  for (size_t i = 0; i < files->count; i++)
    units[i] = files->run->results[files->files[i]].unit;
  *program = (gm_program){units, files->count, NULL};
  gm_program_join(program);
  return units;
}

/* ---- the programs a run's files make ---- */

typedef struct symbol_def {
  const char *usr;
  size_t file;
} symbol_def;

static int symbol_cmp(const void *a, const void *b) {
  const symbol_def *x = a, *y = b;
  int c = strcmp(x->usr, y->usr);
  return c ? c : (x->file > y->file) - (x->file < y->file);
}

/* The files that define usr (defs sorted): [*first, end). */
static size_t defs_of(const symbol_def *defs, size_t n, const char *usr, size_t *first) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(defs[mid].usr, usr) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *first = lo;
  while (hi < n && strcmp(defs[hi].usr, usr) == 0)
    hi++;
  return hi;
}

static int size_cmp(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

typedef GM_VEC(size_t) file_list;
typedef GM_VEC(file_list) program_list;

/* Whether file f defines a once-linked symbol some file of the group already defines. */
static int collides(const gm_run *run, size_t f, const file_list *group) {
  const gm_unit *u = run->results[f].unit;
  for (size_t g = 0; u && g < group->len; g++) {
    const gm_unit *o = run->results[group->items[g]].unit;
    for (size_t i = 0; o && i < u->symbols.len; i++)
      for (size_t k = 0; k < o->symbols.len; k++)
        if (strcmp(u->symbols.items[i], o->symbols.items[k]) == 0)
          return 1;
  }
  return 0;
}

/* How many leading path characters a and b share, up to a common '/': how near two files are. */
static size_t shared_dir(const char *a, const char *b) {
  size_t n = 0, i = 0;
  for (; a[i] && a[i] == b[i]; i++)
    if (a[i] == '/')
      n = i + 1;
  return n;
}

/* Adds `from` and the files that define what it calls, and so on, to `out`: of a callee's
 * definers, the nearest to the root (the longest shared folder, then the first named) whose
 * once-linked symbols collide with none of the group's. */
static void add_reached(const gm_run *run, const symbol_def *defs, size_t ndefs, size_t root,
                        size_t from, unsigned char *in, file_list *out) {
  file_list todo = {0};
  GM_PUSH(todo, from);
  in[from] = 1;
  GM_PUSH(*out, from);
  const char *root_path = run->results[root].path;
  while (todo.len) {
    size_t i = todo.items[--todo.len];
    const gm_unit *u = run->results[i].unit;
    for (size_t k = 0; u && k < u->called.len; k++) {
      size_t first, end = defs_of(defs, ndefs, u->called.items[k], &first), best = (size_t)-1;
      size_t best_near = 0;
      for (size_t d = first; d < end; d++) {
        size_t f = defs[d].file;
        if (in[f]) { /* the group has a definition already */
          best = (size_t)-1;
          break;
        }
        size_t near = shared_dir(root_path, run->results[f].path);
        if ((best == (size_t)-1 || near > best_near) && !collides(run, f, out)) {
          best = f;
          best_near = near;
        }
      }
      if (best != (size_t)-1) {
        in[best] = 1;
        GM_PUSH(*out, best);
        GM_PUSH(todo, best);
      }
    }
  }
  GM_VEC_FREE(todo);
}

/* The run's files as programs. One, unless two files define the same function the linker takes
 * once (a folder of single-file programs: each defines main): then each such file is the root
 * of a program of its own, with the files its calls reach (add_reached: a library file several
 * of them call is in each), and the files no root reaches make more, as few as collide. Each
 * list is in the files' order. */
static program_list programs_of(const gm_run *run) {
  GM_VEC(symbol_def) defs = {0}, once = {0}; /* every function with a body; the once-linked */
  for (size_t i = 0; i < run->nfiles; i++) {
    const gm_unit *u = run->results[i].unit;
    for (size_t k = 0; u && k < u->defined.len; k++)
      GM_PUSH(defs, ((symbol_def){u->defined.items[k], i}));
    for (size_t k = 0; u && k < u->symbols.len; k++)
      GM_PUSH(once, ((symbol_def){u->symbols.items[k], i}));
  }
  if (defs.len)
    qsort(defs.items, defs.len, sizeof *defs.items, symbol_cmp);
  if (once.len)
    qsort(once.items, once.len, sizeof *once.items, symbol_cmp);
  /* the roots: files that define a once-linked symbol another file defines too (sorted by
   * symbol, then file: such files are neighbours) */
  unsigned char *is_root = gm_xcalloc(run->nfiles + 1, 1);
  for (size_t k = 1; k < once.len; k++)
    if (strcmp(once.items[k].usr, once.items[k - 1].usr) == 0 &&
        once.items[k].file != once.items[k - 1].file)
      is_root[once.items[k].file] = is_root[once.items[k - 1].file] = 1;
  GM_VEC_FREE(once);
  size_t nroots = 0;
  for (size_t i = 0; i < run->nfiles; i++)
    nroots += is_root[i];
  program_list out = {0};
  unsigned char *in = gm_xcalloc(run->nfiles + 1, 1), *reached = gm_xcalloc(run->nfiles + 1, 1);
  for (size_t r = 0; r < run->nfiles; r++) {
    if (!nroots && r) /* one program: every file */
      break;
    if (nroots && !is_root[r])
      continue;
    file_list files = {0};
    memset(in, 0, run->nfiles);
    if (!nroots)
      for (size_t i = 0; i < run->nfiles; i++)
        GM_PUSH(files, i);
    else
      add_reached(run, defs.items, defs.len, r, r, in, &files);
    for (size_t i = 0; i < files.len; i++)
      reached[files.items[i]] = 1;
    GM_PUSH(out, files);
  }
  for (;;) { /* the files no root reached, in as few programs as their symbols allow */
    file_list rest = {0};
    memset(in, 0, run->nfiles);
    for (size_t i = 0; i < run->nfiles; i++)
      if (!reached[i] && !in[i] && !collides(run, i, &rest))
        add_reached(run, defs.items, defs.len, i, i, in, &rest);
    if (!rest.len) {
      GM_VEC_FREE(rest);
      break;
    }
    for (size_t i = 0; i < rest.len; i++)
      reached[rest.items[i]] = 1;
    GM_PUSH(out, rest);
  }
  for (size_t p = 0; p < out.len; p++) /* the files' order: reports and notes stay stable */
    qsort(out.items[p].items, out.items[p].len, sizeof(size_t), size_cmp);
  free(in);
  free(reached);
  free(is_root);
  GM_VEC_FREE(defs);
  return out;
}

static void programs_free(program_list *p) {
  for (size_t i = 0; i < p->len; i++)
    GM_VEC_FREE(p->items[i]);
  GM_VEC_FREE(*p);
}

/* The rules' program-wide checks over one program. */
static void check_one_program(const struct program_files *files) {
  gm_program program;
  gm_unit **units = join_units(files, &program);
  gm_program_ctx ctx = {&program, program_report_for, program_limits_for, (void *)files};
  for (size_t k = 0; k < gm_rule_count; k++)
    if (gm_rules[k]->check_program)
      gm_rules[k]->check_program(&ctx);
  gm_program_free(&program);
  free(units);
}

static const char *last_component(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* A header function's findings (from `before` on) say which file's #include brought it in: the
 * header is analysed in each file that includes it, and its findings are kept once a program. */
void driver_name_includer(const gm_tu *tu, const gm_func *fn, gm_report *rep, size_t before) {
  const gm_loc *at = fn->in_main_file ? NULL : gm_tu_included_at(tu, fn->loc.file);
  for (size_t k = before; at && k < rep->findings.len; k++)
    gm_finding_note(&rep->findings.items[k], *at, "'%s' is analysed where '%s' includes it",
                    last_component(fn->loc.file), last_component(tu->path));
}

/* The same finding (rule, place, message) in an earlier file's report, placed outside that
 * file: a defect in a header that several files include, which each of them found. */
static int reported_before(const gm_finding *f, gm_finding *const *kept, size_t nkept) {
  for (size_t i = 0; i < nkept; i++)
    if (kept[i]->rule == f->rule && kept[i]->loc.line == f->loc.line &&
        kept[i]->loc.col == f->loc.col && strcmp(kept[i]->loc.file, f->loc.file) == 0 &&
        strcmp(kept[i]->message, f->message) == 0)
      return 1;
  return 0;
}

/* The file's path without `..` and links: each file that includes a header may spell it its own
 * way (`app_a/../common/blob.h`). */
static void canonical_file(gm_loc *loc) {
  char *real = loc->file ? realpath(loc->file, NULL) : NULL;
  if (real) {
    free((char *)loc->file);
    loc->file = real;
  }
}

/* A finding placed in another file than the one analysed (a header's free, which every file
 * that includes the header reaches) is kept in the first file's report only, with the header
 * named by its canonical path. Such findings are few, so a list searched in full does. */
static void drop_repeated_findings_elsewhere(gm_run *run) {
  GM_VEC(gm_finding *) kept = {0};
  for (size_t i = 0; i < run->nfiles; i++) {
    gm_report *rep = &run->results[i].report;
    const char *path = run->results[i].path;
    if (gm_is_findings_file(path))
      continue; /* its findings name their own sources, settled by the run that wrote them */
    size_t w = 0, n = rep->findings.len;
    for (size_t k = 0; k < n; k++) {
      gm_finding *f = &rep->findings.items[k];
      if (strcmp(f->loc.file, path) != 0) {
        char *own = gm_xstrdup(f->loc.file);
        canonical_file(&f->loc);
        for (int r = 0; r < f->nrelated; r++)
          if (f->related[r].loc.file && strcmp(f->related[r].loc.file, own) == 0)
            canonical_file(&f->related[r].loc);
        free(own);
      }
      if (strcmp(f->loc.file, path) != 0 && reported_before(f, kept.items, kept.len)) {
        gm_finding_free(f);
        continue;
      }
      rep->findings.items[w++] = *f;
    }
    rep->findings.len = w;
    /* pointers into the report are taken only once it stops moving */
    for (size_t k = 0; k < w; k++)
      if (strcmp(rep->findings.items[k].loc.file, path) != 0)
        GM_PUSH(kept, &rep->findings.items[k]);
  }
  GM_VEC_FREE(kept);
}

/* The program-wide checks' findings from `from` on, each once: a file in several programs (a
 * library file several single-file programs call) gets the same finding from each. */
static void drop_repeats_in_file(gm_report *rep, size_t from) {
  size_t w = from;
  for (size_t k = from; k < rep->findings.len; k++) {
    gm_finding *f = &rep->findings.items[k];
    size_t j = from;
    while (j < w && !(rep->findings.items[j].rule == f->rule &&
                      rep->findings.items[j].loc.line == f->loc.line &&
                      rep->findings.items[j].loc.col == f->loc.col &&
                      strcmp(rep->findings.items[j].loc.file, f->loc.file) == 0 &&
                      strcmp(rep->findings.items[j].message, f->message) == 0))
      j++;
    if (j < w) {
      gm_finding_free(f);
      continue;
    }
    rep->findings.items[w++] = *f;
  }
  rep->findings.len = w;
}

/* Joins every file's unit summary and runs the program-wide checks; their findings join the
 * report of the file that holds them (suppressed, ordered and fingerprinted like the rest). With
 * --no-whole-program each file is a program of its own, as if it were named alone. */
void driver_check_program(gm_run *run) {
  double start = gm_timing_start();
  size_t *before = gm_xcalloc(run->nfiles + 1, sizeof *before);
  size_t *notices_before = gm_xcalloc(run->nfiles + 1, sizeof *notices_before);
  for (size_t i = 0; i < run->nfiles; i++) {
    before[i] = run->results[i].report.findings.len;
    notices_before[i] = run->results[i].report.notices.len;
  }
  if (run->opt->no_whole_program) {
    for (size_t i = 0; i < run->nfiles; i++)
      check_one_program(&(struct program_files){run, &i, 1});
  } else {
    program_list programs = programs_of(run);
    for (size_t p = 0; p < programs.len; p++)
      check_one_program(
          &(struct program_files){run, programs.items[p].items, programs.items[p].len});
    if (programs.len > 1) /* a file in several programs: its findings once */
      for (size_t i = 0; i < run->nfiles; i++)
        drop_repeats_in_file(&run->results[i].report, before[i]);
    programs_free(&programs);
  }
  for (size_t i = 0; i < run->nfiles; i++) {
    gm_file_result *r = &run->results[i];
    /* the checks' findings, and their --explain notices (dropped there without it) */
    if (r->report.findings.len != before[i] || r->report.notices.len != notices_before[i])
      driver_settle_findings(run, r, before[i]);
    gm_unit_free(r->unit);
    r->unit = NULL;
  }
  if (!run->opt->no_whole_program)
    drop_repeated_findings_elsewhere(run);
  free(before);
  free(notices_before);
  gm_timing_stop(GM_STAGE_PROGRAM, start);
}

/* Whether a summary makes a call act otherwise than an unknown callee's (which may keep or free
 * every argument, and reallocate its object's members), and whether it allocates for its
 * caller. */
static int summary_matters(const gm_call_summary *s, int *allocates) {
  int matters = s->noreturn;
  /* a destructor that frees members: the objects it destroys hold memory of their own */
  *allocates = s->returns_fresh != NULL || s->nmember_frees;
  for (int i = 0; i < s->nparams; i++) {
    /* pass one read a `const T *` parameter of a function it had no body for as read only */
    matters |= s->params[i].effect != GM_PARAM_ESCAPES || s->params[i].reads_only;
    *allocates |= s->params[i].effect == GM_PARAM_OUT_ALLOC;
  }
  for (int k = 0; k < s->nmembers; k++)
    *allocates |= s->members[k].fills; /* into a member of the caller's object */
  return matters || *allocates || s->nmembers;
}

/* The other files' summaries that file i's calls would use (JSON, one per line), or NULL when
 * none would change its analysis: a file that allocates nothing and calls nothing that allocates
 * for it can yield no fact, whatever its callees do. */
static char *imports_of(const gm_program *program, size_t i) {
  const gm_unit *u = program->units[i];
  gm_strbuf sb = {0};
  int allocates = u && u->allocates, matters = 0;
  for (size_t k = 0; u && k < u->called.len; k++) {
    const gm_call_summary *s = gm_program_summary(program, u->called.items[k], i);
    int gives;
    if (!s || !summary_matters(s, &gives))
      continue;
    matters = 1;
    allocates |= gives;
    char *text = gm_call_summary_json(s);
    gm_sb_append(&sb, text);
    gm_sb_append(&sb, "\n");
    free(text);
  }
  if (matters && allocates && sb.len)
    return gm_sb_take(&sb);
  free(sb.data);
  return NULL;
}

static void drop_kept(gm_file_result *r) {
  if (r->kept) {
    gm_parse_free(r->kept);
    free(r->kept);
    r->kept = NULL;
  }
}

/* Caches a pass-two result computed from the kept model, under pass one's key mixed with the
 * summaries it used, so that a later run whose pass one hits the cache finds it too. */
static void store_second_look(gm_run *run, gm_file_result *r) {
  if (!run->cache || r->kept->error_count)
    return;
  char *text = NULL;
  size_t len = 0;
  FILE *msg = open_memstream(&text, &len);
  gm_cache_key key = gm_cache_key_mix(r->key, r->imports);
  gm_cache_store(run->cache, &key, &r->kept->includes, r->kept_pch_includes, &r->report, r->unit,
                 r->messages + r->kept_mark, r->messages_len - r->kept_mark, msg);
  fclose(msg);
  driver_append_messages(r, text, len);
}

/* Pass two over kept models, shared by the threads: the next file to analyse. */
struct kept_work {
  gm_run *run;
  const size_t *files;
  size_t count, next;
  pthread_mutex_t lock;
};

static void *analyse_kept(void *arg) {
  struct kept_work *w = arg;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    size_t k = w->next++;
    pthread_mutex_unlock(&w->lock);
    if (k >= w->count)
      return NULL;
    gm_file_result *r = &w->run->results[w->files[k]];
    gm_supervised_begin(w->files[k]);
    driver_analyse_parse(w->run, r, r->kept);
    gm_supervised_end(w->files[k]);
    store_second_look(w->run, r);
    drop_kept(r);
  }
}

/* Whole-program pass two: the files that call functions defined in other files of the run are
 * analysed again with those functions' summaries, so a call to another file's wrapper allocates
 * and a call to its releasing helper frees, path by path, as a same-file helper's call does. */
void driver_second_pass(gm_run *run, gm_progress *progress) {
  double start = gm_timing_start();
  /* the units as pass one left them: pass two replaces a file's, these are freed at the end */
  gm_unit **units = gm_xcalloc(run->nfiles + 1, sizeof *units);
  for (size_t i = 0; i < run->nfiles; i++)
    units[i] = run->results[i].unit;
  program_list programs = programs_of(run);
  gm_program *joined = gm_xcalloc(programs.len + 1, sizeof *joined);
  gm_unit ***joined_units = gm_xcalloc(programs.len + 1, sizeof *joined_units);
  for (size_t p = 0; p < programs.len; p++)
    joined_units[p] = join_units(
        &(struct program_files){run, programs.items[p].items, programs.items[p].len}, &joined[p]);
  gm_timing_stop(GM_STAGE_PROGRAM, start);
  size_t *again = gm_xcalloc(run->nfiles + 1, sizeof *again);
  size_t *kept = gm_xcalloc(run->nfiles + 1, sizeof *kept);
  unsigned char *seen = gm_xcalloc(run->nfiles + 1, 1);
  size_t count = 0, nkept = 0;
  for (size_t p = 0; p < programs.len; p++)
    for (size_t self = 0; self < programs.items[p].len; self++) {
      size_t i = programs.items[p].items[self];
      gm_file_result *r = &run->results[i];
      if (seen[i]) /* in an earlier program too: its callees are the same there */
        continue;
      seen[i] = 1;
      r->program = &joined[p];
      r->program_self = self;
      if (r->input_error || !(r->imports = imports_of(&joined[p], self))) {
        drop_kept(r);
        continue;
      }
      /* what pass one found is replaced; its summary stays readable until the pass ends */
      gm_report_clear(&r->report);
      if (r->kept) { /* the model is at hand: no second parse */
        r->unit = NULL;
        kept[nkept++] = i;
        continue;
      }
      free(r->messages);
      r->messages = NULL;
      r->messages_len = 0;
      gm_source_free(&r->src);
      r->unit = NULL;
      r->done = r->parsed = r->parse_errors = 0;
      again[count++] = i;
    }
  qsort(kept, nkept, sizeof *kept, size_cmp);
  qsort(again, count, sizeof *again, size_cmp);
  struct kept_work work = {run, kept, nkept, 0, PTHREAD_MUTEX_INITIALIZER};
  if (nkept) {
    size_t n;
    pthread_t *threads = driver_start_threads(run, nkept, analyse_kept, &work, &n);
    driver_join_threads(threads, n);
  }
  if (count)
    driver_run_pass(run, again, count, progress);
  for (size_t i = 0; i < run->nfiles; i++)
    run->results[i].program = NULL;
  for (size_t p = 0; p < programs.len; p++) {
    gm_program_free(&joined[p]);
    free(joined_units[p]);
  }
  free(joined);
  free(joined_units);
  programs_free(&programs);
  for (size_t i = 0; i < run->nfiles; i++)
    if (units[i] != run->results[i].unit)
      gm_unit_free(units[i]);
  free(units);
  free(seen);
  free(again);
  free(kept);
}
