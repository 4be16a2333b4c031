// pthread_create's argument 3 goes to the new thread, which frees it when it is done.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>

struct job {
  float *d;
  size_t n;
};
void *worker(void *arg);

int start(pthread_t *t, size_t n) {
  struct job *j = (struct job *)malloc(sizeof *j);
  if (!j)
    return -1;
  if (cudaMalloc(&j->d, n) != cudaSuccess) {
    free(j);
    return -1;
  }
  j->n = n;
  return pthread_create(t, nullptr, worker, j);
}

int start_device(pthread_t *t, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  if (pthread_create(t, nullptr, worker, d) != 0) {
    cudaFree(d);
    return -1;
  }
  return 0;
}
// expected-no-diagnostics
