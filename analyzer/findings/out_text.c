#include "findings/output.h"
#include "support/files.h"

#include <stdlib.h>
#include <string.h>

#define BOLD "\033[1m"
#define RESET "\033[0m"
#define MAGENTA "\033[1;35m"
#define RED "\033[1;31m"
#define CYAN "\033[1;36m"
#define GREEN "\033[1;32m"

static void print_caret(FILE *out, const gm_source *src, gm_loc loc, int color) {
  size_t len;
  const char *line = src ? gm_source_line(src, loc.line, &len) : NULL;
  if (!line || !loc.file)
    return;
  fprintf(out, "%.*s\n", (int)len, line);
  /* no column (a runtime site from C, which has no __COLUMN__): under the statement's start */
  unsigned col = loc.col;
  for (unsigned i = 0; !col; i++)
    if (i >= len || (line[i] != ' ' && line[i] != '\t'))
      col = i + 1;
  /* keep tabs so the caret lines up whatever the tab width */
  for (unsigned i = 0; i + 1 < col && i < len; i++)
    fputc(line[i] == '\t' ? '\t' : ' ', out);
  fprintf(out, "%s^%s\n", color ? GREEN : "", color ? RESET : "");
}

/* The source a location is in: the file's own, else another file (a header's finding) read once
 * for the printing of a file and kept in *other until the next one. */
struct sources {
  const gm_output_file *file;
  gm_source other;
  char *other_path;
  int other_missing;
};

static const gm_source *source_of(struct sources *s, const char *path) {
  if (!path)
    return NULL;
  if (strcmp(path, s->file->path) == 0)
    return s->file->src;
  if (!s->other_path || strcmp(s->other_path, path) != 0) {
    gm_source_free(&s->other);
    free(s->other_path);
    s->other_path = gm_xstrdup(path);
    size_t len = 0;
    char *text = gm_read_regular(path, 64 << 20, &len);
    s->other_missing = !text;
    gm_source_init(&s->other, text ? text : gm_xstrdup(""), text ? len : 0);
  }
  return s->other_missing ? NULL : &s->other;
}

static void print_head(FILE *out, gm_loc loc, const char *kind, const char *kind_color, int color) {
  /* runtime sites may have no column (C has no __COLUMN__), OOM events no site */
  fprintf(out, "%s%s", color ? BOLD : "", loc.file);
  if (loc.line)
    fprintf(out, ":%u", loc.line);
  if (loc.line && loc.col)
    fprintf(out, ":%u", loc.col);
  fprintf(out, ":%s %s%s:%s ", color ? RESET : "", color ? kind_color : "", kind,
          color ? RESET : "");
}

static int loc_before(gm_loc a, gm_loc b) {
  return a.line != b.line ? a.line < b.line : a.col <= b.col;
}

/* A notice about the analysis: `file:line:col: note: analysis of 'f' was cut short ...`. */
static void print_notice(FILE *out, const gm_output_file *file, const gm_notice *n, int color) {
  print_head(out, n->loc, "note", CYAN, color);
  fprintf(out, "%s\n", n->message);
  print_caret(out, strcmp(n->loc.file, file->path) == 0 ? file->src : NULL, n->loc, color);
}

/* The notices text prints with the file's findings: those not counted once at the end. */
static size_t next_notice(const gm_output_file *file, size_t k) {
  while (k < file->nnotices && gm_notice_counted_once(&file->notices[k]))
    k++;
  return k;
}

void gm_print_text(FILE *out, const gm_output_file *file, int color) {
  struct sources srcs = {file, {0}, NULL, 0};
  size_t k = next_notice(file, 0); /* notices, merged with the findings in line order */
  for (size_t i = 0; i < file->nfindings; i++) {
    const gm_finding *f = &file->findings[i];
    for (; k < file->nnotices && loc_before(file->notices[k].loc, f->loc);
         k = next_notice(file, k + 1))
      print_notice(out, file, &file->notices[k], color);
    print_head(out, f->loc, f->error ? "error" : "warning", f->error ? RED : MAGENTA, color);
    fprintf(out, "%s%s [%s %s]%s\n", color ? BOLD : "", f->message, f->rule->id, f->rule->name,
            color ? RESET : "");
    print_caret(out, source_of(&srcs, f->loc.file), f->loc, color);
    for (int r = 0; r < f->nrelated; r++) {
      const gm_related *rel = &f->related[r];
      print_head(out, rel->loc, "note", CYAN, color);
      fprintf(out, "%s\n", rel->message);
      print_caret(out, source_of(&srcs, rel->loc.file), rel->loc, color);
    }
    if (f->verdict != GM_VERDICT_NONE) {
      /* the runtime's verdict, as a note at the finding: "note: confirmed: 3 allocations ..." */
      print_head(out, f->loc, "note", CYAN, color);
      const char *vc = f->verdict == GM_VERDICT_CONFIRMED   ? RED
                       : f->verdict == GM_VERDICT_DISMISSED ? GREEN
                                                            : "";
      fprintf(out, "%s%s%s: %s\n", color ? vc : "", gm_verdict_name(f->verdict),
              color && *vc ? RESET : "", f->evidence ? f->evidence : "");
    }
  }
  for (; k < file->nnotices; k = next_notice(file, k + 1))
    print_notice(out, file, &file->notices[k], color);
}

void gm_print_text_cut_short(FILE *out, const gm_output_file *files, size_t nfiles, int color) {
  const gm_notice *first = NULL;
  size_t count = 0;
  for (size_t i = 0; i < nfiles; i++)
    for (size_t k = 0; k < files[i].nnotices; k++)
      if (strcmp(files[i].notices[k].kind, "cut-short") == 0 && !count++)
        first = &files[i].notices[k];
  if (!first)
    return;
  print_head(out, first->loc, "note", CYAN, color);
  fprintf(out, "%s", first->message);
  if (count > 1)
    fprintf(out, " (and %zu more function%s cut short; --format=json lists them)", count - 1,
            count > 2 ? "s" : "");
  fputc('\n', out);
}
