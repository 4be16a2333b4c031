// expected-no-diagnostics
// The clean twins: each member is freed once on every path, or the object may have been given new
// memory between the frees (a call that may write it, the member reset, the pointer moved on).
#include <cuda_runtime.h>

#include <vector>

struct Layer {
  float* w;
  Layer* next;
};

struct Context {
  float* weights;
  float* grads;
  std::vector<Layer> layers;
};

void reallocate(Context* c);

void release_twice_with_reallocation(Context* c) {
  cudaFree(c->weights);
  reallocate(c); // may give c->weights a new block
  cudaFree(c->weights);
}

void release_and_reset(Context* c) {
  cudaFree(c->weights);
  c->weights = nullptr;
  cudaFree(c->weights);
}

void release_one_or_other(Context* c, int which) {
  if (which)
    cudaFree(c->weights);
  else
    cudaFree(c->grads);
}

void release_layers(Context& c) {
  for (auto& layer : c.layers)
    cudaFree(layer.w); // another layer on each iteration
}

void release_list(Layer* l) {
  while (l) {
    cudaFree(l->w);
    l = l->next;
  }
}

void release_swapped(Context* c) {
  float* t = c->weights;
  c->weights = c->grads;
  c->grads = t;
  cudaFree(c->weights);
  cudaFree(c->grads);
}

class Solver {
public:
  void reset();
  void release();

private:
  float* residual_;
};

void Solver::release() {
  cudaFree(residual_);
  reset(); // a method of the same object: it may allocate residual_ again
  cudaFree(this->residual_);
}
