/* --export-fixes FILE: fix-its in the YAML format clang-tidy writes (a TranslationUnitDiagnostics
 * document), so clang-apply-replacements applies them. Format: docs/fixes.md. */
#include "findings/output.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A double-quoted YAML scalar. */
static void yaml_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    default:
      if (*p < 0x20)
        fprintf(out, "\\x%02x", *p);
      else
        fputc(*p, out);
    }
  }
  fputc('"', out);
}

static const char *absolute(const char *path, char *buf) {
  return realpath(path, buf) ? buf : path;
}

int gm_print_fixes(FILE *out, const gm_output_file *files, size_t nfiles) {
  char buf[PATH_MAX];
  fputs("---\nMainSourceFile: ", out);
  yaml_string(out, nfiles ? absolute(files[0].path, buf) : "");
  fputs("\nDiagnostics:\n", out);
  int any = 0;
  for (size_t i = 0; i < nfiles; i++) {
    for (size_t k = 0; k < files[i].nfindings; k++) {
      const gm_finding *f = &files[i].findings[k];
      if (!f->nfixits)
        continue;
      any = 1;
      fputs("  - DiagnosticName: ", out);
      yaml_string(out, f->rule->id);
      fputs("\n    DiagnosticMessage:\n      Message: ", out);
      yaml_string(out, f->message);
      fputs("\n      FilePath: ", out);
      yaml_string(out, absolute(f->loc.file, buf));
      unsigned offset = 0;
      if (files[i].src && f->loc.line && f->loc.line <= files[i].src->line_starts.len)
        offset = (unsigned)files[i].src->line_starts.items[f->loc.line - 1] + f->loc.col - 1;
      fprintf(out, "\n      FileOffset: %u\n      Replacements:\n", offset);
      for (int x = 0; x < f->nfixits; x++) {
        const gm_fixit *fx = &f->fixits[x];
        fputs("        - FilePath: ", out);
        yaml_string(out, absolute(fx->file, buf));
        fprintf(out, "\n          Offset: %u\n          Length: %u\n          ReplacementText: ",
                fx->offset, fx->length);
        yaml_string(out, fx->text);
        fputc('\n', out);
      }
      fprintf(out, "    Level: %s\n", f->error ? "Error" : "Warning");
    }
  }
  if (!any)
    fputs("  []\n", out);
  fputs("...\n", out);
  return ferror(out) ? -1 : 0;
}
