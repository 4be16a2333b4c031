/* gmemrun: runs a program that cannot be rebuilt with gmemlint's runtime attached. The CUDA
 * driver loads the library named by CUDA_INJECTION64_PATH when the program initialises CUDA
 * and calls its InitializeInjection; libgmemrt_inject.so then sees every allocation, free and
 * copy through CUPTI's callbacks (static cudart included) and writes the same telemetry file as a
 * gmemcc build. gmemrun waits for the program, says where the telemetry went, and exits with the
 * program's status. A Python program also gets the PyTorch shim first on PYTHONPATH
 * (runtime/python): it records the caching allocator's own view beside the telemetry. */
#include "gmemrun_config.h"

#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <glob.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_USAGE = 2, EXIT_ATTACH = 3, EXIT_EXEC = 127 };

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: gmemrun [options] [--] <program> [arguments...]\n"
      "\n"
      "Runs the program with gmemlint's runtime injected through the CUDA driver\n"
      "(CUDA_INJECTION64_PATH) and CUPTI's API callbacks: no rebuild, any cudart. It\n"
      "writes the same telemetry as a gmemcc build; sites are the callers' return\n"
      "addresses, named file:line where the binary has debug information (-g).\n"
      "\n"
      "options:\n"
      "  -o, --output PATH    telemetry file; %%p is the process id (default\n"
      "                       gmemlint-%%p.json in the current directory)\n"
      "  --step-api NAME      mark the end of a step at each return from the CUDA\n"
      "                       function NAME (e.g. cudaDeviceSynchronize, cudaStreamSynchronize)\n"
      "  --library PATH       the injection library (default: libgmemrt_inject.so of this\n"
      "                       installation)\n"
      "  --no-torch           leave Python alone: no PyTorch shim on PYTHONPATH\n"
      "  -q, --quiet          do not report where the telemetry went\n"
      "  -h, --help           this help\n"
      "  --version            gmemrun's version\n"
      "\n"
      "A program may mark steps itself: gmem_step() from gmemrt.h, or from Python\n"
      "ctypes.CDLL(os.environ['CUDA_INJECTION64_PATH']).gmemrt_step().\n"
      "GMEMRT_* variables (docs/telemetry-format.md) tune the runtime as usual.\n"
      "\n"
      "A Python program using PyTorch's CUDA caching allocator also writes the\n"
      "allocator's view, T.torch.json and its snapshots beside the telemetry T.json,\n"
      "from a shim put first on PYTHONPATH; steps: optimizer.step(), or\n"
      "gmemlint_torch.step(). GMEMLINT_TORCH_MAX_ENTRIES bounds its history (200000).\n"
      "The shim is looked for in GMEMRUN_PYTHON_DIR when set, else beside gmemrun\n"
      "(<prefix>/share/gmemlint/python, <build>/python), else in the source tree; a\n"
      "Python program run without it says so on stderr and in its telemetry.\n"
      "\n"
      "Exit status: the program's (128+N when signal N ended it); 2 for a usage error; 3\n"
      "when there is no CUDA driver (libcuda.so.1 cannot be loaded, or is the toolkit's\n"
      "stub; the program is not run) or the runtime cannot attach (another CUPTI client\n"
      "such as compute-sanitizer or Nsight holds CUPTI, CUPTI is missing, or\n"
      "CUDA_INJECTION64_PATH is taken); 127 when the program cannot be run.\n");
}

/* Says plainly when sites could not be placed on source lines: those sites carry a function and
 * a module offset only, and the join cannot match them to static findings. */
static void note_missing_debug_info(const char *path) {
  json_error_t err;
  json_t *doc = json_load_file(path, 0, &err);
  json_t *sites = doc ? json_object_get(doc, "sites") : NULL;
  size_t total = 0, without = 0;
  char modules[256] = "";
  for (size_t i = 0; json_is_array(sites) && i < json_array_size(sites); i++) {
    json_t *site = json_array_get(sites, i);
    json_t *debug = json_object_get(site, "debug_info");
    if (!json_is_boolean(debug))
      continue;
    total++;
    if (json_is_true(debug))
      continue;
    without++;
    const char *module = json_string_value(json_object_get(site, "module"));
    const char *base = module ? strrchr(module, '/') : NULL;
    base = base ? base + 1 : module;
    if (base && !strstr(modules, base) && strlen(modules) + strlen(base) + 3 < sizeof modules)
      snprintf(modules + strlen(modules), sizeof modules - strlen(modules), "%s%s",
               modules[0] ? ", " : "", base);
  }
  if (without)
    fprintf(stderr,
            "gmemrun: note: %zu of %zu sites have no debug information (in %s): they are named by "
            "function and offset, and gmemlint cannot join them to source lines; rebuild with -g "
            "(host debug information; nvcc -g, or -Xcompiler -g) to get file:line\n",
            without, total, modules[0] ? modules : "unknown modules");
  json_decref(doc);
}

/* The folder gmemrun itself lies in, into dir (PATH_MAX bytes); 0 when it cannot be read. */
static int own_folder(char *dir) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 0;
  self[n] = 0;
  snprintf(dir, PATH_MAX, "%s", dirname(self));
  return 1;
}

/* libgmemrt_inject.so: in the tree around an installed gmemrun (<prefix>/bin/gmemrun with
 * <prefix>/GMEMRUN_INSTALL_LIBRARY), else the build tree's. */
static const char *find_library(void) {
  static char path[PATH_MAX + 64];
  char dir[PATH_MAX];
  if (own_folder(dir)) {
    snprintf(path, sizeof path, "%s/../%s", dir, GMEMRUN_INSTALL_LIBRARY);
    if (access(path, R_OK) == 0)
      return path;
  }
  return GMEMRUN_BUILD_LIBRARY;
}

/* The driver is what reads CUDA_INJECTION64_PATH: without it nothing attaches, and the program
 * would run for nothing (its CUDA calls failing, or a CPU fallback running uninstrumented). So
 * gmemrun loads it first, with the environment the program gets, as the program's loader would.
 * The toolkit's stub (lib64/stubs, for linking) loads but fails every call; cuDriverGetVersion
 * tells it apart without initialising anything. Returns 0, or -1 with the reason in why. */
static int find_driver(const char *driver, char *why, size_t n) {
  void *handle = dlopen(driver, RTLD_LAZY | RTLD_LOCAL);
  if (!handle) {
    snprintf(why, n, "%s could not be loaded: %s", driver, dlerror());
    return -1;
  }
  struct link_map *map = NULL;
  const char *path = dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map ? map->l_name : driver;
  CUresult (*get_version)(int *) = (CUresult(*)(int *))dlsym(handle, "cuDriverGetVersion");
  int version = 0;
  CUresult rc = get_version ? get_version(&version) : CUDA_SUCCESS;
  int found = -1;
  if (!get_version)
    snprintf(why, n, "%s has no cuDriverGetVersion: it is not a CUDA driver", path);
  else if (rc == CUDA_ERROR_STUB_LIBRARY)
    snprintf(why, n,
             "%s is the CUDA toolkit's stub library, for linking only; the NVIDIA driver's "
             "libcuda.so.1 must come first on the library path",
             path);
  else if (rc != CUDA_SUCCESS)
    snprintf(why, n, "%s: cuDriverGetVersion failed with error %d", path, (int)rc);
  else
    found = 0;
  dlclose(handle);
  return found;
}

static int holds_shim(const char *dir) {
  char probe[PATH_MAX + 32];
  snprintf(probe, sizeof probe, "%s/sitecustomize.py", dir);
  return access(probe, R_OK) == 0;
}

/* The PyTorch shim's folder: the one GMEMRUN_PYTHON_DIR names; else beside gmemrun in an install
 * prefix (<prefix>/GMEMRUN_INSTALL_PYTHON) or in a build tree, copied or moved whole (its
 * python/); else the source tree it was built from. NULL when none holds sitecustomize.py, with
 * the places looked at in `why`. */
static const char *find_python_dir(char *why, size_t whylen) {
  static char path[PATH_MAX];
  const char *named = getenv("GMEMRUN_PYTHON_DIR");
  if (named && *named) {
    if (holds_shim(named))
      return named;
    snprintf(why, whylen, "GMEMRUN_PYTHON_DIR=%s holds no sitecustomize.py", named);
    return NULL;
  }
  char dir[PATH_MAX], installed[PATH_MAX + 64] = "", beside[PATH_MAX + 16] = "";
  if (own_folder(dir)) {
    snprintf(installed, sizeof installed, "%s/../%s", dir, GMEMRUN_INSTALL_PYTHON);
    snprintf(beside, sizeof beside, "%s/python", dir);
    const char *const candidates[] = {installed, beside};
    for (size_t k = 0; k < 2; k++)
      if (holds_shim(candidates[k])) { /* <prefix>/share/..., not <prefix>/bin/../share/... */
        if (!realpath(candidates[k], path))
          snprintf(path, sizeof path, "%s", candidates[k]);
        return path;
      }
  }
  if (holds_shim(GMEMRUN_BUILD_PYTHON))
    return GMEMRUN_BUILD_PYTHON;
  snprintf(why, whylen,
           "no sitecustomize.py in %s, %s or %s; set GMEMRUN_PYTHON_DIR to the shim's folder "
           "(share/gmemlint/python of an install, runtime/python of the source tree)",
           installed[0] ? installed : "<prefix>/" GMEMRUN_INSTALL_PYTHON,
           beside[0] ? beside : "<gmemrun's folder>/python", GMEMRUN_BUILD_PYTHON);
  return NULL;
}

/* The shim first, the user's PYTHONPATH after it, unchanged. The runtime is told what became of
 * it (GMEMRT_TORCH_VIEW: "on", or "off: why"), to say so in a Python process and its telemetry. */
static void put_shim_on_pythonpath(int no_torch) {
  char why[3 * PATH_MAX + 256] = "gmemrun --no-torch";
  const char *shim = no_torch ? NULL : find_python_dir(why, sizeof why);
  if (!shim) {
    char view[sizeof why + 8];
    snprintf(view, sizeof view, "off: %s", why);
    setenv("GMEMRT_TORCH_VIEW", view, 1);
    return;
  }
  setenv("GMEMRT_TORCH_VIEW", "on", 1);
  const char *user = getenv("PYTHONPATH");
  if (!user || !*user) {
    setenv("PYTHONPATH", shim, 1);
    return;
  }
  size_t n = strlen(shim) + strlen(user) + 2;
  char *joined = malloc(n);
  if (!joined)
    return;
  snprintf(joined, n, "%s:%s", shim, user);
  setenv("PYTHONPATH", joined, 1);
  free(joined);
}

/* Lists the files this run wrote that match pattern (%p a wildcard), its .json replaced by
 * suffix where one is given; prints each as "gmemrun: <what>: PATH". Telemetry (suffix NULL)
 * skips the PyTorch view's own files, which the same glob matches (T.torch.json,
 * T.torch-exit.json, ...). Returns how many it printed. */
static size_t list_written(const char *pattern, const char *suffix, time_t started,
                           const char *what) {
  char glob_pattern[PATH_MAX];
  size_t k = 0;
  for (const char *p = pattern; *p && k + 2 < sizeof glob_pattern; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      glob_pattern[k++] = '*';
      p++;
    } else {
      glob_pattern[k++] = *p;
    }
  }
  glob_pattern[k] = 0;
  if (suffix) {
    if (k >= 5 && !strcmp(glob_pattern + k - 5, ".json"))
      glob_pattern[k -= 5] = 0;
    snprintf(glob_pattern + k, sizeof glob_pattern - k, "%s", suffix);
  }
  glob_t g;
  size_t printed = 0;
  if (glob(glob_pattern, 0, NULL, &g) != 0)
    return 0;
  for (size_t j = 0; j < g.gl_pathc; j++) {
    const char *path = g.gl_pathv[j];
    struct stat st;
    if (!suffix && (strstr(path, ".torch.json") || strstr(path, ".torch-")))
      continue;
    if (stat(path, &st) != 0 || st.st_mtime < started)
      continue;
    fprintf(stderr, "gmemrun: %s: %s\n", what, path);
    if (!suffix)
      note_missing_debug_info(path);
    printed++;
  }
  globfree(&g);
  return printed;
}

static int is_our_library(const char *path, const char *library) {
  char a[PATH_MAX], b[PATH_MAX];
  return realpath(path, a) && realpath(library, b) && strcmp(a, b) == 0;
}

int main(int argc, char **argv) {
  const char *output = NULL, *step_api = NULL, *library = NULL;
  int quiet = 0, no_torch = 0, i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      printf("gmemrun %s\n", GMEMRUN_VERSION);
      return 0;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "--no-torch")) {
      no_torch = 1;
    } else if ((!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--step-api") ||
                !strcmp(a, "--library")) &&
               i + 1 < argc) {
      const char *v = argv[++i];
      if (a[1] == 'o' || a[2] == 'o')
        output = v;
      else if (a[2] == 's')
        step_api = v;
      else
        library = v;
    } else if (!strncmp(a, "--output=", 9)) {
      output = a + 9;
    } else if (!strncmp(a, "--step-api=", 11)) {
      step_api = a + 11;
    } else if (!strncmp(a, "--library=", 10)) {
      library = a + 10;
    } else if (a[0] == '-') {
      fprintf(stderr,
              "gmemrun: error: unknown option '%s' (or missing value); see gmemrun --help\n", a);
      return EXIT_USAGE;
    } else {
      break;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "gmemrun: error: no program to run; usage: gmemrun [options] -- <program> "
                    "[arguments...]\n");
    return EXIT_USAGE;
  }
  if (!library)
    library = getenv("GMEMRUN_LIBRARY") ? getenv("GMEMRUN_LIBRARY") : find_library();
  if (access(library, R_OK) != 0) {
    fprintf(stderr, "gmemrun: error: %s: %s (the injection library; set --library)\n", library,
            strerror(errno));
    return EXIT_ATTACH;
  }
  /* the driver loads one injection library: another tool's would be replaced, half-working */
  const char *taken = getenv("CUDA_INJECTION64_PATH");
  if (taken && *taken && !is_our_library(taken, library)) {
    fprintf(stderr,
            "gmemrun: error: CUDA_INJECTION64_PATH is already set (%s): another tool (Nsight "
            "Systems, a profiler) is attached; run gmemrun without it\n",
            taken);
    return EXIT_ATTACH;
  }
  const char *driver = getenv("GMEMRUN_DRIVER") ? getenv("GMEMRUN_DRIVER") : "libcuda.so.1";
  char why_no_driver[PATH_MAX + 256];
  if (find_driver(driver, why_no_driver, sizeof why_no_driver) != 0) {
    fprintf(stderr,
            "gmemrun: error: no CUDA driver (%s); %s was not run: the runtime attaches through "
            "the driver\n",
            why_no_driver, argv[i]);
    return EXIT_ATTACH;
  }
  char status_path[] = "/tmp/gmemrun-status-XXXXXX";
  int status_fd = mkstemp(status_path);
  if (status_fd < 0) {
    fprintf(stderr, "gmemrun: error: cannot create a status file in /tmp: %s\n", strerror(errno));
    return EXIT_ATTACH;
  }
  close(status_fd);
  const char *pattern = output ? output : "gmemlint-%p.json";
  time_t started = time(NULL);

  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "gmemrun: error: fork: %s\n", strerror(errno));
    unlink(status_path);
    return EXIT_ATTACH;
  }
  if (child == 0) {
    setenv("CUDA_INJECTION64_PATH", library, 1);
    setenv("GMEMRUN_STATUS_FILE", status_path, 1);
    setenv("GMEMRT_OUTPUT", pattern, 1);
    if (step_api)
      setenv("GMEMRT_STEP_API", step_api, 1);
    put_shim_on_pythonpath(no_torch);
    execvp(argv[i], &argv[i]);
    fprintf(stderr, "gmemrun: error: cannot run %s: %s\n", argv[i], strerror(errno));
    _exit(EXIT_EXEC);
  }
  /* the terminal's Ctrl-C goes to the program; gmemrun waits for it to finish */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  char why[512] = "";
  FILE *f = fopen(status_path, "r");
  if (f) {
    size_t n = fread(why, 1, sizeof why - 1, f);
    why[n] = 0;
    fclose(f);
  }
  unlink(status_path);
  if (why[0]) {
    fprintf(stderr, "gmemrun: error: the runtime could not attach to %s: %s\n", argv[i], why);
    return EXIT_ATTACH;
  }
  if (!quiet) {
    /* the files this run wrote: the pattern with the child's pid, and any of its children */
    if (!list_written(pattern, NULL, started, "telemetry"))
      fprintf(stderr, "gmemrun: no telemetry was written (did %s use CUDA?)\n", argv[i]);
    if (!no_torch)
      list_written(pattern, ".torch.json", started, "torch view");
  }
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
