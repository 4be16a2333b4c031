/* Finding what a file needs to parse as nvcc parses it (nvcc_fixups.h). */
#include "frontend/nvcc_fixups.h"

#include "frontend/legacy_api.h"
#include "frontend/nvcc_compat.h"
#include "frontend/nvcc_rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of a file an error is in, in fx->files, loaded once (the main file's as parsed, a
 * project header's from disk) with nvcc_rewrite.h's rewrites applied; NULL for a system header
 * or one of gmemlint's own in memory, which are left alone. *k is its index. */
static struct CXUnsavedFile *file_text(CXTranslationUnit tu, CXFile file, const char *path,
                                       const char *contents, size_t len, gm_nvcc_fixups *fx,
                                       size_t *k) {
  if (!file || clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, file, 0)))
    return NULL;
  CXString s = clang_getFileName(file);
  const char *name = clang_getCString(s);
  struct CXUnsavedFile *out = NULL;
  if (name && *name && !gm_nvcc_compat_is(name)) {
    CXFile main_file = clang_getFile(tu, path);
    int is_main = main_file && clang_File_isEqual(file, main_file);
    const char *key = is_main ? path : name;
    for (size_t i = 0; i < fx->files.len && !out; i++)
      if (strcmp(fx->files.items[i].Filename, key) == 0)
        out = &fx->files.items[ *k = i];
    if (!out) {
      size_t n = 0;
      char *text = NULL;
      if (is_main && contents) {
        text = gm_xmalloc(len + 1);
        memcpy(text, contents, len);
        text[n = len] = 0;
      } else {
        text = gm_read_file(key, &n);
      }
      if (text) {
        unsigned what = gm_nvcc_rewrite(text, n);
        fx->rewrites |= what;
        struct CXUnsavedFile f = {gm_xstrdup(key), text, (unsigned long)n};
        GM_PUSH(fx->files, f);
        GM_PUSH(fx->changed, what != 0);
        *k = fx->files.len - 1;
        out = &fx->files.items[*k];
      }
    }
  }
  clang_disposeString(s);
  return out;
}

/* The file the error is reported in, and the one its text comes from (a macro's definition). */
static void rewrite_files_of(CXTranslationUnit tu, CXSourceLocation at, const char *path,
                             const char *contents, size_t len, gm_nvcc_fixups *fx) {
  CXFile expansion = NULL, spelling = NULL;
  size_t k;
  clang_getExpansionLocation(at, &expansion, NULL, NULL, NULL);
  clang_getSpellingLocation(at, &spelling, NULL, NULL, NULL);
  file_text(tu, expansion, path, contents, len, fx, &k);
  if (spelling && (!expansion || !clang_File_isEqual(spelling, expansion)))
    file_text(tu, spelling, path, contents, len, fx, &k);
}

/* ---- edits at an error's place: what nvcc's front end takes and clang's refuses ---- */

static int is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void blank(char *t, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (t[i] != '\n')
      t[i] = ' ';
}

/* Where the declaration holding offset `at` begins: after the `;`, `{` or `}` before it. */
static size_t declaration_start(const char *t, size_t at) {
  while (at > 0 && t[at - 1] != ';' && t[at - 1] != '{' && t[at - 1] != '}')
    at--;
  return at;
}

/* Blanks each whole word `word` in t[from, to); returns how many. */
static int blank_word(char *t, size_t from, size_t to, const char *word) {
  size_t n = strlen(word);
  int count = 0;
  for (size_t i = from; i + n <= to; i++)
    if (strncmp(t + i, word, n) == 0 && (i == 0 || !is_ident(t[i - 1])) && !is_ident(t[i + n])) {
      blank(t, i, i + n);
      count++;
    }
  return count;
}

/* `__host__ __device__ float Grid::at(int i) const {...}` where Grid declares at() as a host
 * function: nvcc takes the definition's attributes, clang sees an overload it refuses. The
 * definition's are blanked: it is host code, as gmemlint reads it. */
static int drop_definition_attributes(char *t, size_t at) {
  size_t from = declaration_start(t, at);
  return blank_word(t, from, at, "__device__") + blank_word(t, from, at, "__host__");
}

/* `template <> float twice<float>(float x) {...}` whose primary is __host__ __device__: clang
 * finds no template to specialise. Without `template <>` and `<float>` it is an overload of the
 * same body, which host calls take as they would the specialisation. */
static int specialisation_as_overload(char *t, size_t len, size_t at) {
  size_t from = declaration_start(t, at);
  size_t i = from;
  while (i < at && !(strncmp(t + i, "template", 8) == 0 && !is_ident(t[i + 8])))
    i++;
  if (i >= at)
    return 0;
  size_t j = i + 8;
  while (j < at && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n'))
    j++;
  if (j + 1 >= at || t[j] != '<')
    return 0;
  size_t k = j + 1;
  while (k < at && (t[k] == ' ' || t[k] == '\t'))
    k++;
  if (t[k] != '>')
    return 0;
  size_t name_end = at;
  while (name_end < len && is_ident(t[name_end]))
    name_end++;
  size_t args = name_end;
  while (args < len && (t[args] == ' ' || t[args] == '\t'))
    args++;
  if (args < len && t[args] == '<') { /* the explicit arguments, nested <> included */
    int depth = 0;
    size_t e = args;
    for (; e < len; e++) {
      depth += t[e] == '<';
      depth -= t[e] == '>';
      if (!depth || t[e] == ';' || t[e] == '{')
        break;
    }
    if (e >= len || t[e] != '>')
      return 0;
    blank(t, args, e + 1);
  }
  blank(t, i, k + 1);
  return 1;
}

/* `template <class T> void Buf<T>::resize(int n, T fill = T()) {...}` repeating the default
 * its declaration gives: nvcc takes it, clang refuses the redefinition. The `= T()` is blanked:
 * the declaration's default stands. */
static int drop_repeated_default(char *t, size_t len, size_t at) {
  size_t eq = at; /* clang points at the parameter's name, or at its default */
  while (eq < len && t[eq] != '=' && t[eq] != ',' && t[eq] != ')' && t[eq] != ';')
    eq++;
  if (eq >= len || t[eq] != '=') {
    eq = at;
    while (eq > 0 && t[eq] != '=' && t[eq] != ',' && t[eq] != '(' && t[eq] != '\n')
      eq--;
  }
  if (t[eq] != '=')
    return 0;
  int depth = 0;
  size_t e = eq + 1;
  for (; e < len; e++) {
    char c = t[e];
    if (c == '(' || c == '<' || c == '[' || c == '{')
      depth++;
    else if ((c == ')' || c == '>' || c == ']' || c == '}') && depth)
      depth--;
    else if ((c == ',' || c == ')') && !depth)
      break;
    if (c == ';')
      return 0;
  }
  if (e >= len)
    return 0;
  blank(t, eq, e);
  return 1;
}

/* Headers CUDA 12 removed with the texture and surface references, which the legacy layer
 * declares: their #include is blanked and the layer force-included. */
static const char *const removed_headers[] = {"cuda_texture_types.h", "cuda_surface_types.h",
                                              "texture_fetch_functions.h", "surface_functions.h"};

static int removed_header(const char *message) {
  for (size_t i = 0; i < sizeof removed_headers / sizeof *removed_headers; i++) {
    char want[64];
    snprintf(want, sizeof want, "'%s' file not found", removed_headers[i]);
    if (strstr(message, want))
      return 1;
  }
  return 0;
}

static int drop_include_line(char *t, size_t len, size_t at) {
  size_t from = at;
  while (from > 0 && t[from - 1] != '\n')
    from--;
  size_t to = at;
  while (to < len && t[to] != '\n')
    to++;
  size_t i = from;
  while (i < to && (t[i] == ' ' || t[i] == '\t'))
    i++;
  if (t[i] != '#')
    return 0;
  blank(t, from, to);
  return 1;
}

/* The edit an error calls for, at its place in its file (the spelling's: where the text is). */
static void edit_at(CXTranslationUnit tu, CXDiagnostic d, const char *message, const char *path,
                    const char *contents, size_t len, gm_nvcc_fixups *fx) {
  enum { NONE, ATTRIBUTES, SPECIALISATION, DEFAULT_ARG, REMOVED_HEADER } what = NONE;
  if (strstr(message, "cannot overload __host__ function") ||
      strstr(message, "cannot overload __device__ function") ||
      strstr(message, "cannot overload __host__ __device__ function"))
    what = ATTRIBUTES;
  else if (strstr(message, "no function template matches function template specialization"))
    what = SPECIALISATION;
  else if (strstr(message, "redefinition of default argument"))
    what = DEFAULT_ARG;
  else if (removed_header(message))
    what = REMOVED_HEADER;
  if (what == NONE)
    return;
  CXFile file = NULL;
  unsigned offset = 0;
  clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, NULL, NULL, &offset);
  size_t k;
  struct CXUnsavedFile *f = file_text(tu, file, path, contents, len, fx, &k);
  if (!f || offset >= f->Length)
    return;
  char *t = (char *)f->Contents;
  int done = what == ATTRIBUTES       ? drop_definition_attributes(t, offset)
             : what == SPECIALISATION ? specialisation_as_overload(t, f->Length, offset)
             : what == DEFAULT_ARG    ? drop_repeated_default(t, f->Length, offset)
                                      : drop_include_line(t, f->Length, offset);
  if (done) {
    fx->changed.items[k] = 1;
    for (size_t i = 0;
         what == REMOVED_HEADER && i < sizeof removed_headers / sizeof *removed_headers; i++)
      if (strstr(message, removed_headers[i]) && !gm_str_vec_has(&fx->legacy, removed_headers[i]))
        GM_PUSH(fx->legacy, gm_xstrdup(removed_headers[i]));
  }
}

static void note_legacy(CXDiagnostic d, const char *message, gm_nvcc_fixups *fx) {
  char name[128];
  if (!gm_legacy_api_named(message, name, sizeof name) || gm_str_vec_has(&fx->legacy, name))
    return;
  GM_PUSH(fx->legacy, gm_xstrdup(name));
  if (fx->legacy_file)
    return;
  CXFile file;
  clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &fx->legacy_line,
                             &fx->legacy_col, NULL);
  CXString s = clang_getFileName(file);
  fx->legacy_file = gm_xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
}

int gm_nvcc_fixups_find(CXTranslationUnit tu, const char *path, const char *contents, size_t len,
                        int nvcc_dialect, gm_nvcc_fixups *fx) {
  memset(fx, 0, sizeof *fx);
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_getDiagnosticSpelling(d);
      const char *message = clang_getCString(s);
      note_legacy(d, message, fx);
      /* only where needed: `int typeof;` is a valid member under -std=c++17 */
      fx->gnu_keywords |= nvcc_dialect && strstr(message, "'typeof'") != NULL;
      if (nvcc_dialect) {
        rewrite_files_of(tu, clang_getDiagnosticLocation(d), path, contents, len, fx);
        edit_at(tu, d, message, path, contents, len, fx);
      }
      clang_disposeString(s);
    }
    clang_disposeDiagnostic(d);
  }
  size_t w = 0; /* the files nothing changed in are parsed from disk as before */
  for (size_t i = 0; i < fx->files.len; i++) {
    if (fx->changed.items[i]) {
      fx->files.items[w++] = fx->files.items[i];
      continue;
    }
    free((char *)fx->files.items[i].Filename);
    free((char *)fx->files.items[i].Contents);
  }
  fx->files.len = w;
  GM_VEC_FREE(fx->changed);
  return fx->files.len > 0 || fx->legacy.len > 0 || fx->gnu_keywords;
}

void gm_nvcc_fixups_free(gm_nvcc_fixups *fx) {
  for (size_t i = 0; i < fx->files.len; i++) {
    free((char *)fx->files.items[i].Filename);
    free((char *)fx->files.items[i].Contents);
  }
  GM_VEC_FREE(fx->files);
  GM_VEC_FREE(fx->changed);
  for (size_t i = 0; i < fx->legacy.len; i++)
    free(fx->legacy.items[i]);
  GM_VEC_FREE(fx->legacy);
  free(fx->legacy_file);
  memset(fx, 0, sizeof *fx);
}
