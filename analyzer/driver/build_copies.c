/* Headers copied into the build tree, traced back to their sources (build_copies.h). */
#include "driver/build_copies.h"

#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The source tree is indexed by file name, within these bounds (a huge tree is searched in part
 * and its copies stay where they are). */
#define INDEX_DEPTH 16
#define INDEX_FILES 200000

typedef struct named_file {
  const char *base; /* points into path */
  char *path;
} named_file;

struct gm_build_copies {
  char *build_dir; /* real path, no trailing slash */
  char *source_root;
  pthread_mutex_t lock;
  int indexed;
  GM_VEC(named_file) files; /* sorted by base */
};

static int inside(const char *path, const char *dir) {
  size_t n = strlen(dir);
  return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == 0);
}

gm_build_copies *gm_build_copies_new(gm_compdb *db) {
  if (!db)
    return NULL;
  char *dir = gm_xstrdup(gm_compdb_path(db));
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  char real[PATH_MAX];
  const char *build = realpath(slash ? dir : ".", real) ? real : dir;
  gm_build_copies *c = gm_xcalloc(1, sizeof *c);
  c->build_dir = gm_xstrdup(build);
  free(dir);
  /* the source root: the longest folder that every database file outside the build holds */
  char **files = NULL;
  size_t n = gm_compdb_files(db, &files);
  for (size_t i = 0; i < n; i++) {
    if (inside(files[i], c->build_dir))
      continue;
    if (!c->source_root) {
      c->source_root = gm_xstrdup(files[i]);
      char *s = strrchr(c->source_root, '/');
      if (s)
        *s = 0;
      continue;
    }
    while (*c->source_root && !inside(files[i], c->source_root)) {
      char *s = strrchr(c->source_root, '/');
      if (!s)
        break;
      *s = 0;
    }
  }
  /* a build directory inside the project (proj/build): the project is the folder that holds
   * it, headers beside the sources' folders included */
  char *parent = gm_xstrdup(c->build_dir);
  char *cut = strrchr(parent, '/');
  if (cut)
    *cut = 0;
  if (c->source_root && *parent && inside(c->source_root, parent)) {
    free(c->source_root);
    c->source_root = parent;
    parent = NULL;
  }
  free(parent);
  if (c->source_root && !*c->source_root) { /* nothing shared but / : too wide to index */
    free(c->source_root);
    c->source_root = NULL;
  }
  pthread_mutex_init(&c->lock, NULL);
  return c;
}

void gm_build_copies_free(gm_build_copies *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->files.len; i++)
    free(c->files.items[i].path);
  GM_VEC_FREE(c->files);
  pthread_mutex_destroy(&c->lock);
  free(c->build_dir);
  free(c->source_root);
  free(c);
}

static void index_dir(gm_build_copies *c, const char *dir, int depth) {
  DIR *d = depth < INDEX_DEPTH ? opendir(dir) : NULL;
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) && c->files.len < INDEX_FILES) {
    if (e->d_name[0] == '.')
      continue;
    char *path = gm_xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0 || inside(path, c->build_dir)) {
      free(path);
    } else if (S_ISDIR(st.st_mode)) {
      index_dir(c, path, depth + 1);
      free(path);
    } else if (S_ISREG(st.st_mode)) {
      named_file f = {NULL, path};
      f.base = strrchr(path, '/') + 1;
      GM_PUSH(c->files, f);
    } else {
      free(path);
    }
  }
  closedir(d);
}

static int by_base(const void *a, const void *b) {
  return strcmp(((const named_file *)a)->base, ((const named_file *)b)->base);
}

static int same_bytes(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) != 0 || stat(b, &sb) != 0 || sa.st_size != sb.st_size)
    return 0;
  size_t la, lb;
  char *ta = gm_read_file(a, &la), *tb = gm_read_file(b, &lb);
  int same = ta && tb && la == lb && memcmp(ta, tb, la) == 0;
  free(ta);
  free(tb);
  return same;
}

/* The source of a copy: the one file of the source tree with its name and bytes; NULL when
 * there is none, or several (which of them was copied is not known). */
static char *source_of(gm_build_copies *c, const char *copy) {
  pthread_mutex_lock(&c->lock);
  if (!c->indexed) {
    c->indexed = 1;
    if (c->source_root)
      index_dir(c, c->source_root, 0);
    if (c->files.len)
      qsort(c->files.items, c->files.len, sizeof *c->files.items, by_base);
  }
  pthread_mutex_unlock(&c->lock);
  const char *base = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
  size_t lo = 0, hi = c->files.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(c->files.items[mid].base, base) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  const char *found = NULL;
  for (size_t i = lo; i < c->files.len && strcmp(c->files.items[i].base, base) == 0; i++)
    if (same_bytes(copy, c->files.items[i].path)) {
      if (found)
        return NULL;
      found = c->files.items[i].path;
    }
  return found ? gm_xstrdup(found) : NULL;
}

static void move_loc(gm_build_copies *c, gm_loc *loc) {
  if (!loc->file || !*loc->file)
    return;
  char real[PATH_MAX];
  if (!realpath(loc->file, real) || !inside(real, c->build_dir))
    return;
  char *source = source_of(c, real);
  if (source) {
    free((char *)loc->file);
    loc->file = source;
  }
}

void gm_build_copies_apply(gm_build_copies *c, gm_report *rep, size_t first) {
  if (!c || !c->source_root)
    return;
  for (size_t i = first; i < rep->findings.len; i++) {
    gm_finding *f = &rep->findings.items[i];
    move_loc(c, &f->loc);
    for (int k = 0; k < f->nrelated; k++)
      move_loc(c, &f->related[k].loc);
  }
}
