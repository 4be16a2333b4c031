#include "support/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int gm_out_of_memory_aborts;

static void out_of_memory(void) {
  fputs(GM_PROGRAM ": error: out of memory\n", stderr);
  if (gm_out_of_memory_aborts)
    abort();
  exit(2);
}

void *gm_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *gm_xcalloc(size_t count, size_t n) {
  void *p = calloc(count ? count : 1, n ? n : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *gm_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    out_of_memory();
  return q;
}

char *gm_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(gm_xmalloc(n), s, n);
}

char *gm_xvasprintf(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *s = gm_xmalloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *gm_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = gm_xvasprintf(fmt, ap);
  va_end(ap);
  return s;
}

/* Arena: a list of blocks; large requests get a block of their own. */
struct arena_block {
  struct arena_block *next;
  size_t used, size;
  max_align_t data[];
};
struct gm_arena {
  struct arena_block *head;
};

gm_arena *gm_arena_new(void) {
  return gm_xcalloc(1, sizeof(gm_arena));
}

void gm_arena_free(gm_arena *a) {
  if (!a)
    return;
  for (struct arena_block *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(a);
}

void *gm_arena_alloc(gm_arena *a, size_t n) {
  n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
  struct arena_block *b = a->head;
  if (!b || b->size - b->used < n) {
    size_t size = n > 64 * 1024 ? n : 64 * 1024;
    b = gm_xmalloc(sizeof *b + size);
    b->used = 0;
    b->size = size;
    b->next = a->head;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *gm_arena_strdup(gm_arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(gm_arena_alloc(a, n), s, n);
}

void gm_sb_appendn(gm_strbuf *sb, const char *s, size_t n) {
  if (sb->len + n + 1 > sb->cap) {
    sb->cap = (sb->len + n + 1) * 2;
    sb->data = gm_xrealloc(sb->data, sb->cap);
  }
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = 0;
}

void gm_sb_append(gm_strbuf *sb, const char *s) {
  gm_sb_appendn(sb, s, strlen(s));
}

void gm_sb_printf(gm_strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  s = gm_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  gm_sb_appendn(sb, s, (size_t)n);
  free(s);
}

char *gm_sb_take(gm_strbuf *sb) {
  char *s = sb->data ? sb->data : gm_xstrdup("");
  sb->data = NULL;
  sb->len = sb->cap = 0;
  return s;
}

char *gm_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  gm_strbuf sb = {0};
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    gm_sb_appendn(&sb, buf, n);
  int failed = ferror(f);
  int saved = errno;
  fclose(f);
  if (failed) {
    free(sb.data);
    errno = saved ? saved : EIO;
    return NULL;
  }
  if (len)
    *len = sb.len;
  return gm_sb_take(&sb);
}

/* FNV-1a, 64 bit: stable across runs and machines, which fingerprints need. */
uint64_t gm_hash64(const void *data, size_t n, uint64_t seed) {
  const unsigned char *p = data;
  uint64_t h = 1469598103934665603ULL ^ seed;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  if (s[0] < 0x80)
    return 1;
  size_t len;
  unsigned min;
  unsigned cp;
  if ((s[0] & 0xE0) == 0xC0)
    len = 2, min = 0x80, cp = s[0] & 0x1F;
  else if ((s[0] & 0xF0) == 0xE0)
    len = 3, min = 0x800, cp = s[0] & 0x0F;
  else if ((s[0] & 0xF8) == 0xF0)
    len = 4, min = 0x10000, cp = s[0] & 0x07;
  else
    return 0;
  if (len > n)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

int gm_utf8_valid(const char *s, size_t n, size_t *bad_offset) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    size_t k = utf8_seq(p + i, n - i);
    if (!k) {
      if (bad_offset)
        *bad_offset = i;
      return 0;
    }
    i += k;
  }
  return 1;
}

char *gm_utf8_sanitize(const char *s) {
  gm_strbuf sb = {0};
  const unsigned char *p = (const unsigned char *)s;
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    size_t k = utf8_seq(p + i, n - i);
    if (k) {
      gm_sb_appendn(&sb, (const char *)p + i, k);
      i += k;
    } else {
      gm_sb_append(&sb, "\xEF\xBF\xBD");
      i++;
    }
  }
  return gm_sb_take(&sb);
}

int gm_str_vec_has(const gm_str_vec *v, const char *s) {
  for (size_t i = 0; i < v->len; i++)
    if (strcmp(v->items[i], s) == 0)
      return 1;
  return 0;
}

void gm_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(GM_PROGRAM ": error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static int by_key_then_index(const void *a, const void *b, void *keys) {
  char *const *k = keys;
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  int c = strcmp(k[i], k[j]);
  return c ? c : i < j ? -1 : 1;
}

char *gm_mark_repeats(char *const *keys, size_t n) {
  size_t *order = gm_xcalloc(n + 1, sizeof *order);
  char *repeated = gm_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  qsort_r(order, n, sizeof *order, by_key_then_index, (void *)keys);
  for (size_t i = 1; i < n; i++)
    repeated[order[i]] = strcmp(keys[order[i]], keys[order[i - 1]]) == 0;
  free(order);
  return repeated;
}

int gm_parse_size(const char *s, uint64_t *out) {
  char *end = NULL;
  if (!s || *s < '0' || *s > '9')
    return 0;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return 0;
  int shift = 0;
  if (*end) {
    const char *units = "KMGT", *u = strchr(units, *end >= 'a' ? *end - 32 : *end);
    if (!u || !*u || end[1])
      return 0;
    shift = 10 * (int)(u - units + 1);
  }
  if (shift && v > (UINT64_MAX >> shift))
    return 0;
  *out = (uint64_t)v << shift;
  return 1;
}
