/* Small shared helpers: checked allocation, an arena per analysed file, growable arrays and
 * string building. Everything the analyzer builds for one file lives in that file's arena, so a
 * file's model is released in one call whatever path the analysis took. */
#ifndef GM_UTIL_H
#define GM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define GM_PROGRAM "gmemlint"

void *gm_xmalloc(size_t n);
void *gm_xcalloc(size_t count, size_t n);
void *gm_xrealloc(void *p, size_t n);
/* Set: running out of memory aborts (a signal a supervising process sees, driver/supervise.h);
 * otherwise it exits with status 2. Either way after "gmemlint: error: out of memory". */
extern int gm_out_of_memory_aborts;
char *gm_xstrdup(const char *s);
/* Parses a size: digits and an optional K, M, G or T (powers of 1024, either case), e.g. 500M
 * or 2G. Returns 0 for anything else or a size past 2^64. */
int gm_parse_size(const char *s, uint64_t *out);
char *gm_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *gm_xvasprintf(const char *fmt, va_list ap);
/* "gmemlint: error: <message>" and a newline, on standard error. */
void gm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Growable array of any element type: `GM_VEC(int) v = {0}; GM_PUSH(v, 3);` */
#define GM_VEC(T)                                                                                  \
  struct {                                                                                         \
    T *items;                                                                                      \
    size_t len, cap;                                                                               \
  }
#define GM_PUSH(v, x)                                                                              \
  do {                                                                                             \
    if ((v).len == (v).cap) {                                                                      \
      (v).cap = (v).cap ? (v).cap * 2 : 8;                                                         \
      (v).items = gm_xrealloc((v).items, (v).cap * sizeof *(v).items);                             \
    }                                                                                              \
    (v).items[(v).len++] = (x);                                                                    \
  } while (0)
typedef GM_VEC(char *) gm_str_vec;
/* Whether v holds a string equal to s. */
int gm_str_vec_has(const gm_str_vec *v, const char *s);
/* For each of keys[0..n), 1 when an earlier key is the same string: the first of each is kept.
 * The caller frees the array. Sorting an index keeps it n log n for long file lists. */
char *gm_mark_repeats(char *const *keys, size_t n);

#define GM_VEC_FREE(v) (free((v).items), (v).items = NULL, (v).len = (v).cap = 0)

typedef struct gm_arena gm_arena;
gm_arena *gm_arena_new(void);
void gm_arena_free(gm_arena *a);
void *gm_arena_alloc(gm_arena *a, size_t n); /* zeroed */
char *gm_arena_strdup(gm_arena *a, const char *s);

typedef struct {
  char *data;
  size_t len, cap;
} gm_strbuf;
void gm_sb_append(gm_strbuf *sb, const char *s);
void gm_sb_appendn(gm_strbuf *sb, const char *s, size_t n);
void gm_sb_printf(gm_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *gm_sb_take(gm_strbuf *sb); /* returns the malloc'd string, leaves sb empty */

/* Reads a whole file; returns NULL and sets errno on failure. */
char *gm_read_file(const char *path, size_t *len);
uint64_t gm_hash64(const void *data, size_t n, uint64_t seed);

/* Valid UTF-8 copy of s (invalid bytes become U+FFFD), for JSON output. */
char *gm_utf8_sanitize(const char *s);
int gm_utf8_valid(const char *s, size_t n, size_t *bad_offset);

#endif
