// When the struct's address reaches code that may change it (a function of the user's, defined
// elsewhere), the second test is unknown again, and a free of the wrong family is possible.
#include <cuda_runtime.h>
#include <stdlib.h>

struct options {
  int use_host;
};
void reload_options(struct options* o); // may rewrite use_host

void step(size_t n) {
  struct options opt = {0};
  reload_options(&opt);
  float* data;
  if (opt.use_host)
    data = (float*)malloc(n); // expected-note {{allocated here with malloc}}
  else
    cudaMalloc(&data, n); // expected-note {{allocated here with cudaMalloc}}
  reload_options(&opt);
  if (opt.use_host)
    free(data); // expected-warning {{device memory}}
  else
    cudaFree(data); // expected-warning {{host heap memory}}
}
