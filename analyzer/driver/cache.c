#include "driver/cache.h"

#include "rules/rules.h"
#include "support/atomic_file.h"
#include "support/files.h"
#include "support/version.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bumped whenever the entry layout changes: older entries then fail the magic check. */
#define ENTRY_MAGIC "GMLCACH8"
#define MAGIC_LEN 8
/* Far above any real entry (a unit summary of a large file is a few MB), far below what would
 * exhaust memory: a bigger file under the cache directory is not one gmemlint wrote. */
#define MAX_ENTRY_BYTES ((off_t)256 << 20)

/* ---- MurmurHash3 x64_128 (public domain, Austin Appleby): fast, and 128 bits keep accidental
 * collisions out of reach for a cache ---- */

typedef struct digest {
  uint64_t a, b;
} digest;

static uint64_t rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

static uint64_t fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

static digest murmur(const void *data, size_t n, digest seed) {
  const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
  const unsigned char *p = data;
  uint64_t h1 = seed.a, h2 = seed.b;
  size_t blocks = n / 16;
  for (size_t i = 0; i < blocks; i++, p += 16) {
    uint64_t k1, k2;
    memcpy(&k1, p, 8);
    memcpy(&k2, p + 8, 8);
    k1 *= c1;
    k1 = rotl(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = rotl(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = rotl(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = rotl(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  unsigned char tail[16] = {0};
  size_t rest = n & 15;
  memcpy(tail, p, rest);
  uint64_t k1, k2;
  memcpy(&k1, tail, 8);
  memcpy(&k2, tail + 8, 8);
  if (rest > 8) {
    k2 *= c2;
    k2 = rotl(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  if (rest > 0) {
    k1 *= c1;
    k1 = rotl(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= n;
  h2 ^= n;
  h1 += h2;
  h2 += h1;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 += h2;
  h2 += h1;
  return (digest){h1, h2};
}

/* Folds one part into a running key; each part's length is hashed with it, so parts never run
 * together. */
static void add(digest *d, const void *data, size_t n) {
  *d = murmur(data, n, *d);
}
static void add_str(digest *d, const char *s) {
  if (s)
    add(d, s, strlen(s) + 1);
  else
    add(d, "", 0); /* distinct from "" (which hashes its NUL) */
}
static void add_u64(digest *d, uint64_t v) {
  add(d, &v, sizeof v);
}

/* ---- what identifies this gmemlint: the linker's build id (the rules, messages and the
 * built-in allocator table are all in the executable), else the executable's bytes ---- */

typedef struct build_id {
  unsigned char bytes[64];
  size_t len;
} build_id;

static int note_build_id(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  build_id *id = data;
  for (int i = 0; i < info->dlpi_phnum && !id->len; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    size_t align = ph->p_align == 8 ? 8 : 4;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      size_t name = (n->n_namesz + align - 1) & ~(align - 1);
      size_t desc = (n->n_descsz + align - 1) & ~(align - 1);
      const unsigned char *np = p + sizeof *n;
      if (np + name + n->n_descsz > end)
        break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(np, "GNU", 4) == 0 &&
          n->n_descsz <= sizeof id->bytes) {
        memcpy(id->bytes, np + name, n->n_descsz);
        id->len = n->n_descsz;
        break;
      }
      p = np + name + desc;
    }
  }
  return 1; /* the first object is the executable itself: stop there */
}

static void add_self(digest *d) {
  build_id id = {0};
  dl_iterate_phdr(note_build_id, &id);
  if (id.len) {
    add(d, id.bytes, id.len);
    return;
  }
  size_t len = 0;
  char *exe = gm_read_file("/proc/self/exe", &len);
  add(d, exe ? exe : "", exe ? len : 0);
  free(exe);
}

/* ---- file contents, hashed once per run (a header is shared by most sources) ---- */

typedef struct file_hash {
  char *path;
  int readable;
  digest d;
  struct file_hash *next;
} file_hash;

#define NBUCKETS 1024

struct gm_cache {
  char *dir;
  digest seed; /* the part of every key that is the same for the whole run */
  pthread_mutex_t lock;
  file_hash *buckets[NBUCKETS];
  atomic_size_t hits, misses, stored;
  atomic_int warned;
};

/* Hash of a file's contents; 0 when it cannot be read. */
static int file_digest(gm_cache *c, const char *path, digest *out) {
  size_t b = gm_hash64(path, strlen(path), 0) % NBUCKETS;
  pthread_mutex_lock(&c->lock);
  for (file_hash *e = c->buckets[b]; e; e = e->next)
    if (strcmp(e->path, path) == 0) {
      int ok = e->readable;
      *out = e->d;
      pthread_mutex_unlock(&c->lock);
      return ok;
    }
  pthread_mutex_unlock(&c->lock);
  /* read outside the lock; two threads may hash the same file once each, harmlessly */
  size_t len = 0;
  char *text = gm_read_file(path, &len);
  file_hash *e = gm_xcalloc(1, sizeof *e);
  e->path = gm_xstrdup(path);
  e->readable = text != NULL;
  if (text)
    e->d = murmur(text, len, (digest){0, 0});
  free(text);
  pthread_mutex_lock(&c->lock);
  e->next = c->buckets[b];
  c->buckets[b] = e;
  pthread_mutex_unlock(&c->lock);
  *out = e->d;
  return e->readable;
}

/* ---- opening ---- */

char *gm_cache_dir(const gm_options *opt) {
  if (opt->cache_dir)
    return gm_xstrdup(opt->cache_dir);
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') /* the XDG spec ignores relative paths */
    return gm_xasprintf("%s/gmemlint", xdg);
  const char *home = getenv("HOME");
  if (home && *home)
    return gm_xasprintf("%s/.cache/gmemlint", home);
  return NULL;
}

void gm_cache_identity(uint64_t out[2]) {
  digest d = {0, 0};
  add_str(&d, "gmemlint " GM_VERSION);
  add_self(&d);
  out[0] = d.a;
  out[1] = d.b;
}

gm_cache *gm_cache_open(const gm_options *opt, uint64_t only, uint64_t enabled, uint64_t disabled) {
  /* --verify and --dump-model print what only a parse knows */
  if (opt->no_cache || opt->verify || opt->dump_model)
    return NULL;
  char *dir = gm_cache_dir(opt);
  if (!dir)
    return NULL;
  gm_cache *c = gm_xcalloc(1, sizeof *c);
  c->dir = dir;
  pthread_mutex_init(&c->lock, NULL);
  digest *d = &c->seed;
  add_str(d, "gmemlint result cache " GM_VERSION);
  add_self(d);
  CXString v = clang_getClangVersion();
  add_str(d, clang_getCString(v));
  clang_disposeString(v);
  add_u64(d, (uint64_t)opt->werror);
  add_u64(d, (uint64_t)opt->latent);
  add_u64(d, (uint64_t)opt->explain);
  add_u64(d, only);
  add_u64(d, enabled);
  add_u64(d, disabled);
  /* relative names in flags and #include lines resolve against it */
  char *cwd = getcwd(NULL, 0);
  add_str(d, cwd);
  free(cwd);
  /* the include paths clang's driver takes from the environment */
  static const char *const env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"};
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
    add_str(d, getenv(env[i]));
  return c;
}

void gm_cache_close(gm_cache *c, const gm_options *opt) {
  if (opt->cache_stats) {
    if (c)
      fprintf(stderr, GM_PROGRAM ": cache: %zu hit(s), %zu miss(es), %zu stored (%s)\n",
              (size_t)c->hits, (size_t)c->misses, (size_t)c->stored, c->dir);
    else
      fprintf(stderr, GM_PROGRAM ": cache: off\n");
  }
  if (!c)
    return;
  for (size_t b = 0; b < NBUCKETS; b++)
    for (file_hash *e = c->buckets[b], *next; e; e = next) {
      next = e->next;
      free(e->path);
      free(e);
    }
  pthread_mutex_destroy(&c->lock);
  free(c->dir);
  free(c);
}

gm_cache_key gm_cache_key_for(gm_cache *c, const char *path, const char *text, size_t len,
                              const char *const *args, size_t nargs, const char *config_path) {
  digest d = c->seed;
  add_str(&d, path);
  add(&d, text, len);
  add_u64(&d, nargs);
  for (size_t i = 0; i < nargs; i++)
    add_str(&d, args[i]);
  add_str(&d, config_path);
  if (config_path) {
    digest cd = {0, 0};
    int readable = file_digest(c, config_path, &cd);
    add_u64(&d, (uint64_t)readable);
    add(&d, &cd, sizeof cd);
  }
  return (gm_cache_key){{d.a, d.b}};
}

gm_cache_key gm_cache_key_mix(gm_cache_key key, const char *text) {
  digest d = {key.h[0], key.h[1]};
  add_str(&d, text);
  return (gm_cache_key){{d.a, d.b}};
}

static char *entry_path(const gm_cache *c, const gm_cache_key *key, char **subdir) {
  char hex[33];
  snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)key->h[0],
           (unsigned long long)key->h[1]);
  if (subdir)
    *subdir = gm_xasprintf("%s/%.2s", c->dir, hex);
  return gm_xasprintf("%s/%.2s/%s", c->dir, hex, hex + 2);
}

/* ---- the entry: ENTRY_MAGIC, the key it was stored under (so that an entry copied or renamed
 * to another key's place is a miss, not another file's findings), then length-prefixed fields,
 * then a hash of all before it ---- */

static void put_u32(gm_strbuf *sb, uint32_t v) {
  gm_sb_appendn(sb, (const char *)&v, sizeof v);
}
static void put_u64(gm_strbuf *sb, uint64_t v) {
  gm_sb_appendn(sb, (const char *)&v, sizeof v);
}
static void put_bytes(gm_strbuf *sb, const char *s, size_t n) {
  put_u32(sb, (uint32_t)n);
  gm_sb_appendn(sb, s, n);
}
static void put_str(gm_strbuf *sb, const char *s) {
  if (!s)
    put_u32(sb, UINT32_MAX);
  else
    put_bytes(sb, s, strlen(s));
}

typedef struct reader {
  const char *p;
  size_t left;
  int bad;
} reader;

static int take(reader *r, void *out, size_t n) {
  if (r->bad || r->left < n) {
    r->bad = 1;
    memset(out, 0, n);
    return 0;
  }
  memcpy(out, r->p, n);
  r->p += n;
  r->left -= n;
  return 1;
}
static uint32_t get_u32(reader *r) {
  uint32_t v;
  take(r, &v, sizeof v);
  return v;
}
static uint64_t get_u64(reader *r) {
  uint64_t v;
  take(r, &v, sizeof v);
  return v;
}
/* A malloc'd copy (NUL-terminated); NULL for a stored NULL or when the entry is bad. */
static char *get_str(reader *r, size_t *len) {
  uint32_t n = get_u32(r);
  if (r->bad || n == UINT32_MAX || n > r->left) {
    if (n != UINT32_MAX)
      r->bad = 1;
    return NULL;
  }
  char *s = gm_xmalloc((size_t)n + 1);
  memcpy(s, r->p, n);
  s[n] = 0;
  r->p += n;
  r->left -= n;
  if (len)
    *len = n;
  return s;
}
/* A string the entry must have (not NULL). */
static char *get_req(reader *r) {
  char *s = get_str(r, NULL);
  if (!s)
    r->bad = 1;
  return s;
}

static void put_finding(gm_strbuf *sb, const gm_finding *f) {
  put_str(sb, f->rule->id);
  put_str(sb, f->loc.file);
  put_u32(sb, f->loc.line);
  put_u32(sb, f->loc.col);
  put_str(sb, f->function);
  put_str(sb, f->message);
  put_str(sb, f->fingerprint);
  put_u32(sb, (uint32_t)f->error);
  put_u32(sb, (uint32_t)f->level);
  put_u32(sb, (uint32_t)f->path);
  put_str(sb, f->site.file);
  put_u32(sb, f->site.line);
  put_u32(sb, f->site.col);
  put_str(sb, f->copy_site.file);
  put_u32(sb, f->copy_site.line);
  put_u32(sb, f->copy_site.col);
  put_u32(sb, (uint32_t)f->nrelated);
  for (int i = 0; i < f->nrelated; i++) {
    put_str(sb, f->related[i].loc.file);
    put_u32(sb, f->related[i].loc.line);
    put_u32(sb, f->related[i].loc.col);
    put_str(sb, f->related[i].message);
  }
  put_u32(sb, (uint32_t)f->nfixits);
  for (int i = 0; i < f->nfixits; i++) {
    put_str(sb, f->fixits[i].file);
    put_u32(sb, f->fixits[i].offset);
    put_u32(sb, f->fixits[i].length);
    put_str(sb, f->fixits[i].text);
  }
}

static void put_notice(gm_strbuf *sb, const gm_notice *n) {
  put_str(sb, n->kind);
  put_str(sb, n->loc.file);
  put_u32(sb, n->loc.line);
  put_u32(sb, n->loc.col);
  put_str(sb, n->function);
  put_str(sb, n->message);
  put_str(sb, n->rule_id); /* NULL (none) but for "suppressed" */
  put_str(sb, n->reason);
}

/* Counts read from an entry are checked against what is left of it, so a corrupt count cannot
 * ask for a huge allocation. */
static int get_count(reader *r, size_t min_item_size) {
  uint32_t n = get_u32(r);
  if (r->bad || (uint64_t)n * min_item_size > r->left) {
    r->bad = 1;
    return 0;
  }
  return (int)n;
}

static void get_finding(reader *r, gm_finding *f) {
  memset(f, 0, sizeof *f);
  char *id = get_req(r);
  f->rule = id ? gm_rule_find(id) : NULL;
  if (!f->rule)
    r->bad = 1;
  free(id);
  f->loc.file = get_str(r, NULL);
  f->loc.line = get_u32(r);
  f->loc.col = get_u32(r);
  f->function = get_req(r);
  f->message = get_req(r);
  f->fingerprint = get_str(r, NULL);
  f->error = (int)get_u32(r);
  uint32_t level = get_u32(r), path = get_u32(r);
  if (level > GM_LEVEL_NOTE || path > GM_PATH_ERROR)
    r->bad = 1;
  f->level = (gm_level)level;
  f->path = (gm_path_kind)path;
  f->site.file = get_str(r, NULL);
  f->site.line = get_u32(r);
  f->site.col = get_u32(r);
  f->copy_site.file = get_str(r, NULL);
  f->copy_site.line = get_u32(r);
  f->copy_site.col = get_u32(r);
  int n = get_count(r, 4 * sizeof(uint32_t));
  if (n) {
    f->related = gm_xcalloc((size_t)n, sizeof *f->related);
    for (; f->nrelated < n && !r->bad; f->nrelated++) {
      gm_related *rel = &f->related[f->nrelated];
      rel->loc.file = get_str(r, NULL);
      rel->loc.line = get_u32(r);
      rel->loc.col = get_u32(r);
      rel->message = get_req(r);
    }
  }
  n = get_count(r, 4 * sizeof(uint32_t));
  if (n) {
    f->fixits = gm_xcalloc((size_t)n, sizeof *f->fixits);
    for (; f->nfixits < n && !r->bad; f->nfixits++) {
      gm_fixit *x = &f->fixits[f->nfixits];
      x->file = get_req(r);
      x->offset = get_u32(r);
      x->length = get_u32(r);
      x->text = get_req(r);
    }
  }
}

static void get_notice(reader *r, gm_notice *n) {
  memset(n, 0, sizeof *n);
  n->kind = get_req(r);
  n->loc.file = get_req(r);
  n->loc.line = get_u32(r);
  n->loc.col = get_u32(r);
  n->function = get_req(r);
  n->message = get_req(r);
  n->rule_id = get_str(r, NULL);
  n->reason = get_str(r, NULL);
}

int gm_cache_load(gm_cache *c, const gm_cache_key *key, const char *source, gm_report *report,
                  gm_unit **unit, FILE *msg) {
  char *path = entry_path(c, key, NULL);
  size_t len = 0;
  char *data = gm_read_regular(path, MAX_ENTRY_BYTES, &len);
  free(path);
  int hit = 0;
  gm_report found = {0};
  char *messages = NULL, *unit_text = NULL;
  size_t messages_len = 0;
  gm_unit *found_unit = NULL;
  if (!data || len < MAGIC_LEN + sizeof key->h + sizeof(digest) ||
      memcmp(data, ENTRY_MAGIC, MAGIC_LEN) != 0 ||
      memcmp(data + MAGIC_LEN, key->h, sizeof key->h) != 0)
    goto out;
  digest sum = murmur(data, len - sizeof sum, (digest){0, 0}), stored;
  memcpy(&stored, data + len - sizeof stored, sizeof stored);
  if (sum.a != stored.a || sum.b != stored.b)
    goto out; /* torn or corrupt: a miss, and the store that follows replaces it */
  size_t head = MAGIC_LEN + sizeof key->h;
  reader r = {data + head, len - head - sizeof sum, 0};
  int ndeps = get_count(&r, sizeof(uint32_t) + sizeof(digest));
  for (int i = 0; i < ndeps && !r.bad; i++) {
    char *dep = get_req(&r);
    digest want, now;
    want.a = get_u64(&r);
    want.b = get_u64(&r);
    int same = dep && !r.bad && file_digest(c, dep, &now) && now.a == want.a && now.b == want.b;
    free(dep);
    if (!same)
      goto out;
  }
  messages = get_str(&r, &messages_len);
  int nfindings = get_count(&r, 10 * sizeof(uint32_t));
  for (int i = 0; i < nfindings && !r.bad; i++) {
    gm_finding f;
    get_finding(&r, &f);
    GM_PUSH(found.findings, f); /* pushed even when bad, so that it is freed below */
  }
  int nnotices = get_count(&r, 8 * sizeof(uint32_t));
  for (int i = 0; i < nnotices && !r.bad; i++) {
    gm_notice n;
    get_notice(&r, &n);
    GM_PUSH(found.notices, n);
  }
  unit_text = get_str(&r, NULL);
  if (r.bad || r.left != 0 || !unit_text ||
      (*unit_text && !(found_unit = gm_unit_from_json(unit_text, source))))
    goto out;
  *unit = found_unit;
  found_unit = NULL;
  for (size_t i = 0; i < found.findings.len; i++)
    GM_PUSH(report->findings, found.findings.items[i]);
  GM_VEC_FREE(found.findings);
  for (size_t i = 0; i < found.notices.len; i++)
    GM_PUSH(report->notices, found.notices.items[i]);
  GM_VEC_FREE(found.notices);
  if (messages_len)
    fwrite(messages, 1, messages_len, msg);
  hit = 1;
out:
  gm_report_clear(&found);
  gm_unit_free(found_unit);
  free(messages);
  free(unit_text);
  free(data);
  if (hit)
    c->hits++;
  else
    c->misses++;
  return hit;
}

static void add_deps(gm_cache *c, gm_strbuf *sb, const gm_str_vec *files, uint32_t *n, int *ok) {
  for (size_t i = 0; files && i < files->len && *ok; i++) {
    digest d;
    /* a file the parse read but that cannot be read now could not be checked on a hit */
    *ok = file_digest(c, files->items[i], &d);
    put_str(sb, files->items[i]);
    put_u64(sb, d.a);
    put_u64(sb, d.b);
    ++*n;
  }
}

void gm_cache_store(gm_cache *c, const gm_cache_key *key, const gm_str_vec *includes,
                    const gm_str_vec *more, const gm_report *report, const gm_unit *unit,
                    const char *messages, size_t messages_len, FILE *msg) {
  gm_strbuf sb = {0};
  gm_sb_appendn(&sb, ENTRY_MAGIC, MAGIC_LEN);
  gm_sb_appendn(&sb, (const char *)key->h, sizeof key->h);
  size_t count_at = sb.len;
  uint32_t ndeps = 0;
  int ok = 1;
  put_u32(&sb, 0); /* patched below */
  add_deps(c, &sb, includes, &ndeps, &ok);
  add_deps(c, &sb, more, &ndeps, &ok);
  if (!ok) {
    free(sb.data);
    return;
  }
  memcpy(sb.data + count_at, &ndeps, sizeof ndeps);
  put_bytes(&sb, messages ? messages : "", messages_len);
  put_u32(&sb, (uint32_t)report->findings.len);
  for (size_t i = 0; i < report->findings.len; i++)
    put_finding(&sb, &report->findings.items[i]);
  put_u32(&sb, (uint32_t)report->notices.len);
  for (size_t i = 0; i < report->notices.len; i++)
    put_notice(&sb, &report->notices.items[i]);
  char *unit_text = unit ? gm_unit_to_json(unit) : NULL;
  put_str(&sb, unit_text ? unit_text : "");
  free(unit_text);
  digest sum = murmur(sb.data, sb.len, (digest){0, 0});
  gm_sb_appendn(&sb, (const char *)&sum, sizeof sum);

  char *subdir = NULL;
  char *path = entry_path(c, key, &subdir);
  /* only gmemlint's own regular files live here: whatever else took an entry's place (a FIFO,
   * a symlink) goes, so that the rename replaces it instead of writing through it */
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
    unlink(path);
  gm_atomic_file f;
  int written = gm_mkdirs(subdir) && gm_atomic_open(&f, path, "wb");
  if (written)
    written = gm_atomic_commit(&f, fwrite(sb.data, 1, sb.len, f.out) == sb.len);
  if (written) {
    c->stored++;
  } else if (!c->warned++) {
    fprintf(msg,
            GM_PROGRAM ": warning: cannot write the result cache in %s: %s (--no-cache "
                       "turns it off)\n",
            c->dir, strerror(errno));
  }
  free(path);
  free(subdir);
  free(sb.data);
}
