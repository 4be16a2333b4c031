// Release functions that free a member only in some cases of a switch, or on one branch of an
// if over a mode flag, while the init allocates it on every run and the release frees a sibling
// on every path: the other cases leak it.
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
  cudaMalloc(&m->d_index, nnz * sizeof(int)); // expected-warning {{'Matrix::d_index' (device memory from cudaMalloc) is not freed on every path: 'matrix_release' releases it only in some cases of its switch, while 'Matrix::d_values' of the same Matrix is freed there on every path; free it in every case (or after the switch) with cudaFree [GM001 unpaired-allocation]}}
}

void matrix_release(Matrix* m) {
  switch (m->layout) {
  case LAYOUT_CSR:
  case LAYOUT_COO:
    cudaFree(m->d_index); // expected-note {{'Matrix::d_index' is freed here, in this case of the switch only}}
    break;
  default:
    break;
  }
  cudaFree(m->d_values);
}

struct Frame {
  bool keep_host;
  unsigned char* h_pixels;
  unsigned char* d_pixels;
};

void frame_init(Frame* f, size_t bytes) {
  cudaMallocHost(&f->h_pixels, bytes); // expected-warning {{'Frame::h_pixels' (pinned host memory from cudaMallocHost) is not freed on every path: 'frame_release' releases it only on some branches of an if, while 'Frame::d_pixels' of the same Frame is freed there on every path; free it on every branch (or after the if) with cudaFreeHost [GM001 unpaired-allocation]}}
  cudaMalloc(&f->d_pixels, bytes);
}

void frame_release(Frame* f) {
  cudaFree(f->d_pixels);
  if (!f->keep_host)
    cudaFreeHost(f->h_pixels); // expected-note {{'Frame::h_pixels' is freed here, on this branch only}}
}
