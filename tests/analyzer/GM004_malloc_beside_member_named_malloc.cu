// A context with a function-pointer member named malloc, beside a real call of libc malloc that
// is never freed: the real call is still a leak.
#include <stdlib.h>

struct allocator_ctx {
  void* (*malloc)(size_t n);
};

void scratch_fill(struct allocator_ctx* ctx, int n) {
  float* owned = (float*)ctx->malloc(n * sizeof(float));
  float* s = (float*)malloc(n * sizeof(float)); // expected-warning {{'s' (host heap memory from malloc) is not freed on every path through 'scratch_fill'; call free when it is no longer needed [GM004 unpaired-host-allocation]}}
  for (int i = 0; i < n; i++)
    s[i] = owned[i];
} // expected-note {{'scratch_fill' ends here without freeing 's'}}
