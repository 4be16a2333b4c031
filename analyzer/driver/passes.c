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

/* The files a program is made of: results[first] on, `count` of them. */
struct program_files {
  gm_run *run;
  size_t first, count;
};

static gm_report *program_report_for(void *arg, size_t unit, const gm_rule *rule) {
  const struct program_files *files = arg;
  gm_run *run = files->run;
  gm_file_result *r = &run->results[files->first + unit];
  size_t k = 0;
  while (k < gm_rule_count && gm_rules[k] != rule)
    k++;
  if (!r->cfg || k == gm_rule_count || !driver_rule_enabled(run, r->cfg, k))
    return NULL;
  return &r->report;
}

static const gm_thresholds *program_limits_for(void *arg, size_t unit) {
  const struct program_files *files = arg;
  const gm_file_result *r = &files->run->results[files->first + unit];
  return r->cfg ? &r->cfg->thresholds : NULL;
}

/* The program of these files' unit summaries as they stand (files with none are NULL); free the
 * returned array after gm_program_free. */
static gm_unit **join_units(const struct program_files *files, gm_program *program) {
  gm_unit **units = gm_xcalloc(files->count + 1, sizeof *units);
  for (size_t i = 0; i < files->count; i++)
    units[i] = files->run->results[files->first + i].unit;
  *program = (gm_program){units, files->count, NULL};
  gm_program_join(program);
  return units;
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
      check_one_program(&(struct program_files){run, i, 1});
  } else {
    check_one_program(&(struct program_files){run, 0, run->nfiles});
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
  gm_program program;
  gm_unit **units = join_units(&(struct program_files){run, 0, run->nfiles}, &program);
  gm_timing_stop(GM_STAGE_PROGRAM, start);
  size_t *again = gm_xcalloc(run->nfiles + 1, sizeof *again);
  size_t *kept = gm_xcalloc(run->nfiles + 1, sizeof *kept);
  size_t count = 0, nkept = 0;
  run->program = &program;
  for (size_t i = 0; i < run->nfiles; i++) {
    gm_file_result *r = &run->results[i];
    if (r->input_error || !(r->imports = imports_of(&program, i))) {
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
  struct kept_work work = {run, kept, nkept, 0, PTHREAD_MUTEX_INITIALIZER};
  if (nkept) {
    size_t n;
    pthread_t *threads = driver_start_threads(run, nkept, analyse_kept, &work, &n);
    driver_join_threads(threads, n);
  }
  if (count)
    driver_run_pass(run, again, count, progress);
  run->program = NULL;
  gm_program_free(&program);
  for (size_t i = 0; i < run->nfiles; i++)
    if (units[i] != run->results[i].unit)
      gm_unit_free(units[i]);
  free(units);
  free(again);
  free(kept);
}
