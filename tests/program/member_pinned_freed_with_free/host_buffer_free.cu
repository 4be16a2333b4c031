#include <cstdlib>

#include "host_buffer.h"

HostBuffer::~HostBuffer() {
  free(data); // expected-warning {{'HostBuffer::data' (pinned host memory from cudaMallocHost, allocated in 'HostBuffer') is released with free, which does not free it; use cudaFreeHost}} expected-note@host_buffer_alloc.cu:7 {{allocated here with cudaMallocHost}}
}
