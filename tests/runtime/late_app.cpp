// A program of the CUDA runtime alone that loads, after CUDA has started, a library calling
// cuMemAlloc directly (late_plugin.c). Under gmemrun the driver's callbacks start off and are
// turned on when the next runtime call sees the link map grown; check.py's `late_plugin`.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char **argv) {
  void *a = nullptr;
  cudaMalloc(&a, 4096); // CUDA starts: nothing links the driver's allocator yet
  void *plugin = dlopen(argc > 1 ? argv[1] : "liblate_plugin.so", RTLD_NOW);
  if (!plugin) {
    std::printf("late_app: %s\n", dlerror());
    return 1;
  }
  void *b = nullptr;
  cudaMalloc(&b, 4096); // the runtime's next call: the new library is read here
  auto alloc = reinterpret_cast<unsigned long long (*)()>(dlsym(plugin, "late_plugin_alloc"));
  alloc();
  cudaFree(a);
  cudaFree(b);
  std::printf("late_app: done\n");
  return 0;
}
