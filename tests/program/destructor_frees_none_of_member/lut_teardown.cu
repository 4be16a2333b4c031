// expected-no-diagnostics
#include "lut.h"

DeviceLut::~DeviceLut() {
  cudaStreamSynchronize(stream_);
  cudaStreamDestroy(stream_);
}

int main() {
  float host[256] = {0};
  DeviceLut lut(host, 256);
  return 0;
}
