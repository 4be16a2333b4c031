/* The injected runtime still loads with dlopen, as the CUDA driver loads it, once another
 * library has taken part of glibc's static TLS reserve: its own initial-exec thread-locals
 * must leave room (the reserve is about 1.7 KiB for all such libraries together).
 * Usage: static_tls LIBRARY... (each opened in turn; exit 1 at the first that fails) */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!dlopen(argv[i], RTLD_NOW | RTLD_LOCAL)) {
      fprintf(stderr, "static_tls: error: %s\n", dlerror());
      return 1;
    }
  printf("static_tls: loaded %d libraries\n", argc - 1);
  return 0;
}
