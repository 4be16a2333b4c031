/* A file written in full or not at all: the text goes to a temporary file beside the path
 * (the same directory, so the rename stays on one file system) that is renamed into place only
 * once everything reached it. A reader never sees half a file, and a failed write leaves what
 * the path held before. Only a regular file (or none) is replaced so: a symbolic link is followed
 * and its target replaced (the link stays), the temporary takes the replaced file's mode, and a
 * device, FIFO, socket or open-file link (/dev/stdout, /dev/fd/N) is written in place. A signal
 * removes the temporary (interrupt.h). Safe from several threads at once (the cache's workers
 * store entries side by side). */
#ifndef GM_ATOMIC_FILE_H
#define GM_ATOMIC_FILE_H

#include <stdio.h>

typedef struct gm_atomic_file {
  FILE *out;  /* where to write, until gm_atomic_commit */
  char *path; /* the destination */
  char *tmp;  /* the temporary beside it; NULL: written in place */
  int slot;   /* its entry among the paths a signal removes */
} gm_atomic_file;

/* Opens the temporary for path (mode as fopen's: "w" or "wb"). Returns f->out, or NULL with
 * errno set and nothing to commit. */
FILE *gm_atomic_open(gm_atomic_file *f, const char *path, const char *mode);

/* Closes the temporary; when ok (the caller's writes succeeded) and the stream saw no error,
 * renames it to the path, else removes it. Returns 1 when the path holds the new file, else 0
 * with errno set from the step that failed. Releases f either way. */
int gm_atomic_commit(gm_atomic_file *f, int ok);

/* Both around one writer, which returns 0 on success. */
typedef int (*gm_atomic_writer)(FILE *out, const void *arg);
int gm_write_atomically(const char *path, const char *mode, gm_atomic_writer write,
                        const void *arg);

/* Whether a is a regular file and b names the same one (links followed): an output that would
 * replace one of the run's inputs. */
int gm_same_regular_file(const char *a, const char *b);
/* The directory part of a path: "." for a bare name, "/" for a file in the root. Free it. */
char *gm_directory_of(const char *path);

#endif
