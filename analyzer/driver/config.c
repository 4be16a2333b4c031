#include "driver/config.h"

#include "rules/rules.h"
#include "support/util.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static GM_VEC(gm_config *) cache;
static gm_config no_config;

int gm_rules_parse_list(const char *list, uint64_t *bits, char *bad, size_t badlen) {
  char *copy = gm_xstrdup(list);
  int ok = 1;
  for (char *save = NULL, *tok = strtok_r(copy, ", \t", &save); tok;
       tok = strtok_r(NULL, ", \t", &save)) {
    if (strcmp(tok, "all") == 0 || strcmp(tok, "*") == 0) {
      for (size_t i = 0; i < gm_rule_count; i++)
        *bits |= 1ULL << i;
      continue;
    }
    const gm_rule *r = gm_rule_find(tok);
    if (!r) {
      snprintf(bad, badlen, "%s", tok);
      ok = 0;
      break;
    }
    for (size_t i = 0; i < gm_rule_count; i++)
      if (gm_rules[i] == r)
        *bits |= 1ULL << i;
  }
  free(copy);
  return ok;
}

static gm_config *load(const char *path) {
  gm_config *c = gm_xcalloc(1, sizeof *c);
  c->path = gm_xstrdup(path);
  c->table = gm_table_builtin();
  gm_thresholds_init(&c->thresholds);
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text) {
    c->error = gm_xasprintf("%s: cannot read: %s", path, strerror(errno));
    return c;
  }
  if (memchr(text, 0, len)) {
    c->error = gm_xasprintf("%s: contains NUL bytes; not a configuration file", path);
    free(text);
    return c;
  }
  char err[1024] = "";
  char *enable = NULL, *disable = NULL;
  gm_table *t = gm_table_extend(gm_table_builtin(), text, path, err, sizeof err, &enable, &disable,
                                &c->thresholds);
  free(text);
  if (!t) {
    c->error = gm_xstrdup(err);
  } else {
    c->table = t;
    char bad[128];
    if (enable && *enable && !gm_rules_parse_list(enable, &c->enabled_rules, bad, sizeof bad))
      c->error = gm_xasprintf("%s: unknown rule '%s' in [rules] enable", path, bad);
    if (disable && *disable && !gm_rules_parse_list(disable, &c->disabled_rules, bad, sizeof bad))
      c->error = gm_xasprintf("%s: unknown rule '%s' in [rules] disable", path, bad);
  }
  free(enable);
  free(disable);
  return c;
}

static char *find_upward(const char *source_path) {
  char dir[PATH_MAX];
  if (!realpath(source_path, dir))
    return NULL;
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(dir, '/');
    if (slash)
      *(slash == dir ? slash + 1 : slash) = 0;
  }
  for (;;) {
    char *candidate = gm_xasprintf("%s/.gmemlint", strcmp(dir, "/") == 0 ? "" : dir);
    if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode))
      return candidate;
    free(candidate);
    char *slash = strrchr(dir, '/');
    if (!slash || strcmp(dir, "/") == 0)
      return NULL;
    if (slash == dir)
      dir[1] = 0;
    else
      *slash = 0;
  }
}

const gm_config *gm_config_for(const char *source_path, const char *explicit_path) {
  char *path = explicit_path ? gm_xstrdup(explicit_path) : find_upward(source_path);
  if (!path) {
    /* under the lock: every worker thread of a -j run comes here */
    pthread_mutex_lock(&lock);
    if (!no_config.table) {
      gm_thresholds_init(&no_config.thresholds);
      no_config.table = gm_table_builtin();
    }
    pthread_mutex_unlock(&lock);
    return &no_config;
  }
  pthread_mutex_lock(&lock);
  gm_config *found = NULL;
  for (size_t i = 0; i < cache.len && !found; i++)
    if (strcmp(cache.items[i]->path, path) == 0)
      found = cache.items[i];
  if (!found) {
    found = load(path);
    GM_PUSH(cache, found);
  }
  pthread_mutex_unlock(&lock);
  free(path);
  return found;
}
