#include "driver/supervise.h"

#include "support/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GM_SANITIZED 1 /* the sanitizers reserve terabytes of address space: no bound fits */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GM_SANITIZED 1
#endif
#endif

/* A run that crashes on this many files gives up: something other than one file is wrong. */
enum { MAX_RESTARTS = 16 };
/* Seconds one file's analysis may take by default: far beyond any real file's (the slowest of
 * the real-code projects take seconds), short of a hook or CI job that seems to hang. */
enum { DEFAULT_TIME_BOUND = 600 };

/* Set in the parent, inherited by each child at fork (read-only there, so any thread reads it). */
static int status_fd = -1;
static struct skipped {
  size_t file;
  int signal; /* 0: it ran past the time bound */
} * skipped;
static size_t nskipped;
static unsigned char *printed; /* one byte per file id the children printed */
static size_t printed_len;
static unsigned long long memory_bound;
static unsigned time_bound; /* seconds one file's analysis may take; 0: none */
static volatile sig_atomic_t child_pid;

/* In the child: the files in flight and when each began, for the watchdog. */
static pthread_mutex_t flight_lock = PTHREAD_MUTEX_INITIALIZER;
static struct flight {
  size_t file;
  time_t since;
} * flights;
static size_t nflights, capflights;

/* ---- the child's side: one short line per event, written whole (under PIPE_BUF) ---- */

static void tell(char what, size_t file) {
  if (status_fd < 0)
    return;
  char line[32];
  int n = snprintf(line, sizeof line, "%c %zu\n", what, file);
  while (write(status_fd, line, (size_t)n) < 0 && errno == EINTR) {
  }
}

void gm_supervised_begin(size_t file) {
  tell('B', file);
  if (status_fd < 0 || !time_bound)
    return;
  pthread_mutex_lock(&flight_lock);
  if (nflights == capflights) {
    capflights = capflights ? capflights * 2 : 16;
    flights = gm_xrealloc(flights, capflights * sizeof *flights);
  }
  flights[nflights++] = (struct flight){file, time(NULL)};
  pthread_mutex_unlock(&flight_lock);
}

void gm_supervised_end(size_t file) {
  tell('E', file);
  if (status_fd < 0 || !time_bound)
    return;
  pthread_mutex_lock(&flight_lock);
  for (size_t i = 0; i < nflights; i++)
    if (flights[i].file == file) {
      flights[i] = flights[--nflights];
      break;
    }
  pthread_mutex_unlock(&flight_lock);
}

/* The child's watchdog: a file past the time bound is named to the parent ('T'), and the child
 * ends as a crash would, so that the parent runs the rest again without it. */
static void *watchdog(void *arg) {
  (void)arg;
  for (;;) {
    sleep(1);
    time_t now = time(NULL);
    pthread_mutex_lock(&flight_lock);
    for (size_t i = 0; i < nflights; i++)
      if (now - flights[i].since >= (time_t)time_bound) {
        tell('T', flights[i].file);
        abort();
      }
    pthread_mutex_unlock(&flight_lock);
  }
  return NULL;
}

void gm_supervised_preamble(int building) {
  tell(building ? 'P' : 'Q', 0);
}

void gm_supervised_printed(size_t file) {
  tell('D', file);
}

static const char *signal_name(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGABRT:
    return "SIGABRT";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGKILL:
    return "SIGKILL";
  case SIGXCPU:
    return "SIGXCPU";
  default:
    return "a signal";
  }
}

int gm_supervised_skip(size_t file, char *why, size_t len) {
  for (size_t i = 0; i < nskipped; i++) {
    if (skipped[i].file != file)
      continue;
    int sig = skipped[i].signal;
    if (!sig) {
      snprintf(why, len, "its analysis took longer than %u s (--max-file-time)", time_bound);
      return 1;
    }
    /* an abort (an allocation refused) or SIGKILL (the OOM killer) may be the memory bound; a
     * SIGSEGV is as a rule a stack the parser overflowed */
    char bound[96] = "";
    int may_be_memory = (sig == SIGABRT || sig == SIGKILL) && memory_bound;
    if (may_be_memory && memory_bound >= (1ULL << 30))
      snprintf(bound, sizeof bound,
               "; it may have needed more than the run's %.1f GiB (--max-memory)",
               (double)memory_bound / (double)(1ULL << 30));
    else if (may_be_memory)
      snprintf(bound, sizeof bound,
               "; it may have needed more than the run's %llu MiB (--max-memory)",
               memory_bound >> 20);
    snprintf(why, len, "its analysis crashed (%s)%s", signal_name(sig), bound);
    return 1;
  }
  return 0;
}

int gm_supervised_was_printed(size_t file) {
  return file < printed_len && printed[file];
}

/* ---- the parent's side ---- */

static int is_crash(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGFPE || sig == SIGILL ||
         sig == SIGKILL || sig == SIGXCPU;
}

/* Half the machine's memory, and at least 8 GiB (a small machine's OOM killer, a SIGKILL, then
 * comes first and is handled the same way); none under the sanitizers. */
static unsigned long long default_bound(void) {
#ifdef GM_SANITIZED
  return 0;
#else
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  unsigned long long half =
      pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page / 2 : 0;
  unsigned long long floor = 8ULL << 30;
  return half > floor ? half : floor;
#endif
}

/* In the child: the address space bounded, never raised past a bound already set (ulimit -v). */
static void apply_bound(void) {
  struct rlimit rl;
  if (!memory_bound || getrlimit(RLIMIT_AS, &rl) != 0)
    return;
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur <= memory_bound)
    return;
  rl.rlim_cur = memory_bound;
  if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
    rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_AS, &rl);
}

static void forward(int sig) {
  if (child_pid > 0)
    kill(child_pid, sig);
}

typedef struct in_flight {
  GM_VEC(size_t) files;
  int preambles;    /* preamble builds begun and not ended */
  size_t timed_out; /* the file the watchdog named, or (size_t)-1 */
} in_flight;

static void note_printed(size_t file) {
  if (file >= printed_len) {
    size_t len = printed_len ? printed_len : 64;
    while (len <= file)
      len *= 2;
    printed = gm_xrealloc(printed, len);
    memset(printed + printed_len, 0, len - printed_len);
    printed_len = len;
  }
  printed[file] = 1;
}

static void apply_event(in_flight *f, char what, size_t file) {
  switch (what) {
  case 'B':
    GM_PUSH(f->files, file);
    break;
  case 'E':
    for (size_t i = 0; i < f->files.len; i++)
      if (f->files.items[i] == file) {
        f->files.items[i] = f->files.items[--f->files.len];
        break;
      }
    break;
  case 'P':
    f->preambles++;
    break;
  case 'Q':
    f->preambles -= f->preambles > 0;
    break;
  case 'D':
    note_printed(file);
    break;
  case 'T':
    f->timed_out = file;
    break;
  }
}

/* Reads the child's events until it closes the pipe (it exits, or dies). */
static void follow(int fd, in_flight *f) {
  char buf[4096];
  size_t have = 0;
  for (;;) {
    ssize_t n = read(fd, buf + have, sizeof buf - have);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    have += (size_t)n;
    char *line = buf, *nl;
    while ((nl = memchr(line, '\n', have - (size_t)(line - buf)))) {
      *nl = 0;
      char what;
      size_t file;
      if (sscanf(line, "%c %zu", &what, &file) == 2)
        apply_event(f, what, file);
      line = nl + 1;
    }
    have -= (size_t)(line - buf);
    memmove(buf, line, have);
  }
}

/* One child's run: its wait status, and what it was doing when it ended in *f. */
static int run_child(gm_options *opt, int (*lint)(gm_options *), in_flight *f, int *status) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return -1;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    status_fd = fds[1];
    gm_out_of_memory_aborts = 1; /* a signal the parent sees, not an exit status it would trust */
    apply_bound();
    pthread_t dog;
    if (time_bound && pthread_create(&dog, NULL, watchdog, NULL) == 0)
      pthread_detach(dog);
    exit(lint(opt));
  }
  close(fds[1]);
  child_pid = pid;
  struct sigaction fwd = {.sa_handler = forward}, old[4];
  const int forwarded[4] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  sigemptyset(&fwd.sa_mask);
  for (int i = 0; i < 4; i++)
    sigaction(forwarded[i], &fwd, &old[i]);
  follow(fds[0], f);
  close(fds[0]);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
  for (int i = 0; i < 4; i++)
    sigaction(forwarded[i], &old[i], NULL);
  child_pid = 0;
  return 0;
}

int gm_supervise(gm_options *opt, int (*lint)(gm_options *)) {
  memory_bound = opt->max_memory_set ? opt->max_memory : default_bound();
  time_bound = opt->max_file_time_set ? opt->max_file_time : DEFAULT_TIME_BOUND;
#ifdef GM_SANITIZED
  if (memory_bound)
    fprintf(stderr, GM_PROGRAM ": warning: --max-memory is ignored: this build runs under a "
                               "sanitizer, whose reserved address space no bound can hold\n");
  memory_bound = 0;
#endif
  if (opt->no_isolation) {
    apply_bound();
    return lint(opt);
  }
  for (int restarts = 0;; restarts++) {
    in_flight f = {.timed_out = (size_t)-1};
    int status = 0;
    if (run_child(opt, lint, &f, &status) != 0) { /* no pipe or no fork: run here, unguarded */
      GM_VEC_FREE(f.files);
      apply_bound();
      return lint(opt);
    }
    if (WIFEXITED(status)) {
      GM_VEC_FREE(f.files);
      return WEXITSTATUS(status);
    }
    int sig = WTERMSIG(status);
    if (!is_crash(sig)) { /* an interrupt, a closed pipe: end as the child did */
      GM_VEC_FREE(f.files);
      signal(sig, SIG_DFL);
      raise(sig);
      return 128 + sig;
    }
    const char *how = signal_name(sig);
    int ok = restarts < MAX_RESTARTS;
    if (ok && f.timed_out != (size_t)-1) {
      skipped = gm_xrealloc(skipped, (nskipped + 1) * sizeof *skipped);
      skipped[nskipped++] = (struct skipped){f.timed_out, 0};
    } else if (ok && f.preambles && opt->pch != GM_PCH_NEVER) {
      fprintf(stderr,
              GM_PROGRAM ": warning: building a shared preamble crashed (%s); analysing "
                         "again without preambles\n",
              how);
      opt->pch = GM_PCH_NEVER;
    } else if (ok && f.files.len == 1) {
      skipped = gm_xrealloc(skipped, (nskipped + 1) * sizeof *skipped);
      skipped[nskipped++] = (struct skipped){f.files.items[0], sig};
    } else if (ok && f.files.len > 1 && opt->jobs != 1) {
      fprintf(stderr,
              GM_PROGRAM ": warning: an analysis crashed (%s) with %zu files in flight; "
                         "analysing again one file at a time\n",
              how, f.files.len);
      opt->jobs = 1;
    } else {
      fprintf(stderr,
              GM_PROGRAM ": error: the run crashed (%s)%s; rerun with --no-isolation -j 1 to see "
                         "where\n",
              how, ok ? " outside the analysis of any one file" : ", again and again");
      GM_VEC_FREE(f.files);
      return GM_EXIT_USAGE;
    }
    GM_VEC_FREE(f.files);
  }
}
