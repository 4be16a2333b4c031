/* Where gmemlint's own public headers are, so that a source including <gmemlint/gmemrt.h> (for
 * gmem_step()) parses under gmemlint as it compiles under gmemcc. */
#ifndef GM_OWN_INCLUDE_H
#define GM_OWN_INCLUDE_H

/* The directory holding gmemlint/gmemrt.h: <prefix>/include beside an installed
 * <prefix>/bin/gmemlint, else the source tree's include/ that built this gmemlint; NULL when
 * neither holds it. Thread-safe; found once. */
const char *gm_own_include_dir(void);

#endif
