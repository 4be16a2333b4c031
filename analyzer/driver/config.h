/* Project configuration: the nearest .gmemlint above a source file (INI): rule
 * switches, thresholds and the project's own allocator wrappers. See docs/config.md. */
#ifndef GM_CONFIG_H
#define GM_CONFIG_H

#include "model/families.h"

#include <stdint.h>

typedef struct gm_config {
  char *path;              /* NULL for "no config file": built-in table only */
  const gm_table *table;   /* built-in table, extended by the file */
  uint64_t disabled_rules; /* bit i: gm_rules[i] */
  uint64_t enabled_rules;
  gm_thresholds thresholds; /* the defaults, as [thresholds] set them */
  char *error;              /* set when the file could not be used */
} gm_config;

/* The config for a source file: `explicit_path` if given, else the nearest .gmemlint in its
 * directory or above. Cached and shared between threads; never freed before exit. */
const gm_config *gm_config_for(const char *source_path, const char *explicit_path);

/* Parses a comma list of rule ids/names into a bit set. Returns 0 and names the bad item. */
int gm_rules_parse_list(const char *list, uint64_t *bits, char *bad, size_t badlen);

#endif
