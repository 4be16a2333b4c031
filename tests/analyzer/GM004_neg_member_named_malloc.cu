// An allocator reached through a context's function-pointer member named malloc
// (`ctx->malloc(n)`) is the context's, not libc's: what it returns is not host heap memory
// that this function must free.
// expected-no-diagnostics
#include <stdlib.h>

struct allocator_ctx {
  void* (*malloc)(size_t n);
  void (*free)(void* p);
};

float* scratch_from(struct allocator_ctx* ctx, int n) {
  float* s = (float*)ctx->malloc(n * sizeof(float));
  s[0] = 0.0f;
  return s + 1;
}

void scratch_fill(struct allocator_ctx ctx, int n) {
  float* s = (float*)ctx.malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    s[i] = 0.0f;
}
