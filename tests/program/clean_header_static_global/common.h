// A header that gives every file including it its own static workspace, set up by its own copy
// of a static setup function: each file is a separate program of the project.
#pragma once
#include <cuda_runtime.h>

static void *workspace;
static float *d_scale;

static void setup_main(size_t bytes) {
  cudaMalloc(&workspace, bytes);
  cudaMalloc(&d_scale, sizeof(float));
}
