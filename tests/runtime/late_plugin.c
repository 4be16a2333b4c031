/* A library the program loads after CUDA has started, calling the driver's allocator itself:
 * gmemrun must notice it links cuMemAlloc and turn the driver's callbacks on (late_app.cpp). */
#include <cuda.h>

CUdeviceptr late_plugin_alloc(void) {
  CUdeviceptr d = 0;
  cuMemAlloc(&d, 12288); /* @plugin: leaks */
  return d;
}
