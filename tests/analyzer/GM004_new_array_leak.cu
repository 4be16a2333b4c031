// A new[]'ed host mirror is not deleted on the validation-failure path.
#include <cuda_runtime.h>
#include <stdio.h>

bool validate_device_copy(const int* d_vals, int n, int expected) {
  int* mirror = new int[n]; // expected-warning {{'mirror' (heap array from new[]) is not freed on every path: a return leaves 'validate_device_copy' without releasing it; call delete[] before returning [GM004 unpaired-host-allocation]}}
  cudaMemcpy(mirror, d_vals, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (mirror[i] != expected) {
      printf("mismatch at %d\n", i);
      return false; // expected-note {{this return leaves without freeing 'mirror'}}
    }
  }
  delete[] mirror;
  return true;
}
