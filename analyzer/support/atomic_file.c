#include "support/atomic_file.h"

#include "support/interrupt.h"
#include "support/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* The process id keeps two runs apart, the counter two files of one run (threads included). */
static atomic_uint tmp_counter;

#define GM_PROC_SUPER_MAGIC 0x9fa0 /* linux/magic.h */
#define GM_MAX_LINKS 40            /* as the kernel's own limit: more is a loop */

char *gm_directory_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return gm_xstrdup(".");
  if (slash == path)
    return gm_xstrdup("/");
  return gm_xasprintf("%.*s", (int)(slash - path), path);
}

/* The path a write to `path` lands on, its symbolic links followed (a relative one from its own
 * directory). *open_file is set when a link lives in procfs (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N): it names an open file, not a path, so it is written through as it is.
 * NULL with errno ELOOP for a loop of links. */
static char *follow_links(const char *path, int *open_file) {
  char *cur = gm_xstrdup(path);
  for (int hops = 0; hops <= GM_MAX_LINKS; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur;
    char *dir = gm_directory_of(cur);
    struct statfs fs;
    char link[PATH_MAX];
    ssize_t n = -1;
    if (statfs(dir, &fs) == 0 && fs.f_type == GM_PROC_SUPER_MAGIC)
      *open_file = 1;
    else
      n = readlink(cur, link, sizeof link - 1);
    if (n < 0) {
      free(dir);
      return cur;
    }
    link[n] = '\0';
    char *next = link[0] == '/' ? gm_xstrdup(link) : gm_xasprintf("%s/%s", dir, link);
    free(dir);
    free(cur);
    cur = next;
  }
  free(cur);
  errno = ELOOP;
  return NULL;
}

/* Writes where the path is: a device, a FIFO, a socket or an open file's procfs link cannot be
 * replaced by another file (a rename over /dev/null leaves a regular file there). */
static FILE *open_in_place(gm_atomic_file *f, const char *path, const char *mode) {
  f->out = fopen(path, mode);
  if (f->out)
    f->path = gm_xstrdup(path);
  return f->out;
}

FILE *gm_atomic_open(gm_atomic_file *f, const char *path, const char *mode) {
  *f = (gm_atomic_file){.slot = -1};
  int open_file = 0;
  char *target = follow_links(path, &open_file);
  if (!target)
    return NULL;
  struct stat st;
  int exists = stat(target, &st) == 0;
  if (open_file || (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
    free(target);
    return open_in_place(f, path, mode);
  }
  /* A file with other hard links is written in place: a rename would leave them the old text. */
  if (exists && S_ISREG(st.st_mode) && st.st_nlink > 1) {
    free(target);
    return open_in_place(f, path, mode);
  }
  /* a regular file or none (a directory fails at the rename, naming the path): replaced by the
   * temporary, which keeps the mode and the owner the file had */
  f->path = target;
  f->tmp = gm_xasprintf("%s.tmp.%d.%u", target, (int)getpid(), atomic_fetch_add(&tmp_counter, 1));
  f->slot = gm_interrupt_remember(f->tmp);
  int fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  int owner_kept = 1;
  if (fd >= 0 && exists && S_ISREG(st.st_mode) &&
      (st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0)
    owner_kept = 0;
  if (fd >= 0 && exists && S_ISREG(st.st_mode) &&
      (!owner_kept || fchmod(fd, st.st_mode & 07777) != 0)) {
    close(fd);
    unlink(f->tmp);
    fd = -1;
    if (!owner_kept) { /* a file we cannot give back to its owner is written in place */
      gm_interrupt_forget(f->slot);
      free(f->tmp);
      char *in_place = f->path;
      *f = (gm_atomic_file){.slot = -1};
      FILE *out = open_in_place(f, in_place, mode);
      free(in_place);
      return out;
    }
  }
  f->out = fd >= 0 ? fdopen(fd, mode) : NULL;
  if (!f->out) {
    int err = errno;
    if (fd >= 0) {
      close(fd);
      unlink(f->tmp);
    }
    gm_interrupt_forget(f->slot);
    free(f->path);
    free(f->tmp);
    *f = (gm_atomic_file){.slot = -1};
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
  if (f->tmp && ok && rename(f->tmp, f->path) != 0) {
    ok = 0;
    err = errno;
  }
  if (!ok) {
    if (!err) /* the caller's own failure: its errno stands */
      err = errno;
    if (f->tmp)
      remove(f->tmp);
    errno = err;
  }
  gm_interrupt_forget(f->slot); /* before the name is freed: the handler may read it */
  free(f->path);
  free(f->tmp);
  *f = (gm_atomic_file){.slot = -1};
  return ok;
}

int gm_write_atomically(const char *path, const char *mode, gm_atomic_writer write,
                        const void *arg) {
  gm_atomic_file f;
  if (!gm_atomic_open(&f, path, mode))
    return 0;
  return gm_atomic_commit(&f, write(f.out, arg) == 0);
}

int gm_same_regular_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && S_ISREG(sa.st_mode) && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}
