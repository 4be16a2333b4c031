// A method (or a function given the object) that allocates into a member without freeing or
// testing what it held: called again on the same object, or after another call that filled the
// member, it loses the earlier block (issue 39). The calls are what the program itself makes: in
// a loop, twice in a row, a re-init method that runs two set-ups, a set-up after a constructor
// that allocated (the destructor frees only the second block).
#include <cuda_runtime.h>

class Buffer {
public:
  void resize(size_t n) { cudaMalloc(&d_, n); }
  ~Buffer() { cudaFree(d_); }
  float *d_ = nullptr;
};

__global__ void fill(float *p) { p[0] = 0.f; }

void per_step() {
  Buffer b;
  for (int s = 0; s < 4; s++) {
    b.resize(64 * (s + 1)); // expected-warning {{'b.d_' (device memory from resize) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note {{overwritten here while it still owns the memory}}
    fill<<<1, 1>>>(b.d_);
  }
}

void twice(Buffer *p) {
  p->resize(8); // expected-warning {{'p->d_' (device memory from resize) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+1 {{overwritten here while it still owns the memory}}
  p->resize(16);
}

struct Net {
  float *w;
};

void net_init(Net *n, size_t k) { cudaMalloc(&n->w, k); }
void net_free(Net *n) { cudaFree(n->w); }

void init_twice() {
  Net n;
  net_init(&n, 8); // expected-warning {{'n.w' (device memory from net_init) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+1 {{overwritten here while it still owns the memory}}
  net_init(&n, 16);
  net_free(&n);
}

class Grid {
public:
  Grid() : d_(nullptr) {}
  explicit Grid(size_t n) { cudaMalloc(&d_, n); }
  void setup2d(size_t n) { cudaMalloc(&d_, n); }
  void setup3d(size_t n) { cudaMalloc(&d_, 2 * n); }
  void reinit(size_t n) {
    setup2d(n); // expected-warning {{'d_' (device memory from setup2d) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+1 {{overwritten here while it still owns the memory}}
    setup3d(n);
  }
  ~Grid() { cudaFree(d_); }
  float *d_;
};

void construct_then_setup(size_t n) {
  Grid g(n); // expected-warning {{'g.d_' (device memory from Grid) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+1 {{overwritten here while it still owns the memory}}
  g.setup2d(n);
}
