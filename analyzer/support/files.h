/* Reading and making the files gmemlint keeps for itself (the result cache, the preamble store):
 * a reader that takes only a regular file of bounded size, and the directories above an entry. */
#ifndef GM_FILES_H
#define GM_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* A regular file's bytes, NUL-terminated, and their count in *len; NULL unless path is a regular
 * file (not a symbolic link, whose target could be /dev/zero, nor a FIFO or device, whose open
 * or read would block) of at most max bytes, read whole (a file that shrank meanwhile is torn). */
char *gm_read_regular(const char *path, off_t max, size_t *len);

/* Makes dir and every directory above it that is missing; 1 when all of them exist. */
int gm_mkdirs(const char *dir);

#endif
