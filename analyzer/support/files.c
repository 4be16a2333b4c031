#include "support/files.h"

#include "support/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

char *gm_read_regular(const char *path, off_t max, size_t *len) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  char *data = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= max) {
    size_t want = (size_t)st.st_size, got = 0;
    data = gm_xmalloc(want + 1);
    while (got < want) {
      ssize_t n = read(fd, data + got, want - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (size_t)n;
    }
    if (got != want) {
      free(data);
      data = NULL;
    } else {
      data[got] = 0;
      *len = got;
    }
  }
  close(fd);
  return data;
}

int gm_mkdirs(const char *dir) {
  char *copy = gm_xstrdup(dir);
  int ok = 1;
  for (char *p = copy + 1; ok; p++) {
    if (*p != '/' && *p)
      continue;
    char save = *p;
    *p = 0;
    ok = mkdir(copy, 0777) == 0 || errno == EEXIST;
    *p = save;
    if (!save)
      break;
  }
  free(copy);
  return ok;
}
