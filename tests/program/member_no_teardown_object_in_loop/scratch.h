// A scratch buffer whose constructor (scratch.cu) allocates device memory; the class has no
// destructor, and main.cu makes one on every iteration of its loop.
#pragma once

class Scratch {
public:
  explicit Scratch(int n);
  void clear();

private:
  int n_;
  float *d_tmp_;
};
