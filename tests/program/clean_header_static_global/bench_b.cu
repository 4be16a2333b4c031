// expected-no-diagnostics
// This program keeps its copies for the life of the process: nothing of its own is freed, so
// bench_a.cu's frees of its own copies make no sibling here.
#include "common.h"

int main() {
  setup_main(1 << 20);
  return 0;
}
