#include <vector>

#include "batch.cuh"

int main() {
  const int n = 1 << 20, steps = 100;
  std::vector<float> host(static_cast<size_t>(n) * steps, 1.0f);
  for (int step = 0; step < steps; ++step)
    process_batch(host.data() + static_cast<size_t>(step) * n, n);
  return 0;
}
