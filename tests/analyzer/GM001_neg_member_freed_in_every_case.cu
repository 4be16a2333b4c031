// expected-no-diagnostics
// Release functions whose conditional frees still cover every path, or whose conditions follow
// how the member was allocated: none leaks.
#include <cuda_runtime.h>

enum Layout { LAYOUT_DENSE, LAYOUT_CSR, LAYOUT_COO };

struct Matrix {
  Layout layout;
  float* d_values;
  int* d_index;
};

void matrix_init(Matrix* m, Layout layout, size_t nnz) {
  m->layout = layout;
  cudaMalloc(&m->d_values, nnz * sizeof(float));
  cudaMalloc(&m->d_index, nnz * sizeof(int));
}

// every case frees the index, one of them after falling through
void matrix_release(Matrix* m) {
  switch (m->layout) {
  case LAYOUT_CSR:
    cudaDeviceSynchronize();
  case LAYOUT_COO:
    cudaFree(m->d_index);
    break;
  default:
    cudaFree(m->d_index);
    break;
  }
  cudaFree(m->d_values);
}

// a null check of the member itself, and an early return when there is nothing to release
struct Frame {
  bool keep_host;
  unsigned char* h_pixels;
  unsigned char* d_pixels;
};

void frame_init(Frame* f, size_t bytes) {
  cudaMallocHost(&f->h_pixels, bytes);
  cudaMalloc(&f->d_pixels, bytes);
}

void frame_release(Frame* f) {
  if (!f)
    return;
  cudaFree(f->d_pixels);
  if (f->h_pixels != nullptr)
    cudaFreeHost(f->h_pixels);
}

// the whole teardown behind one flag: the object's state, not a forgotten case
struct Ring {
  bool ready;
  float* d_head;
  float* d_tail;
};

void ring_init(Ring* r, size_t n) {
  cudaMalloc(&r->d_head, n);
  cudaMalloc(&r->d_tail, n);
  r->ready = true;
}

void ring_release(Ring* r) {
  if (r->ready) {
    cudaFree(r->d_head);
    cudaFree(r->d_tail);
  }
}

// allocated under the same mode it is freed under
struct Stage {
  bool pinned;
  float* h_buf;
  float* d_buf;
};

void stage_init(Stage* s, size_t n) {
  if (s->pinned)
    cudaMallocHost(&s->h_buf, n);
  cudaMalloc(&s->d_buf, n);
}

void stage_release(Stage* s) {
  if (s->pinned)
    cudaFreeHost(s->h_buf);
  cudaFree(s->d_buf);
}

// allocated by a helper that its caller runs in one mode only
struct Scratch {
  bool tiled;
  float* d_tiles;
  float* d_out;
};

void scratch_alloc_tiles(Scratch* s, size_t n) {
  cudaMalloc(&s->d_tiles, n);
}

void scratch_init(Scratch* s, size_t n) {
  if (s->tiled)
    scratch_alloc_tiles(s, n);
  cudaMalloc(&s->d_out, n);
}

void scratch_release(Scratch* s) {
  if (s->tiled)
    cudaFree(s->d_tiles);
  cudaFree(s->d_out);
}
