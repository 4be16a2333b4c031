#include <cuda_runtime.h>

#include "workspace.h"

Workspace::Workspace(size_t n) : n_(n) {
  cudaMalloc(&d_input_, n_ * sizeof(float));
  cudaMalloc(&d_output_, n_ * sizeof(float));
  cudaMallocHost(&h_staging_, n_ * sizeof(float)); // expected-warning {{'Workspace::h_staging_' (pinned host memory from cudaMallocHost) is never freed: no function in the program releases it, while 'Workspace::d_input_' of the same Workspace is freed in '~Workspace'; free it there with cudaFreeHost}} expected-note@workspace_release.cu:7 {{'Workspace::d_input_' is freed here, in '~Workspace'}}
}
