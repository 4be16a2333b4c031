#include "support/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Enough for the outputs of one run plus each cache worker's entry in flight. */
#define GM_INTERRUPT_SLOTS 256

/* NULL: a free slot */
static _Atomic(const char *) live[GM_INTERRUPT_SLOTS];

int gm_interrupt_remember(const char *path) {
  for (int i = 0; i < GM_INTERRUPT_SLOTS; i++) {
    const char *empty = NULL;
    if (atomic_compare_exchange_strong(&live[i], &empty, path))
      return i;
  }
  return -1;
}

void gm_interrupt_forget(int slot) {
  if (slot >= 0 && slot < GM_INTERRUPT_SLOTS)
    atomic_store(&live[slot], NULL);
}

/* getdents64's record; readdir is not async-signal-safe, the system call is. */
struct dirent64_record {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

int gm_remove_flat_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return -1;
  /* entries removed while the directory is read may hide others: read again until none goes */
  for (int removed = 1, pass = 0; removed && pass < 8; pass++) {
    removed = 0;
    lseek(fd, 0, SEEK_SET);
    char buf[4096] __attribute__((aligned(8)));
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
      for (long off = 0; off < n;) {
        const struct dirent64_record *d = (const void *)(buf + off);
        off += d->reclen;
        if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0 &&
            unlinkat(fd, d->name, 0) == 0)
          removed = 1;
      }
  }
  close(fd);
  return rmdir(dir);
}

static void on_signal(int sig) {
  for (int i = 0; i < GM_INTERRUPT_SLOTS; i++) {
    const char *path = atomic_load(&live[i]);
    if (path && unlink(path) != 0) /* a directory refuses unlink */
      gm_remove_flat_dir(path);
  }
  /* SA_RESETHAND put the default action back and SA_NODEFER left the signal unblocked: this
   * ends the process the way the signal would have */
  raise(sig);
}

void gm_interrupt_install(void) {
  static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
    struct sigaction old;
    if (sigaction(signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
      continue;
    struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESETHAND | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    sigaction(signals[i], &sa, NULL);
  }
}
