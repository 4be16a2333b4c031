// strdup'ed kernel name leaks when the device query fails.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int log_launch(const char* kernel_name) {
  char* name = strdup(kernel_name); // expected-warning {{'name' (host heap memory from strdup) is not freed on an error path}}
  if (!name)
    return -1;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'name'}}
  for (char* c = name; *c; ++c)
    if (*c == ' ') *c = '_';
  printf("launch %s on device %d\n", name, dev);
  free(name);
  return 0;
}
