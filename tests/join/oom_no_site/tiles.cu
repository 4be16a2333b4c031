// An out-of-memory event that the runtime recorded without a site (it had none for the call:
// its site table could not grow), judged fragmentation from its figures. With no source line to
// name, the finding is placed at the telemetry file, without a line, and names the call only as
// "allocation".
#include <cuda_runtime.h>
#include <stddef.h>

int main() {
  float *whole = NULL;
  if (cudaMalloc((void **)&whole, (size_t)1 << 30) != cudaSuccess) // the event: GM103
    return 1;
  cudaFree(whole);
  return 0;
}
