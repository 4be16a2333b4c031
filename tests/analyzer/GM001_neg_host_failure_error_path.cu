// expected-no-diagnostics
// The same shapes, with the device memory freed on each path where a host call failed; a test of
// a fallible call's result that says nothing of failure (`fd == 0`) is a plain branch.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int load(const char *path, size_t n) {
  float *d = nullptr;
  cudaMalloc(&d, n);
  FILE *f = fopen(path, "rb");
  if (!f) {
    cudaFree(d);
    return -1;
  }
  fclose(f);
  cudaFree(d);
  return 0;
}

int read_raw(const char *path, size_t n) {
  float *d = nullptr;
  cudaMallocHost(&d, n);
  int fd = open(path, O_RDONLY);
  if (fd == -1) {
    cudaFreeHost(d);
    return -1;
  }
  if (fd == 0)
    printf("reading standard input\n");
  close(fd);
  cudaFreeHost(d);
  return 0;
}

int main(int argc, char **argv) {
  size_t n = 1 << 20;
  float *d = nullptr;
  cudaMalloc(&d, n);
  float *h = (float *)malloc(n);
  if (h == NULL) {
    cudaFree(d);
    return 1;
  }
  int rc = argc > 1 ? load(argv[1], n) + read_raw(argv[1], n) : 0;
  free(h);
  cudaFree(d);
  return rc;
}
