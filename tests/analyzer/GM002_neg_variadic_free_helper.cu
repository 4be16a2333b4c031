// expected-no-diagnostics
// A variadic helper that frees a NULL-terminated list of device pointers (gpuNUFFT's
// freeTotalDeviceMemory): `va_arg` gives the caller's next argument, not the storage of the
// local va_list, so freeing it is no free of a local array, and the buffers the caller passes
// are freed. The twin GM002_variadic_helper_frees_local_array frees a local array of its own.
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stddef.h>

static void free_device(void *d) { cudaFree(d); }

void free_all(void *ptr, ...) {
  va_list list;
  va_start(list, ptr);
  void *p = ptr;
  while (p != NULL) {
    free_device(p);
    p = va_arg(list, void *);
  }
  va_end(list);
}

void use(size_t n) {
  float *a, *b;
  cudaMalloc(&a, n);
  cudaMalloc(&b, n);
  free_all(a, b, NULL);
}
