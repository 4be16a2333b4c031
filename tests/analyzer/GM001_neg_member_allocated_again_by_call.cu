// expected-no-diagnostics
// The clean twin of GM001_member_allocated_again_by_call: the same methods, where the member
// holds nothing the call could lose. The allocation tests the member or frees it first; the
// member is freed between two calls; only one of two
// alternative set-ups runs per object (as cufinufft's 2D and 3D plans do); an init runs once per
// object, from its constructor or once after it; a re-init runs once, also after an allocating
// constructor.
#include <cuda_runtime.h>

class Buffer {
public:
  void resize(size_t n) { cudaMalloc(&d_, n); }
  void reserve(size_t n) {
    if (!d_)
      cudaMalloc(&d_, n);
  }
  void grow(size_t n) {
    if (cap_ < n) {
      cudaFree(d_);
      cudaMalloc(&d_, n);
      cap_ = n;
    }
  }
  void release() {
    cudaFree(d_);
    d_ = nullptr;
  }
  ~Buffer() { cudaFree(d_); }
  float *d_ = nullptr;
  size_t cap_ = 0;
};

void per_step() {
  Buffer b;
  for (int s = 0; s < 4; s++) {
    b.reserve(64);
    b.grow(64 * (s + 1));
  }
}

void freed_between(Buffer *p) {
  p->resize(8);
  p->release();
  p->resize(16);
}

struct Net {
  float *w;
};

void net_init(Net *n, size_t k) { cudaMalloc(&n->w, k); }
void net_free(Net *n) { cudaFree(n->w); }

void init_free_init() {
  Net n;
  net_init(&n, 8);
  net_free(&n);
  net_init(&n, 16);
  net_free(&n);
}

class Grid {
public:
  Grid() : d_(nullptr) {}
  explicit Grid(size_t n) { init(n); }
  void setup2d(size_t n) { cudaMalloc(&d_, n); }
  void setup3d(size_t n) { cudaMalloc(&d_, 2 * n); }
  void reinit(size_t n) {
    cudaFree(d_);
    setup2d(n);
  }
  ~Grid() { cudaFree(d_); }
  float *d_;

private:
  void init(size_t n) { cudaMalloc(&d_, n); }
};

void one_setup(int dim, size_t n) {
  Grid g;
  if (dim == 2)
    g.setup2d(n);
  else
    g.setup3d(n);
}

void init_once(size_t n) {
  Grid g;
  g.setup2d(n);
  Grid h(n);
  Grid k;
  k.reinit(n);
  Grid m(n);
  m.reinit(n);
}
