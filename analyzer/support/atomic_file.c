#include "support/atomic_file.h"

#include "support/util.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* The process id keeps two runs apart, the counter two files of one run (threads included). */
static atomic_uint tmp_counter;

FILE *gm_atomic_open(gm_atomic_file *f, const char *path, const char *mode) {
  f->path = gm_xstrdup(path);
  f->tmp = gm_xasprintf("%s.tmp.%d.%u", path, (int)getpid(), atomic_fetch_add(&tmp_counter, 1));
  f->out = fopen(f->tmp, mode);
  if (!f->out) {
    int err = errno;
    free(f->path);
    free(f->tmp);
    f->path = f->tmp = NULL;
    errno = err;
  }
  return f->out;
}

int gm_atomic_commit(gm_atomic_file *f, int ok) {
  int err = 0;
  if (ferror(f->out) && ok) {
    ok = 0;
    err = errno ? errno : EIO;
  }
  if (fclose(f->out) != 0 && ok) {
    ok = 0;
    err = errno;
  }
  if (ok && rename(f->tmp, f->path) != 0) {
    ok = 0;
    err = errno;
  }
  if (!ok) {
    if (!err) /* the caller's own failure: its errno stands */
      err = errno;
    remove(f->tmp);
    errno = err;
  }
  free(f->path);
  free(f->tmp);
  *f = (gm_atomic_file){0};
  return ok;
}

int gm_write_atomically(const char *path, const char *mode, gm_atomic_writer write,
                        const void *arg) {
  gm_atomic_file f;
  if (!gm_atomic_open(&f, path, mode))
    return 0;
  return gm_atomic_commit(&f, write(f.out, arg) == 0);
}
