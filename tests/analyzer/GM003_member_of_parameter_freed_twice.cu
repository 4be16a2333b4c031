// Members of an object the function was given (a pointer parameter, `this`) and a global pointer
// hold memory the function did not allocate: freeing one twice on a path is a double free all the
// same, directly or through a helper that frees its parameter.
#include <cuda_runtime.h>

struct Context {
  float* weights;
  float* grads;
};

float* g_lookup;

void release_buffer(float* p) { cudaFree(p); }

void context_release(Context* c) {
  cudaFree(c->weights); // expected-note {{first freed here}}
  cudaFree(c->grads);
  cudaFree(c->weights); // expected-warning {{'c->weights' is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}

void context_release_through_helper(Context* c) {
  release_buffer(c->grads); // expected-note {{first freed here}}
  cudaFree(c->grads); // expected-warning {{'c->grads' is freed twice: release_buffer already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}

void lookup_release() {
  cudaFree(g_lookup); // expected-note {{first freed here}}
  cudaFree(g_lookup); // expected-warning {{'g_lookup' is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}

class Solver {
public:
  void release();

private:
  float* residual_;
};

void Solver::release() {
  cudaFree(residual_); // expected-note {{first freed here}}
  cudaFree(this->residual_); // expected-warning {{'residual_' is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}
