/* The preamble store (pch_store.h): keys, the entry's manifest, lookups that check every file a
 * preamble read, publishing without replacing, and eviction of the least recently used. */
#include "frontend/pch_store.h"

#include "frontend/cuda_wrapper.h"
#include "frontend/nvcc_compat.h"
#include "support/atomic_file.h"
#include "support/files.h"
#include "support/interrupt.h"

#include <clang-c/Index.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MANIFEST_MAGIC "gmemlint-preamble 1\n"
/* Far above a real manifest (a preamble of the whole toolkit reads a few thousand files). */
#define MAX_MANIFEST_BYTES ((off_t)16 << 20)
/* A temporary, or a PCH or source no manifest names, this old is a dead run's leftover; a live
 * run publishes its manifest seconds after its source and PCH. */
#define LEFTOVER_SECONDS (10 * 60)

static struct {
  pthread_mutex_t lock;
  int on;
  char *dir;
  uint64_t identity[2];
  uint64_t max_bytes;
  gm_str_vec used; /* keys (hex) this run found or stored: never evicted by it */
  atomic_size_t reused, stored, evicted, dropped;
  atomic_uint counter; /* names this run's temporaries */
  atomic_int warned;
} store = {.lock = PTHREAD_MUTEX_INITIALIZER};

void gm_pch_store_open(const char *dir, const uint64_t identity[2], uint64_t max_bytes) {
  store.on = 1;
  store.dir = gm_xstrdup(dir);
  store.identity[0] = identity[0];
  store.identity[1] = identity[1];
  store.max_bytes = max_bytes;
}

int gm_pch_store_enabled(void) {
  return store.on;
}

/* ---- hashing: 128 bits, two lanes of a word-at-a-time mix (the PCH is tens of MB: read back
 * on every use, its check must cost little next to a parse) ---- */

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

static void hash_bytes(uint64_t h[2], const void *data, size_t n) {
  const unsigned char *p = data;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h[0] = (h[0] ^ w) * 0x9e3779b97f4a7c15ULL;
    h[0] ^= h[0] >> 29;
    h[1] = (h[1] + w) * 0xc2b2ae3d27d4eb4fULL;
    h[1] = (h[1] << 31) | (h[1] >> 33);
  }
  uint64_t tail = 0;
  memcpy(&tail, p, n);
  h[0] = mix(h[0] ^ tail ^ (uint64_t)n);
  h[1] = mix(h[1] + tail + h[0]);
}

static void hash_str(uint64_t h[2], const char *s) {
  s = s ? s : "";
  hash_bytes(h, s, strlen(s) + 1); /* the NUL keeps parts apart */
}

gm_pch_key gm_pch_store_key(const char *const *args, int nargs, char *const *headers, size_t n,
                            long below_headers) {
  uint64_t h[2] = {store.identity[0], store.identity[1]};
  hash_str(h, "gmemlint preamble");
  CXString v = clang_getClangVersion();
  hash_str(h, clang_getCString(v));
  clang_disposeString(v);
  hash_str(h, gm_nvcc_compat_text);
  struct CXUnsavedFile wrapper;
  if (gm_cuda_wrapper_unsaved(&wrapper))
    hash_bytes(h, wrapper.Contents, wrapper.Length);
  /* relative names in the flags resolve against it; the driver's include paths come from these */
  char *cwd = getcwd(NULL, 0);
  hash_str(h, cwd);
  free(cwd);
  static const char *const env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"};
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
    hash_str(h, getenv(env[i]));
  uint64_t counts[2] = {(uint64_t)nargs, (uint64_t)n};
  hash_bytes(h, counts, sizeof counts);
  for (int i = 0; i < nargs; i++)
    hash_str(h, args[i]);
  for (size_t i = 0; i < n; i++)
    hash_str(h, headers[i]);
  int64_t below = below_headers;
  hash_bytes(h, &below, sizeof below);
  return (gm_pch_key){{h[0], h[1]}};
}

/* ---- files ---- */

static void hex_of(gm_pch_key key, char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)key.h[0], (unsigned long long)key.h[1]);
}

static char *entry_file(gm_pch_key key, const char *suffix) {
  char hex[33];
  hex_of(key, hex);
  return gm_xasprintf("%s/%s%s", store.dir, hex, suffix);
}

static void warn(const char *what, FILE *msg) {
  int err = errno;
  if (!store.warned++)
    fprintf(msg ? msg : stderr,
            GM_PROGRAM ": warning: cannot %s the preamble store in %s: %s (--no-pch-store turns it "
                       "off)\n",
            what, store.dir, strerror(err));
}

static void remember_used(gm_pch_key key) {
  char hex[33];
  hex_of(key, hex);
  pthread_mutex_lock(&store.lock);
  if (!gm_str_vec_has(&store.used, hex))
    GM_PUSH(store.used, gm_xstrdup(hex));
  pthread_mutex_unlock(&store.lock);
}

/* The PCH's size and hash, read through once; 0 unless it is a regular file. */
static int pch_digest(const char *path, uint64_t *size, uint64_t h[2]) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return 0;
  struct stat st;
  int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  h[0] = 0x736f6d6570736575ULL, h[1] = 0x646f72616e646f6dULL;
  enum { CHUNK = 1 << 20 };
  char *buf = ok ? gm_xmalloc(CHUNK) : NULL;
  uint64_t total = 0;
  while (ok) {
    size_t got = 0;
    ssize_t r = 1;
    while (got < CHUNK && r > 0) { /* whole chunks, so that the hash does not depend on reads */
      r = read(fd, buf + got, CHUNK - got);
      if (r > 0)
        got += (size_t)r;
      else if (r < 0 && errno == EINTR)
        r = 1;
      else if (r < 0)
        ok = 0;
    }
    hash_bytes(h, buf, got);
    total += got;
    if (got < CHUNK)
      break;
  }
  free(buf);
  close(fd);
  *size = total;
  return ok;
}

typedef struct file_stamp {
  uint64_t size;
  int64_t sec, nsec;
} file_stamp;

static int stamp_of(const char *path, file_stamp *out) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  *out =
      (file_stamp){(uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec};
  return 1;
}

/* ---- the manifest: MANIFEST_MAGIC, then lines, then the hash of all before it:
 *   key HEX
 *   pch NAME SIZE HASH
 *   source SIZE SEC NSEC PATH  (the name clang was given, which the PCH records and reads
 *                               on every use: a store moved or copied elsewhere names another)
 *   below SIZE SEC NSEC PATH  (or "below -"; clang refuses a chained PCH whose base is
 *                              another file, even one of the same bytes)
 *   dep SIZE SEC NSEC PATH  (one per file the preamble read)
 *   sum HASH
 * Paths run to the end of their line: a path with a newline is never stored. ---- */

static void sum_line(gm_strbuf *sb) {
  uint64_t h[2] = {0, 0};
  hash_bytes(h, sb->data, sb->len);
  gm_sb_printf(sb, "sum %016llx%016llx\n", (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* The manifest's text with its sum checked, its sum line cut off; NULL when bad. */
static char *read_manifest(const char *path) {
  size_t len = 0;
  char *text = gm_read_regular(path, MAX_MANIFEST_BYTES, &len);
  if (!text)
    return NULL;
  char *last = NULL;
  for (char *p = text; p < text + len; p++)
    if (*p == '\n' && p + 1 < text + len)
      last = p + 1;
  int ok = last && strncmp(text, MANIFEST_MAGIC, strlen(MANIFEST_MAGIC)) == 0 &&
           text[len - 1] == '\n' && strlen(text) == len;
  if (ok) {
    gm_strbuf sb = {0};
    gm_sb_appendn(&sb, text, (size_t)(last - text));
    sum_line(&sb);
    ok = strcmp(sb.data + (last - text), last) == 0;
    free(sb.data);
    *last = 0;
  }
  if (!ok) {
    free(text);
    return NULL;
  }
  return text;
}

/* The name of the PCH a manifest's "pch" line names: a file of the store, never a path. */
static char *pch_name_of_line(const char *p) {
  size_t n = strcspn(p, " \n");
  char *name = gm_xmalloc(n + 1);
  memcpy(name, p, n);
  name[n] = 0;
  return strchr(name, '/') || !n ? (free(name), NULL) : name;
}

/* The PCH a manifest's chained preamble was built on; NULL for a base. */
static char *manifest_below(const char *text) {
  const char *p = strstr(text, "\nbelow ");
  int at = 0;
  unsigned long long size;
  long long sec, nsec;
  if (!p || sscanf(p + 7, "%llu %lld %lld %n", &size, &sec, &nsec, &at) != 3)
    return NULL;
  size_t n = strcspn(p + 7 + at, "\n");
  char *path = gm_xmalloc(n + 1);
  memcpy(path, p + 7 + at, n);
  path[n] = 0;
  return path;
}

/* The PCH a whole manifest names. */
static char *manifest_pch_name(const char *text) {
  const char *p = strstr(text, "\npch ");
  return p ? pch_name_of_line(p + 5) : NULL;
}

char *gm_pch_store_find(gm_pch_key key, const char *below_path, gm_str_vec *includes) {
  if (!store.on)
    return NULL;
  char *dep_path = entry_file(key, ".dep"), *src = entry_file(key, ".cu");
  char *text = read_manifest(dep_path);
  char *pch = NULL;
  gm_str_vec found = {0};
  char hex[33];
  hex_of(key, hex);
  int ok = text != NULL;
  char *save = NULL;
  for (char *line = text ? strtok_r(text + strlen(MANIFEST_MAGIC), "\n", &save) : NULL; line && ok;
       line = strtok_r(NULL, "\n", &save)) {
    file_stamp want = {0}, now;
    int at = 0;
    unsigned long long size = 0, h0 = 0, h1 = 0;
    long long sec = 0, nsec = 0;
    if (strncmp(line, "key ", 4) == 0) {
      ok = strcmp(line + 4, hex) == 0;
    } else if (strncmp(line, "pch ", 4) == 0) {
      char *name = pch_name_of_line(line + 4);
      char *sp = strchr(line + 4, ' ');
      ok = name && sp && sscanf(sp, " %llu %16llx%16llx%n", &size, &h0, &h1, &at) == 3 && !sp[at];
      if (ok) {
        pch = gm_xasprintf("%s/%s", store.dir, name);
        uint64_t got_size, got[2];
        ok = pch_digest(pch, &got_size, got) && got_size == size && got[0] == h0 && got[1] == h1;
      }
      free(name);
    } else if (strncmp(line, "source ", 7) == 0) {
      ok = sscanf(line + 7, "%llu %lld %lld %n", &size, &sec, &nsec, &at) == 3 &&
           strcmp(line + 7 + at, src) == 0;
      want = (file_stamp){size, sec, nsec};
      ok = ok && stamp_of(src, &now) && memcmp(&want, &now, sizeof want) == 0;
    } else if (strncmp(line, "below ", 6) == 0) {
      if (!below_path) {
        ok = strcmp(line + 6, "-") == 0;
      } else {
        ok = sscanf(line + 6, "%llu %lld %lld %n", &size, &sec, &nsec, &at) == 3 &&
             strcmp(line + 6 + at, below_path) == 0;
        want = (file_stamp){size, sec, nsec};
        ok = ok && stamp_of(below_path, &now) && memcmp(&want, &now, sizeof want) == 0;
      }
    } else if (strncmp(line, "dep ", 4) == 0) {
      ok = sscanf(line + 4, "%llu %lld %lld %n", &size, &sec, &nsec, &at) == 3 && line[4 + at];
      want = (file_stamp){size, sec, nsec};
      /* the very check clang leaves out for system headers */
      ok = ok && stamp_of(line + 4 + at, &now) && memcmp(&want, &now, sizeof want) == 0;
      if (ok)
        GM_PUSH(found, gm_xstrdup(line + 4 + at));
    } else {
      ok = 0;
    }
  }
  ok = ok && pch;
  if (ok) {
    for (size_t i = 0; i < found.len; i++)
      GM_PUSH(*includes, found.items[i]);
    found.len = 0;
    utimensat(AT_FDCWD, dep_path, NULL, 0); /* its last use, for eviction; a read-only store: no */
    remember_used(key);
    store.reused++;
  } else {
    free(pch);
    pch = NULL;
  }
  for (size_t i = 0; i < found.len; i++)
    free(found.items[i]);
  GM_VEC_FREE(found);
  free(text);
  free(dep_path);
  free(src);
  return pch;
}

/* ---- building and publishing ---- */

static char *temp_name(const char *path) {
  return gm_xasprintf("%s.tmp.%d.%u", path, (int)getpid(), atomic_fetch_add(&store.counter, 1));
}

/* Makes path hold text, once: a file that holds it already stays as it is (clang checks its
 * time on every use of the PCH built from it). */
static int publish_source(const char *path, const char *text) {
  size_t len = 0;
  char *there = gm_read_regular(path, 1 << 20, &len);
  int same = there && len == strlen(text) && memcmp(there, text, len) == 0;
  free(there);
  if (same)
    return 1;
  char *tmp = temp_name(path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  int ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
  ok = fd >= 0 && close(fd) == 0 && ok;
  if (ok && link(tmp, path) != 0) {
    /* another run's, the same text unless damaged: a damaged one goes (its PCHs fail their
     * check) and ours takes its place */
    there = gm_read_regular(path, 1 << 20, &len);
    same = there && len == strlen(text) && memcmp(there, text, len) == 0;
    free(there);
    if (!same) {
      unlink(path);
      ok = link(tmp, path) == 0;
    }
  }
  int err = errno;
  unlink(tmp);
  free(tmp);
  errno = err;
  return ok;
}

int gm_pch_store_prepare(gm_pch_key key, const char *text, char **source, char **temp, FILE *msg) {
  if (!store.on)
    return 0;
  char *src = entry_file(key, ".cu");
  if (!gm_mkdirs(store.dir) || !publish_source(src, text)) {
    warn("write", msg);
    free(src);
    return 0;
  }
  /* an older manifest of the key (its headers changed since) counts as used now: another run
   * evicting it would take the source this build reads */
  char *dep = entry_file(key, ".dep");
  utimensat(AT_FDCWD, dep, NULL, 0);
  free(dep);
  char *pch = entry_file(key, ".pch");
  *temp = temp_name(pch);
  free(pch);
  *source = src;
  return 1;
}

char *gm_pch_store_publish(gm_pch_key key, const char *temp, const char *source,
                           const char *below_path, const gm_str_vec *includes) {
  uint64_t size, h[2];
  file_stamp src;
  if (!pch_digest(temp, &size, h) || !stamp_of(source, &src))
    return NULL;
  char hex[33];
  hex_of(key, hex);
  char *pch = gm_xasprintf("%s/%s-%016llx%016llx.pch", store.dir, hex, (unsigned long long)h[0],
                           (unsigned long long)h[1]);
  /* a PCH of these very bytes may be there already (another run's): it is as good as ours,
   * unless it was damaged since (a run that reads it would then fail its check anyway) */
  int published = link(temp, pch) == 0;
  if (!published && errno == EEXIST) {
    uint64_t there_size, there[2];
    published = (pch_digest(pch, &there_size, there) && there_size == size && there[0] == h[0] &&
                 there[1] == h[1]) ||
                rename(temp, pch) == 0;
  }
  if (!published) {
    warn("write", NULL);
    free(pch);
    return NULL;
  }
  unlink(temp);
  gm_strbuf sb = {0};
  gm_sb_append(&sb, MANIFEST_MAGIC);
  gm_sb_printf(&sb, "key %s\n", hex);
  gm_sb_printf(&sb, "pch %s %llu %016llx%016llx\n", strrchr(pch, '/') + 1, (unsigned long long)size,
               (unsigned long long)h[0], (unsigned long long)h[1]);
  gm_sb_printf(&sb, "source %llu %lld %lld %s\n", (unsigned long long)src.size, (long long)src.sec,
               (long long)src.nsec, source);
  file_stamp below = {0};
  int ok = !strchr(source, '\n') &&
           (!below_path || (!strchr(below_path, '\n') && stamp_of(below_path, &below)));
  if (below_path)
    gm_sb_printf(&sb, "below %llu %lld %lld %s\n", (unsigned long long)below.size,
                 (long long)below.sec, (long long)below.nsec, below_path);
  else
    gm_sb_append(&sb, "below -\n");
  for (size_t i = 0; includes && i < includes->len && ok; i++) {
    file_stamp st = {0};
    ok = !strchr(includes->items[i], '\n') && stamp_of(includes->items[i], &st);
    gm_sb_printf(&sb, "dep %llu %lld %lld %s\n", (unsigned long long)st.size, (long long)st.sec,
                 (long long)st.nsec, includes->items[i]);
  }
  sum_line(&sb);
  char *dep_path = entry_file(key, ".dep");
  gm_atomic_file f;
  if (ok && gm_atomic_open(&f, dep_path, "w"))
    ok = gm_atomic_commit(&f, fwrite(sb.data, 1, sb.len, f.out) == sb.len);
  else
    ok = 0;
  if (ok) {
    remember_used(key);
    store.stored++;
  } else {
    warn("write", NULL);
  }
  free(dep_path);
  free(sb.data);
  return pch; /* usable by this run even when the manifest could not be written */
}

void gm_pch_store_drop(gm_pch_key key, const char *pch) {
  if (!store.on || !pch)
    return;
  char *dep_path = entry_file(key, ".dep");
  char *text = read_manifest(dep_path);
  char *name = text ? manifest_pch_name(text) : NULL;
  const char *slash = strrchr(pch, '/');
  /* the PCH and source stay for this run's other readers; a later eviction takes them */
  if (name && strcmp(name, slash ? slash + 1 : pch) == 0 && unlink(dep_path) == 0)
    store.dropped++;
  free(name);
  free(text);
  free(dep_path);
}

/* ---- eviction ---- */

typedef struct stored_entry {
  char hex[33];
  int64_t used; /* the manifest's time, in nanoseconds */
  uint64_t bytes;
  char *pch;   /* the file the manifest names */
  char *below; /* the PCH it was built on, NULL for a base */
  int gone;
} stored_entry;

typedef GM_VEC(stored_entry) stored_entries;

static int older(const void *a, const void *b) {
  const stored_entry *x = a, *y = b;
  return x->used < y->used ? -1 : x->used > y->used;
}

static void remove_entry(const stored_entry *e) {
  char *dep = gm_xasprintf("%s/%s.dep", store.dir, e->hex);
  char *src = gm_xasprintf("%s/%s.cu", store.dir, e->hex);
  unlink(dep); /* first: a run that looks it up now sees a miss, never half an entry */
  if (e->pch) {
    char *pch = gm_xasprintf("%s/%s", store.dir, e->pch);
    unlink(pch);
    free(pch);
  }
  unlink(src);
  free(dep);
  free(src);
  store.evicted++;
}

/* Whether a file of the store is named by no manifest: a temporary, or a PCH or source whose
 * entry is gone or names another. */
static int is_leftover(const char *name, const stored_entries *entries) {
  if (strstr(name, ".tmp."))
    return 1;
  size_t n = strlen(name);
  if (n < 4 || (strcmp(name + n - 3, ".cu") != 0 && strcmp(name + n - 4, ".pch") != 0))
    return 0;
  for (size_t i = 0; i < entries->len; i++) {
    const stored_entry *e = &entries->items[i];
    if (strncmp(name, e->hex, 32) == 0 &&
        (strcmp(name + 32, ".cu") == 0 || (e->pch && strcmp(name, e->pch) == 0)))
      return 0;
  }
  return 1;
}

static void evict(void) {
  DIR *d = opendir(store.dir);
  if (!d)
    return;
  stored_entries entries = {0};
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t n = strlen(de->d_name);
    if (n != 36 || strcmp(de->d_name + 32, ".dep") != 0)
      continue;
    char *path = gm_xasprintf("%s/%s", store.dir, de->d_name);
    struct stat st = {0};
    char *text = lstat(path, &st) == 0 && S_ISREG(st.st_mode) ? read_manifest(path) : NULL;
    stored_entry e = {.used = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec,
                      .bytes = (uint64_t)st.st_size};
    memcpy(e.hex, de->d_name, 32);
    e.pch = text ? manifest_pch_name(text) : NULL;
    e.below = text ? manifest_below(text) : NULL;
    if (!text) /* damaged: its files go, as leftovers */
      unlink(path);
    else
      GM_PUSH(entries, e);
    free(text);
    free(path);
  }
  /* every file counts towards the bound; a leftover old enough goes first */
  uint64_t total = 0;
  time_t now = time(NULL);
  rewinddir(d);
  while ((de = readdir(d))) {
    char *path = gm_xasprintf("%s/%s", store.dir, de->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      if (is_leftover(de->d_name, &entries) && now - st.st_mtim.tv_sec > LEFTOVER_SECONDS) {
        unlink(path);
      } else {
        total += (uint64_t)st.st_size;
        for (size_t i = 0; i < entries.len; i++) {
          stored_entry *e = &entries.items[i];
          if (strncmp(de->d_name, e->hex, 32) == 0 &&
              (strcmp(de->d_name + 32, ".cu") == 0 || (e->pch && strcmp(de->d_name, e->pch) == 0)))
            e->bytes += (uint64_t)st.st_size;
        }
      }
    }
    free(path);
  }
  closedir(d);
  qsort(entries.items, entries.len, sizeof *entries.items, older);
  for (size_t i = 0; i < entries.len && total > store.max_bytes; i++) {
    stored_entry *e = &entries.items[i];
    if (gm_str_vec_has(&store.used, e->hex))
      continue;
    remove_entry(e);
    e->gone = 1;
    total -= e->bytes < total ? e->bytes : total;
  }
  /* a chained preamble whose base went is of no use (its check would fail): it goes too */
  for (int again = 1; again;) {
    again = 0;
    for (size_t i = 0; i < entries.len; i++) {
      stored_entry *e = &entries.items[i];
      if (!e->gone && e->below && access(e->below, F_OK) != 0 &&
          !gm_str_vec_has(&store.used, e->hex)) {
        remove_entry(e);
        e->gone = again = 1;
      }
    }
  }
  for (size_t i = 0; i < entries.len; i++) {
    free(entries.items[i].pch);
    free(entries.items[i].below);
  }
  GM_VEC_FREE(entries);
}

void gm_pch_store_close(FILE *stats) {
  if (store.on && store.stored)
    evict();
  if (stats) {
    if (store.on && store.dropped)
      fprintf(stats,
              GM_PROGRAM ": cache: preambles: %zu reused, %zu stored, %zu evicted, %zu dropped "
                         "(%s)\n",
              (size_t)store.reused, (size_t)store.stored, (size_t)store.evicted,
              (size_t)store.dropped, store.dir);
    else if (store.on)
      fprintf(stats, GM_PROGRAM ": cache: preambles: %zu reused, %zu stored, %zu evicted (%s)\n",
              (size_t)store.reused, (size_t)store.stored, (size_t)store.evicted, store.dir);
    else
      fprintf(stats, GM_PROGRAM ": cache: preambles: off\n");
  }
  if (!store.on)
    return;
  for (size_t i = 0; i < store.used.len; i++)
    free(store.used.items[i]);
  GM_VEC_FREE(store.used);
  free(store.dir);
  store.dir = NULL;
  store.on = 0;
  store.reused = store.stored = store.evicted = store.dropped = 0;
}
