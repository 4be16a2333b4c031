/* Objects linking driver functions (imports.c, injected runtime): which loaded objects link them,
 * and the words in an object's data that hold given addresses. Private to runtime/. */
#ifndef GMEMRT_IMPORTS_H
#define GMEMRT_IMPORTS_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

/* Whether objects were loaded since the last scan (cheap, and inline: every wrapped call asks). */
extern struct link_map *gmemrt_last_object_seen; /* the link map's tail at the last scan */
static inline int gmemrt_objects_loaded_since_scan(void) {
  struct link_map *last = __atomic_load_n(&gmemrt_last_object_seen, __ATOMIC_RELAXED);
  return !last || __atomic_load_n(&last->l_next, __ATOMIC_RELAXED) != NULL;
}
/* For each of symbols[count], the name of a loaded object that links it directly ("" for the
 * program itself), left as is when none does. */
void gmemrt_scan_imports(const char *const *symbols, size_t count, const char **importer);
/* The words of the object holding pc, in what it maps writable now, that equal one of
 * values[count]: found(word, index in values, ctx) for each. Returns the object's name ("" for
 * the program), or NULL when pc is in no loaded object. */
const char *gmemrt_find_words(uintptr_t pc, const uintptr_t *values, size_t count,
                              void (*found)(uintptr_t *word, size_t which, void *ctx), void *ctx);

#endif
