// The twin of GM002_neg_variadic_free_helper: the same variadic walk, but before it the helper
// frees a pointer to a local array of its own, which no allocation returned.
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stddef.h>

void free_all(void *ptr, ...) {
  char scratch[16];
  void *p = scratch;
  cudaFree(p); // expected-warning {{'p', which points to 'scratch', a local array, is released with cudaFree, which releases only device memory an allocation call returned; nothing allocated it, so remove the call}}
  va_list list;
  va_start(list, ptr);
  p = ptr;
  while (p != NULL) {
    cudaFree(p);
    p = va_arg(list, void *);
  }
  va_end(list);
}
