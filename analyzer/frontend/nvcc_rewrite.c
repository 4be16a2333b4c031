/* The lexical rewrites of nvcc-only syntax (nvcc_rewrite.h). A scanner of bytes, not a
 * tokenizer: it skips comments and literals, and gives up on a construct it cannot prove to be
 * the shape it rewrites, which then keeps clang's error. */
#include "frontend/nvcc_rewrite.h"

#include <stdlib.h>
#include <string.h>

const char gm_nvcc_rewrite_text[] =
    "#pragma clang system_header\n"
    "#if defined(__cplusplus) && defined(__CUDA__)\n"
    "struct gm_nvcc_dim3 { ::dim3 gm_nvcc_then; };\n"
    "#define gm_nvcc_then(...) gm_nvcc_then, ::dim3(__VA_ARGS__)\n"
    "#define $(...) ::gm_nvcc_dim3{::dim3(__VA_ARGS__)}.gm_nvcc_then\n"
    "#endif\n";

const char gm_nvcc_gnu_keywords_text[] = "#pragma clang system_header\n"
                                         "#define typeof __typeof__\n";

typedef struct scan {
  char *s;
  size_t len;
} scan;

static int is_ident(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

static int is_blank(int c) {
  return c == ' ' || c == '\t';
}

static int is_space(int c) {
  return is_blank(c) || c == '\n' || c == '\r';
}

static int at(const scan *sc, size_t i) {
  return i < sc->len ? (unsigned char)sc->s[i] : -1;
}

/* Whether i is inside a pp-number (digits, letters, `.`, `'`, and a sign after an exponent,
 * from a digit or `.digit` on): a quote there separates digits. */
static int in_number(const scan *sc, size_t i) {
  size_t k = i;
  while (k > 0) {
    int c = (unsigned char)sc->s[k - 1];
    int sign = (c == '+' || c == '-') && k > 1 && strchr("eEpP", sc->s[k - 2]);
    if (!is_ident(c) && c != '.' && c != '\'' && !sign)
      break;
    k -= sign ? 2 : 1;
  }
  if (k == i)
    return 0;
  int first = (unsigned char)sc->s[k];
  return (first >= '0' && first <= '9') ||
         (first == '.' && k + 1 < i && sc->s[k + 1] >= '0' && sc->s[k + 1] <= '9');
}

/* If a comment or a literal starts at i, the index just past it; otherwise i. */
static size_t skip_noncode(const scan *sc, size_t i) {
  int c = at(sc, i);
  if (c == '/' && at(sc, i + 1) == '/') {
    while (i < sc->len && sc->s[i] != '\n')
      i++;
    return i;
  }
  if (c == '/' && at(sc, i + 1) == '*') {
    for (i += 2; i + 1 < sc->len && !(sc->s[i] == '*' && sc->s[i + 1] == '/'); i++)
      ;
    return i + 2 < sc->len ? i + 2 : sc->len;
  }
  if (c == '"' && i > 0 && sc->s[i - 1] == 'R') { /* R"delim( ... )delim" */
    size_t open = i + 1;
    while (open < sc->len && sc->s[open] != '(' && open - i < 18)
      open++;
    if (open >= sc->len || sc->s[open] != '(')
      return i + 1;
    size_t dlen = open - i - 1;
    for (size_t k = open + 1; k + dlen + 1 < sc->len; k++)
      if (sc->s[k] == ')' && memcmp(sc->s + k + 1, sc->s + i + 1, dlen) == 0 &&
          sc->s[k + 1 + dlen] == '"')
        return k + dlen + 2;
    return sc->len;
  }
  /* a quote inside a number is a digit separator (1'000), not a character literal (L'x') */
  if (c == '"' || (c == '\'' && !in_number(sc, i))) {
    for (i++; i < sc->len && sc->s[i] != c && sc->s[i] != '\n'; i++)
      if (sc->s[i] == '\\')
        i++;
    return i + 1 < sc->len ? i + 1 : sc->len;
  }
  return i;
}

/* Three `ch` from i with only blanks between them, not a fourth or an `=` after: the end of the
 * third in *end. */
static int three(const scan *sc, size_t i, char ch, size_t *end) {
  int n = 0;
  size_t k = i;
  while (n < 3) {
    if (at(sc, k) != ch)
      return 0;
    n++;
    k++;
    if (n < 3)
      while (is_blank(at(sc, k)))
        k++;
  }
  if (at(sc, k) == ch || at(sc, k) == '=')
    return 0;
  *end = k;
  return 1;
}

/* Makes the chevrons in [i, end) one `<<<` or `>>>` token followed by blanks. */
static int join(scan *sc, size_t i, size_t end, char ch) {
  if (end - i == 3)
    return 0;
  memset(sc->s + i, ch, 3);
  memset(sc->s + i + 3, ' ', end - i - 3);
  return 1;
}

/* The blank of code (not in a literal or a comment) on the line of [a, b) within [lo, hi) that
 * is nearest before a, else the first after a, not past another `{`: a itself if none. Moving
 * the text between it and the brace by one column then moves no newline. */
static size_t spare_blank(const scan *sc, size_t a, size_t b, size_t lo, size_t hi) {
  size_t before = a;
  for (size_t k = lo; k < hi;) {
    size_t next = skip_noncode(sc, k);
    int c = at(sc, k);
    int newline = next != k ? memchr(sc->s + k, '\n', next - k) != NULL : c == '\n';
    if (k < a) {
      if (newline)
        before = a;
      else if (next == k && is_blank(c))
        before = k;
    } else if (before != a || newline || (k >= b && c == '{')) {
      return before;
    } else if (next == k && is_blank(c)) {
      return k;
    }
    k = next != k ? next : k + 1;
  }
  return before;
}

/* A launch's grid or block given as `{...}` in [a, b) (blanks trimmed), within the launch
 * configuration [lo, hi): `$(...)`, the room for `$` taken from the nearest blank of code on
 * the same line, the text between moved by one column. */
static int braced(scan *sc, size_t a, size_t b, size_t lo, size_t hi) {
  size_t blank = spare_blank(sc, a, b, lo, hi);
  if (blank == a)
    return 0;
  if (blank < a) { /* before the brace: what lies between moves left */
    memmove(sc->s + blank, sc->s + blank + 1, a - blank - 1);
    sc->s[a - 1] = '$';
    sc->s[a] = '(';
    sc->s[b - 1] = ')';
    return 1;
  }
  /* after it: the brace and what follows up to the blank move right */
  memmove(sc->s + a + 1, sc->s + a, blank - a);
  sc->s[a] = '$';
  sc->s[a + 1] = '(';
  size_t close = b - 1 + (blank > b - 1); /* the closing brace, moved if the blank was past it */
  sc->s[close] = ')';
  return 1;
}

/* Whether [a, b) is a braced list a dim3 can be made of: no nested list, no string. */
static int dim3_list(const scan *sc, size_t a, size_t b) {
  return b - a >= 2 && sc->s[a] == '{' && sc->s[b - 1] == '}' &&
         !memchr(sc->s + a + 1, '{', b - a - 2) && !memchr(sc->s + a + 1, '"', b - a - 2);
}

/* A braced grid [a0, b0) and block [a1, b1), the comma between them at comma: `$(grid)(block)`,
 * which needs no blank (`$` expands to the grid and a macro that takes the block's parentheses as
 * its arguments, nvcc_rewrite.h). The grid and its closing brace move right by one over the
 * comma; the block's braces become parentheses in place. */
static void braced_pair(scan *sc, size_t a0, size_t b0, size_t comma, size_t a1, size_t b1) {
  memmove(sc->s + a0 + 2, sc->s + a0 + 1, comma - a0 - 1);
  sc->s[a0] = '$';
  sc->s[a0 + 1] = '(';
  sc->s[b0] = ')';
  sc->s[a1] = '(';
  sc->s[b1 - 1] = ')';
}

/* A launch `<<<config>>>` whose opener starts at i (after `operator`, `<<` `<` is a template's
 * argument list). Returns where scanning goes on; *changed gets the rewrites made. */
static size_t launch(scan *sc, size_t i, unsigned *changed) {
  size_t open_end;
  if (!three(sc, i, '<', &open_end))
    return i + 1;
  size_t args[4];
  size_t nargs = 0;
  int depth = 0;
  for (size_t k = open_end; k < sc->len;) {
    size_t next = skip_noncode(sc, k);
    if (next != k) {
      k = next;
      continue;
    }
    int c = at(sc, k);
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return open_end;
    } else if (c == ';' && depth == 0)
      return open_end;
    else if (c == '-' && at(sc, k + 1) == '>')
      k++; /* p->x */
    else if (c == ',' && depth == 0 && nargs < 4)
      args[nargs++] = k;
    size_t close_end;
    if (c == '>' && depth == 0 && three(sc, k, '>', &close_end)) {
      if (nargs < 4)
        args[nargs++] = k;
      /* grid and block: the first two arguments, each trimmed of blanks */
      size_t a[2] = {0}, b[2] = {0};
      int list[2] = {0};
      for (size_t n = 0; n < nargs && n < 2; n++) {
        a[n] = n ? args[n - 1] + 1 : open_end, b[n] = args[n];
        while (a[n] < b[n] && is_space(at(sc, a[n])))
          a[n]++;
        while (b[n] > a[n] && is_space(at(sc, b[n] - 1)))
          b[n]--;
        list[n] = dim3_list(sc, a[n], b[n]);
      }
      if (list[0] && list[1]) {
        braced_pair(sc, a[0], b[0], args[0], a[1], b[1]);
        *changed |= GM_REWRITE_BRACED_LAUNCH;
      } else {
        for (size_t n = 0; n < 2; n++)
          if (list[n] && braced(sc, a[n], b[n], open_end, k))
            *changed |= GM_REWRITE_BRACED_LAUNCH;
      }
      if (join(sc, i, open_end, '<') | join(sc, k, close_end, '>'))
        *changed |= GM_REWRITE_CHEVRONS;
      return close_end;
    }
    k++;
  }
  return open_end;
}

static int is_builtin_var(const char *s, size_t n) {
  static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
      return 1;
  return 0;
}

/* `extern [const] TYPE NAME[, NAME];` from `extern` at i, every NAME a built-in variable: made
 * blanks (newlines kept). Identifiers, blanks, `::` and commas only, so nothing else is lost. */
static size_t builtin_decl(scan *sc, size_t from, size_t i, unsigned *changed) {
  size_t k = i;
  const char *last = NULL;
  size_t last_len = 0;
  int names = 0, all_builtin = 1;
  for (; k < sc->len; k++) {
    int c = at(sc, k);
    if (is_ident(c)) {
      size_t start = k;
      while (is_ident(at(sc, k + 1)))
        k++;
      last = sc->s + start;
      last_len = k + 1 - start;
    } else if (c == ',' || c == ';') {
      if (!last)
        return i + 1;
      names++;
      all_builtin &= is_builtin_var(last, last_len);
      last = NULL;
      if (c == ';')
        break;
    } else if (c == ':' && at(sc, k + 1) == ':') {
      k++;
    } else if (!is_blank(c) && c != '\n' && c != '\r') {
      return i + 1;
    }
  }
  if (k >= sc->len || !names || !all_builtin)
    return i + 1;
  for (size_t j = from; j <= k; j++)
    if (sc->s[j] != '\n' && sc->s[j] != '\r')
      sc->s[j] = ' ';
  *changed |= GM_REWRITE_BUILTIN_DECL;
  return k + 1;
}

unsigned gm_nvcc_rewrite(char *text, size_t len) {
  scan sc = {text, len};
  unsigned changed = 0;
  int line_start = 1, in_directive = 0;
  /* the last token before the current one, for the two rewrites that depend on it: `operator`
   * before `<<`, and what may precede a declaration */
  char prev_punct = ';';
  size_t prev_ident = 0, prev_ident_len = 0, decl_from = 0;
  int prev_is_ident = 0, prefix_ok = 0;
  for (size_t i = 0; i < len;) {
    size_t next = skip_noncode(&sc, i);
    if (next != i) {
      i = next;
      continue;
    }
    int c = (unsigned char)text[i];
    if (c == '\n') {
      if (in_directive && !(i > 0 && text[i - 1] == '\\')) {
        in_directive = 0;
        prev_punct = ';', prev_is_ident = 0, prefix_ok = 0;
      }
      line_start = 1;
      i++;
      continue;
    }
    if (is_blank(c) || c == '\r') {
      i++;
      continue;
    }
    if (c == '#' && line_start)
      in_directive = 1;
    line_start = 0;
    if (is_ident(c)) {
      size_t start = i;
      while (i < len && is_ident((unsigned char)text[i]))
        i++;
      size_t n = i - start;
      int starts_decl =
          !prev_is_ident && (prev_punct == ';' || prev_punct == '{' || prev_punct == '}');
      if (n == 6 && memcmp(text + start, "extern", 6) == 0 && !in_directive &&
          (starts_decl || prefix_ok)) {
        i = builtin_decl(&sc, prefix_ok ? decl_from : start, start, &changed);
        prev_punct = ';', prev_is_ident = 0, prefix_ok = 0;
        continue;
      }
      /* `__device__ extern const uint3 threadIdx;`: the attribute goes with the declaration */
      int attr = (n == 10 && (memcmp(text + start, "__device__", 10) == 0 ||
                              memcmp(text + start, "__shared__", 10) == 0));
      if (attr && starts_decl) {
        decl_from = start;
        prefix_ok = 1;
      } else if (!(attr && prefix_ok)) {
        prefix_ok = 0;
      }
      prev_is_ident = 1, prev_ident = start, prev_ident_len = n;
      continue;
    }
    if (c == '<') {
      int after_operator =
          prev_is_ident && prev_ident_len == 8 && memcmp(text + prev_ident, "operator", 8) == 0;
      size_t end = after_operator ? i + 1 : launch(&sc, i, &changed);
      prev_is_ident = 0, prev_punct = '<', prefix_ok = 0;
      i = end > i ? end : i + 1;
      continue;
    }
    prev_is_ident = 0, prev_punct = (char)c, prefix_ok = 0;
    i++;
  }
  return changed;
}
