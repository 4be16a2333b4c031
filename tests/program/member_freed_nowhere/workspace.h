// A workspace whose constructor (workspace_init.cu) allocates three buffers and whose destructor
// (workspace_release.cu) frees two of them.
#pragma once
#include <cstddef>

class Workspace {
public:
  explicit Workspace(size_t n);
  ~Workspace();

private:
  size_t n_;
  float *d_input_;
  float *d_output_;
  float *h_staging_;
};
