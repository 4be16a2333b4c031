// Run under gmemrun against the simulated runtime (which, as cudart does, fetches its driver
// entry points with cuGetProcAddress): the calls a runtime API makes go over from CUPTI callbacks
// to wrapped entry points after its first call, including while several threads allocate at
// once; direct driver calls and a driver entry point the program fetches itself stay under
// their driver names. check.py's `handover` scenario finds the sites by the @-markers.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main() {
  if (!std::getenv("INJECT_APP_NO_CUINIT"))
    cuInit(0); // a direct user of the driver initialises it itself
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  void *kept = nullptr;
  for (int i = 0; i < 10; ++i) {
    void *p = nullptr;
    cudaMallocAsync(&p, 1 << 20, stream); // @async: 10 calls, the last one kept
    if (i == 9)
      kept = p;
    else
      cudaFreeAsync(p, stream); // @freeasync
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 100; ++i) {
        void *p = nullptr;
        cudaMalloc(&p, 4096); // @threads: 400 calls, all freed
        cudaFree(p);          // @threadfree
      }
    });
  for (auto &t : threads)
    t.join();
  if (const char *n = std::getenv("INJECT_APP_PAIRS")) {
    // repeated stream-ordered pairs (runtime/pairs.h): batched through the wrappers; the last
    // allocation waits in this thread's slot and another thread frees it
    void *p = nullptr;
    for (int i = 0, pairs = std::atoi(n); i <= pairs; ++i) {
      cudaMallocAsync(&p, 2 << 20, stream); // @pairs: the last one freed by another thread
      if (i < pairs)
        cudaFreeAsync(p, stream); // @pairfree
    }
    std::thread([p, stream] {
      cudaFreeAsync(p, stream); /* @pairother */
    }).join();
  }
  void *large = nullptr;
  cudaMalloc(&large, size_t(96) << 20); // @large: the runtime's other path to the driver
  cudaFree(large);                      // @largefree
  void *huge = nullptr;
  cudaError_t rc = cudaMalloc(&huge, size_t(64) << 30); // @oom: more than the device has
  CUdeviceptr d = 0;
  cuMemAlloc(&d, 8192); // @driver: the driver API, linked directly
  cuMemFree(d);         // @driverfree
  void *fetched = nullptr;
  cuGetProcAddress("cuMemAlloc", &fetched, 12000, 0, nullptr);
  CUdeviceptr e = 0;
  reinterpret_cast<CUresult (*)(CUdeviceptr *, size_t)>(fetched)(&e, 16384); // @fetched: leaks
  cudaFreeAsync(kept, stream);
  cudaStreamSynchronize(stream);
  std::printf("inject_app: done (oom %d)\n", int(rc));
  return 0;
}
