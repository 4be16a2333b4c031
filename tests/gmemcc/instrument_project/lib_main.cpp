/* calls no CUDA API itself: the static library's objects do, and CMake links it as C++ */
#include <cstdio>
int kern_scratch(void);
int main() {
  std::printf("lib_app: %d\n", kern_scratch());
  return 0;
}
