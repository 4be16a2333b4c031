// A return after a host call failed (malloc or fopen returned null, open returned -1) is an
// error path: device memory allocated before it and not freed there is an error-path leak, not
// a leak on the normal path.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int load(const char *path, size_t n) {
  float *d = nullptr;
  cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'load' without releasing it; call cudaFree before returning}}
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  fclose(f);
  cudaFree(d);
  return 0;
}

int read_raw(const char *path, size_t n) {
  float *d = nullptr;
  cudaMallocHost(&d, n); // expected-warning {{'d' (pinned host memory from cudaMallocHost) is not freed on an error path: a return after a failed call leaves 'read_raw' without releasing it; call cudaFreeHost before returning}}
  int fd = open(path, O_RDONLY);
  if (0 > fd)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  close(fd);
  cudaFreeHost(d);
  return 0;
}

// Not main: a return from main ends the program, and its leaks are GM005's.
int run(int argc, char **argv) {
  size_t n = 1 << 20;
  float *d = nullptr;
  cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'run' without releasing it; call cudaFree before returning}}
  float *h = (float *)malloc(n);
  if (!h)
    return 1;
  if (argc > 2) {
    free(h);
    return 2; // expected-note {{this return leaves without freeing 'd'}}
  }
  int rc = load(argv[1], n) + read_raw(argv[1], n);
  free(h);
  cudaFree(d);
  return rc;
}
